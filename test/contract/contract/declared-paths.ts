/**
 * Store contract: queries on declared paths inside an object field (a host's `grain.os`), which an
 * adapter may answer from the path's index. Whatever it does, the answers are MongoDB's: values of
 * another type than the declared one (a number under a string path), null against missing, a
 * nullable path's `$exists`, and paths crossing arrays (element matching) — checked against the
 * expected ids and against the same documents in a collection that declares nothing.
 */
import type { CollectionSpec, Doc, Filter, SortSpec } from '../../../engine/src/store/port';
import { at, type Case, type Context } from './fixtures';

/** Machines with a grain object, several of its paths declared (one nullable) and indexed. */
export const MACHINES: CollectionSpec = {
  name: 'machines',
  scalarPaths: {
    'grain.os': 'string',
    'grain.osrelease': 'string',
    'grain.num_cpus': 'integer',
    'grain.mem': 'number',
    'grain.vm': 'boolean',
    'grain.serial': 'string',
    'grain.seen': 'datetime',
  },
  notNullPaths: ['grain.os', 'grain.osrelease', 'grain.num_cpus', 'grain.mem', 'grain.vm', 'grain.seen'],
  datetimePaths: ['grain.seen'],
  indexes: [
    { fields: [['grain.os', 1]] },
    { fields: [['grain.num_cpus', 1]] },
    { fields: [['grain.serial', 1]] },
    {
      fields: [
        ['grain.os', 1],
        ['grain.osrelease', -1],
      ],
    },
  ],
};
/** The same documents with nothing declared: the reference an adapter's push-down must agree with. */
export const MACHINES_PLAIN: CollectionSpec = {
  name: 'machines_plain',
  scalarPaths: {},
  datetimePaths: ['grain.seen'],
  indexes: [],
};

/**
 * Seven machines: values of the declared types, a string under the integer path (m4) and a number
 * under the string path (m6), a null serial (m2) against missing ones, no grain at all (m5), an
 * empty grain (m7), and an undeclared `roles` that is a list on some machines and a string on one.
 */
export function machines(): Doc[] {
  return [
    {
      _id: 'm1',
      grain: {
        os: 'Debian',
        osrelease: '12',
        num_cpus: 4,
        mem: 8.5,
        vm: true,
        serial: 'A1',
        seen: at(1),
        roles: ['web', 'db'],
      },
    },
    {
      _id: 'm2',
      grain: {
        os: 'Ubuntu',
        osrelease: '22.04',
        num_cpus: 8,
        mem: 16,
        vm: false,
        serial: null,
        seen: at(2),
        roles: ['web'],
      },
    },
    { _id: 'm3', grain: { os: 'Debian', osrelease: '11', num_cpus: 2, mem: 4, vm: false, roles: 'db' } },
    {
      _id: 'm4',
      grain: { os: 'Rocky', osrelease: '9.4', num_cpus: '16', mem: 32, serial: 'B2', seen: at(4) },
    },
    { _id: 'm5', name: 'no grain' },
    { _id: 'm6', grain: { os: 7, osrelease: '7', num_cpus: 64, mem: 2.25, vm: true, serial: 'C3' } },
    { _id: 'm7', grain: {} },
  ];
}

/** Filters on declared paths inside `grain`, and the ids MongoDB finds. */
export const DECLARED_PATH_CASES: readonly Case[] = [
  ['equality', { 'grain.os': 'Debian' }, ['m1', 'm3']],
  ['$eq', { 'grain.osrelease': { $eq: '9.4' } }, ['m4']],
  ['$in', { 'grain.os': { $in: ['Ubuntu', 'Rocky'] } }, ['m2', 'm4']],
  ['$ne matches other types and missing', { 'grain.os': { $ne: 'Debian' } }, ['m2', 'm4', 'm5', 'm6', 'm7']],
  ['$nin matches missing', { 'grain.os': { $nin: ['Debian', 'Ubuntu'] } }, ['m4', 'm5', 'm6', 'm7']],
  ['string range skips the number', { 'grain.os': { $gt: 'D', $lt: 'S' } }, ['m1', 'm3', 'm4']],
  ['string $gt skips the number', { 'grain.os': { $gt: 'A' } }, ['m1', 'm2', 'm3', 'm4']],
  ['integer equality', { 'grain.num_cpus': 4 }, ['m1']],
  ['integer range skips the string', { 'grain.num_cpus': { $gte: 8 } }, ['m2', 'm6']],
  ['integer $lt', { 'grain.num_cpus': { $lt: 8 } }, ['m1', 'm3']],
  ['a string on the integer path', { 'grain.num_cpus': '16' }, ['m4']],
  ['a number on the string path', { 'grain.os': 7 }, ['m6']],
  ['$in of mixed types', { 'grain.num_cpus': { $in: [2, '16', 64] } }, ['m3', 'm4', 'm6']],
  ['number range', { 'grain.mem': { $gt: 4, $lte: 16 } }, ['m1', 'm2']],
  ['integer against a fraction', { 'grain.mem': { $lt: 2.5 } }, ['m6']],
  ['$exists true', { 'grain.os': { $exists: true } }, ['m1', 'm2', 'm3', 'm4', 'm6']],
  ['$exists false', { 'grain.os': { $exists: false } }, ['m5', 'm7']],
  ['$exists 1', { 'grain.num_cpus': { $exists: 1 } }, ['m1', 'm2', 'm3', 'm4', 'm6']],
  ['$exists 0', { 'grain.vm': { $exists: 0 } }, ['m4', 'm5', 'm7']],
  [
    '$exists true on a nullable path: null exists',
    { 'grain.serial': { $exists: true } },
    ['m1', 'm2', 'm4', 'm6'],
  ],
  ['$exists false on a nullable path', { 'grain.serial': { $exists: false } }, ['m3', 'm5', 'm7']],
  ['null matches null and missing', { 'grain.serial': null }, ['m2', 'm3', 'm5', 'm7']],
  ['$ne null', { 'grain.serial': { $ne: null } }, ['m1', 'm4', 'm6']],
  ['$in with null', { 'grain.serial': { $in: [null, 'B2'] } }, ['m2', 'm3', 'm4', 'm5', 'm7']],
  ['$nin with null', { 'grain.serial': { $nin: [null, 'B2'] } }, ['m1', 'm6']],
  ['boolean true', { 'grain.vm': true }, ['m1', 'm6']],
  ['boolean false', { 'grain.vm': false }, ['m2', 'm3']],
  ['boolean $ne matches missing', { 'grain.vm': { $ne: true } }, ['m2', 'm3', 'm4', 'm5', 'm7']],
  ['datetime range', { 'grain.seen': { $gte: at(2) } }, ['m2', 'm4']],
  ['pattern with a prefix', { 'grain.os': { $regex: '^Deb' } }, ['m1', 'm3']],
  ['exists and range together', { 'grain.num_cpus': { $exists: true, $lte: 4 } }, ['m1', 'm3']],
  ['two declared paths', { 'grain.os': 'Debian', 'grain.osrelease': { $gte: '12' } }, ['m1']],
  [
    '$or of declared paths',
    { $or: [{ 'grain.os': 'Rocky' }, { 'grain.num_cpus': { $lte: 2 } }] },
    ['m3', 'm4'],
  ],
  ['undeclared path: a list element or the string', { 'grain.roles': 'db' }, ['m1', 'm3']],
  ['declared and undeclared together', { 'grain.os': 'Debian', 'grain.roles': 'web' }, ['m1']],
  ['the whole object missing', { grain: { $exists: false } }, ['m5']],
];

/** Sorts on declared paths, and the order MongoDB gives (missing and null first, numbers before strings). */
export const DECLARED_PATH_SORTS: ReadonlyArray<readonly [SortSpec, readonly string[]]> = [
  [[['grain.num_cpus', 1]], ['m5', 'm7', 'm3', 'm1', 'm2', 'm6', 'm4']],
  [[['grain.num_cpus', -1]], ['m4', 'm6', 'm2', 'm1', 'm3', 'm5', 'm7']],
  [
    [
      ['grain.os', 1],
      ['grain.osrelease', -1],
    ],
    ['m5', 'm7', 'm6', 'm1', 'm3', 'm4', 'm2'],
  ],
];

async function ids(ctx: Context, collection: string, filter: Filter, sort?: SortSpec): Promise<string[]> {
  return (await ctx.store.find(collection, filter, { sort: sort ?? [['_id', 1]] })).map((d) => d._id);
}

/** Each case finds its ids, in both collections, and counts them alike. */
export function declaredPathTests(ctx: Context): void {
  beforeEach(async () => {
    await ctx.store.ensureCollection(MACHINES);
    await ctx.store.ensureCollection(MACHINES_PLAIN);
    await ctx.store.insert('machines', machines());
    await ctx.store.insert('machines_plain', machines());
  });
  test.each(DECLARED_PATH_CASES)('%s', async (_label, filter, expected) => {
    expect(await ids(ctx, 'machines', filter)).toEqual(expected);
    expect(await ids(ctx, 'machines_plain', filter)).toEqual(expected);
    expect(await ctx.store.count('machines', filter)).toBe(expected.length);
  });
  test.each(DECLARED_PATH_SORTS.map(([sort, expected], i) => [i, sort, expected] as const))(
    'sort #%d',
    async (_i, sort, expected) => {
      expect(await ids(ctx, 'machines', {}, sort)).toEqual(expected);
      expect(await ids(ctx, 'machines_plain', {}, sort)).toEqual(expected);
    },
  );
  test('a page of a filtered, sorted query and its documents are the same in both', async () => {
    const options = { sort: [['grain.osrelease', -1]] as SortSpec, skip: 1, limit: 2 };
    const filter = { 'grain.os': { $in: ['Debian', 'Rocky', 'Ubuntu'] } };
    const found = await ctx.store.find('machines', filter, options);
    expect(found.map((d) => d._id)).toEqual(['m2', 'm1']);
    expect(found).toEqual(await ctx.store.find('machines_plain', filter, options));
    expect(found[1]?.grain).toEqual(expect.objectContaining({ seen: at(1) }));
  });
}
