/**
 * The store contract: one suite every adapter of the store port must pass (Feathers adapter-tests
 * style). Fixtures go in through the port only; each concern is its own `describe`, and an adapter
 * may opt out of a concern only by stating why.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { BadRequest, Conflict, ServiceUnavailable } from '../../engine/src/errors';
import type { CollectionSpec, Doc, Filter, FindOptions, SortSpec, Store } from '../../engine/src/store/port';

/** The concerns of the suite, each a `describe`. */
export type Concern =
  | 'query operators'
  | 'nested and array fields'
  | 'datetimes'
  | 'sort'
  | 'projection'
  | 'skip and limit'
  | 'count'
  | 'insert'
  | 'update'
  | 'findOneAndUpdate'
  | 'delete'
  | 'aggregate'
  | 'push-down equivalence'
  | 'media'
  | 'leases'
  | 'lifecycle';

/** Options of {@link runStoreContract}. */
export interface StoreContractOptions {
  /** Concerns this adapter skips, each with the reason (printed in the test name). */
  readonly skip?: Partial<Readonly<Record<Concern, string>>>;
}

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);
/** A fixed datetime `days` after 2024-01-01T00:00Z. */
const at = (days: number): Date => new Date(T0 + days * DAY);

/** Hosts, declared with push-down candidates and indexes. */
const HOSTS: CollectionSpec = {
  name: 'hosts',
  scalarPaths: { name: 'string', status: 'string', cpu: 'integer', load: 'number', active: 'boolean', _created: 'datetime', 'os.family': 'string' },
  datetimePaths: ['_created', 'fingerprint_history.added', 'events.at'],
  indexes: [{ fields: [['name', 1]], unique: true }, { fields: [['status', 1], ['_created', -1]] }, { fields: [['cpu', 1]] }],
};
/** The same documents with nothing an adapter could push down: the reference for equivalence. */
const PLAIN: CollectionSpec = { ...HOSTS, name: 'hosts_plain', scalarPaths: {}, indexes: [] };
const JOBS: CollectionSpec = { name: 'jobs', scalarPaths: { status: 'string', n: 'integer' }, datetimePaths: [], indexes: [] };

/** Six hosts with missing fields, nulls, arrays, nested objects and datetimes inside arrays. */
function hosts(): Doc[] {
  return [
    { _id: 'h1', name: 'alpha', status: 'up', cpu: 4, load: 0.5, active: true, _created: at(0), os: { family: 'debian', version: '12' }, tags: ['web', 'prod'], fingerprint_history: [{ fp: 'aa', added: at(0) }] },
    { _id: 'h2', name: 'beta', status: 'down', cpu: 8, load: 1.5, active: false, _created: at(1), os: { family: 'debian', version: '11' }, tags: ['db'], fingerprint_history: [{ fp: 'bb', added: at(1) }, { fp: 'bc', added: at(5) }] },
    { _id: 'h3', name: 'gamma', status: 'up', cpu: 2, load: null, active: true, _created: at(2), os: { family: 'ubuntu', version: '22.04' }, tags: [] },
    { _id: 'h4', name: 'delta', status: 'up', cpu: 4, _created: at(3), tags: ['web'] },
    { _id: 'h5', name: 'Epsilon', status: 'unknown', cpu: 16, load: 3, active: false, _created: at(4), os: { family: 'centos' }, tags: ['web', 'db', 'prod'] },
    { _id: 'h6', name: 'zeta', status: 'down', cpu: 4, load: 0.5, active: true, _created: at(5), tags: ['edge', 'prod'], events: [{ kind: 'boot', at: at(6) }] },
  ];
}

type Case = readonly [label: string, filter: Filter, expected: readonly string[]];

const OPERATOR_CASES: readonly Case[] = [
  ['implicit equality', { status: 'up' }, ['h1', 'h3', 'h4']],
  ['$eq', { cpu: { $eq: 4 } }, ['h1', 'h4', 'h6']],
  ['$ne matches null and missing', { load: { $ne: 0.5 } }, ['h2', 'h3', 'h4', 'h5']],
  ['$gt', { cpu: { $gt: 4 } }, ['h2', 'h5']],
  ['$gte', { cpu: { $gte: 4 } }, ['h1', 'h2', 'h4', 'h5', 'h6']],
  ['$lt skips null', { load: { $lt: 1 } }, ['h1', 'h6']],
  ['$lte', { cpu: { $lte: 2 } }, ['h3']],
  ['two operators on one field', { cpu: { $gte: 4, $lt: 16 } }, ['h1', 'h2', 'h4', 'h6']],
  ['$in', { status: { $in: ['down', 'unknown'] } }, ['h2', 'h5', 'h6']],
  ['$in with null matches missing', { load: { $in: [null, 3] } }, ['h3', 'h4', 'h5']],
  ['$in empty', { status: { $in: [] } }, []],
  ['$nin matches null and missing', { load: { $nin: [0.5, 1.5] } }, ['h3', 'h4', 'h5']],
  ['$nin with null', { load: { $nin: [null, 0.5] } }, ['h2', 'h5']],
  ['null matches null and missing', { load: null }, ['h3', 'h4']],
  ['$ne null', { load: { $ne: null } }, ['h1', 'h2', 'h5', 'h6']],
  ['$exists true (null exists)', { load: { $exists: true } }, ['h1', 'h2', 'h3', 'h5', 'h6']],
  ['$exists false', { os: { $exists: false } }, ['h4', 'h6']],
  ['$regex with $options', { name: { $regex: '^eps', $options: 'i' } }, ['h5']],
  ['RegExp value', { name: /^[a-d]/ }, ['h1', 'h2', 'h4']],
  ['$not', { cpu: { $not: { $gt: 4 } } }, ['h1', 'h3', 'h4', 'h6']],
  ['$and', { $and: [{ status: 'up' }, { cpu: 4 }] }, ['h1', 'h4']],
  ['$or', { $or: [{ status: 'unknown' }, { cpu: 2 }] }, ['h3', 'h5']],
  ['$or with a regex branch', { $or: [{ name: /^z/ }, { cpu: 2 }] }, ['h3', 'h6']],
  ['$nor', { $nor: [{ status: 'up' }, { cpu: 16 }] }, ['h2', 'h6']],
  ['$all', { tags: { $all: ['web', 'prod'] } }, ['h1', 'h5']],
  ['$elemMatch', { fingerprint_history: { $elemMatch: { fp: 'bc', added: { $gt: at(2) } } } }, ['h2']],
  ['$size', { tags: { $size: 1 } }, ['h2', 'h4']],
  ['$size 0', { tags: { $size: 0 } }, ['h3']],
  ['$type null', { load: { $type: 'null' } }, ['h3']],
  ['$type number', { load: { $type: 'number' } }, ['h1', 'h2', 'h5', 'h6']],
  ['boolean', { active: false }, ['h2', 'h5']],
  ['boolean $ne matches missing', { active: { $ne: true } }, ['h2', 'h4', 'h5']],
  ['_id range', { _id: { $gt: 'h2', $lte: 'h4' } }, ['h3', 'h4']],
  ['_id $in', { _id: { $in: ['h6', 'h1', 'nope'] } }, ['h1', 'h6']],
  ['a value of another type matches nothing', { cpu: '4' }, []],
];

const NESTED_CASES: readonly Case[] = [
  ['dotted path', { 'os.family': 'debian' }, ['h1', 'h2']],
  ['dotted path $in', { 'os.version': { $in: ['11', '12'] } }, ['h1', 'h2']],
  ['dotted path missing parent', { 'os.family': null }, ['h4', 'h6']],
  ['equality on an array element', { tags: 'web' }, ['h1', 'h4', 'h5']],
  ['exact array', { tags: ['db'] }, ['h2']],
  ['array position', { 'tags.0': 'web' }, ['h1', 'h4', 'h5']],
  ['field of array elements', { 'fingerprint_history.fp': 'bb' }, ['h2']],
  ['datetime inside an array', { 'events.at': { $gte: at(6) } }, ['h6']],
];

const DATETIME_CASES: readonly Case[] = [
  ['$gte and $lt', { _created: { $gte: at(2), $lt: at(4) } }, ['h3', 'h4']],
  ['$gt', { _created: { $gt: at(4) } }, ['h6']],
  ['equality', { _created: at(1) }, ['h2']],
  ['$in', { _created: { $in: [at(0), at(5)] } }, ['h1', 'h6']],
  ['in array elements', { 'fingerprint_history.added': { $gte: at(5) } }, ['h2']],
];

type SortCase = readonly [label: string, sort: SortSpec, expected: readonly string[]];

const SORT_CASES: readonly SortCase[] = [
  ['ascending, ties by _id', [['cpu', 1]], ['h3', 'h1', 'h4', 'h6', 'h2', 'h5']],
  ['descending, ties still by _id ascending', [['cpu', -1]], ['h5', 'h2', 'h1', 'h4', 'h6', 'h3']],
  ['multi-key', [['status', 1], ['cpu', -1]], ['h2', 'h6', 'h5', 'h1', 'h4', 'h3']],
  ['null and missing first, as equals', [['load', 1]], ['h3', 'h4', 'h1', 'h6', 'h2', 'h5']],
  ['dotted path', [['os.family', 1]], ['h4', 'h6', 'h5', 'h1', 'h2', 'h3']],
  ['datetime descending', [['_created', -1]], ['h6', 'h5', 'h4', 'h3', 'h2', 'h1']],
  ['binary string order (capitals first)', [['name', 1]], ['h5', 'h1', 'h2', 'h4', 'h3', 'h6']],
  ['_id descending', [['_id', -1]], ['h6', 'h5', 'h4', 'h3', 'h2', 'h1']],
];

/** Queries run on `hosts` and `hosts_plain`: pushed down or not, the answers must be identical. */
const EQUIVALENCE: ReadonlyArray<readonly [Filter, FindOptions]> = [
  ...OPERATOR_CASES.map(([, filter]) => [filter, {}] as const),
  ...NESTED_CASES.map(([, filter]) => [filter, {}] as const),
  ...DATETIME_CASES.map(([, filter]) => [filter, {}] as const),
  ...SORT_CASES.map(([, sort]) => [{}, { sort }] as const),
  [{ status: 'up' }, { sort: [['_created', -1]], limit: 2 }],
  [{ status: 'up', name: /a/ }, { sort: [['_created', -1]], skip: 1, limit: 1 }],
  [{ cpu: { $gte: 4 } }, { sort: [['load', -1], ['name', 1]], skip: 1, limit: 3 }],
  [{ $or: [{ status: 'down' }, { tags: 'db' }] }, { sort: [['cpu', 1]] }],
  [{ status: { $ne: 'up' } }, { projection: { tags: 0, fingerprint_history: 0 }, sort: [['_id', 1]] }],
  [{ cpu: 4 }, { projection: { name: 1, 'os.family': 1 }, sort: [['name', -1]] }],
];

/** What every concern's tests reach: the current store (fresh per test) and two read helpers. */
interface Context {
  readonly store: Store;
  /** The ids `find` returns (sorted by `_id` unless `find.sort` says otherwise). */
  ids(collection: string, filter: Filter, find?: FindOptions): Promise<string[]>;
  /** One host by id. */
  one(id: string): Promise<Doc | undefined>;
}

function queryOperatorsTests(ctx: Context): void {
  test.each(OPERATOR_CASES)('%s', async (_label, filter, expected) => {
    expect(await ctx.ids('hosts', filter)).toEqual(expected);
  });
}

function nestedAndArrayFieldsTests(ctx: Context): void {
  test.each(NESTED_CASES)('%s', async (_label, filter, expected) => {
    expect(await ctx.ids('hosts', filter)).toEqual(expected);
  });
}

function datetimesTests(ctx: Context): void {
  test.each(DATETIME_CASES)('compare: %s', async (_label, filter, expected) => {
    expect(await ctx.ids('hosts', filter)).toEqual(expected);
  });
  test('a Date in is a Date out, also inside arrays', async () => {
    const h2 = await ctx.one('h2');
    expect(h2?._created).toBeInstanceOf(Date);
    expect(h2?._created).toEqual(at(1));
    expect(h2?.fingerprint_history).toEqual([{ fp: 'bb', added: at(1) }, { fp: 'bc', added: at(5) }]);
    expect((await ctx.one('h6'))?.events).toEqual([{ kind: 'boot', at: at(6) }]);
  });
  test('dates written by updates come back as dates', async () => {
    await ctx.store.update('hosts', { _id: 'h1' }, { $push: { fingerprint_history: { fp: 'ab', added: at(7) } }, $set: { _created: at(8) } });
    const h1 = await ctx.one('h1');
    expect(h1?._created).toEqual(at(8));
    expect(h1?.fingerprint_history).toEqual([{ fp: 'aa', added: at(0) }, { fp: 'ab', added: at(7) }]);
  });
  test('a string that looks like a date in an undeclared field stays a string', async () => {
    await ctx.store.insert('hosts', [{ _id: 'h7', name: 'eta', note: '2024-01-01T00:00:00.000Z' }]);
    expect((await ctx.one('h7'))?.note).toBe('2024-01-01T00:00:00.000Z');
  });
}

function sortTests(ctx: Context): void {
  test.each(SORT_CASES)('%s', async (_label, sort, expected) => {
    expect(await ctx.ids('hosts', {}, { sort })).toEqual(expected);
  });
  test('sort with a filter that cannot be pushed down', async () => {
    expect(await ctx.ids('hosts', { name: /a/ }, { sort: [['cpu', -1]] })).toEqual(['h2', 'h1', 'h4', 'h6', 'h3']);
  });
}

function projectionTests(ctx: Context): void {
  test('inclusive keeps the fields and _id', async () => {
    const docs = await ctx.store.find('hosts', { cpu: 4 }, { projection: { name: 1 }, sort: [['_id', 1]] });
    expect(docs).toEqual([{ _id: 'h1', name: 'alpha' }, { _id: 'h4', name: 'delta' }, { _id: 'h6', name: 'zeta' }]);
  });
  test('inclusive of a dotted path', async () => {
    expect(await ctx.store.find('hosts', { _id: 'h1' }, { projection: { 'os.family': 1, cpu: 1 } })).toEqual([{ _id: 'h1', cpu: 4, os: { family: 'debian' } }]);
  });
  test('exclusive drops the fields only', async () => {
    const [h2] = await ctx.store.find('hosts', { _id: 'h2' }, { projection: { tags: 0, fingerprint_history: 0, os: 0 } });
    expect(h2).toEqual({ _id: 'h2', name: 'beta', status: 'down', cpu: 8, load: 1.5, active: false, _created: at(1) });
  });
  test('exclusive of a dotted path', async () => {
    const [h1] = await ctx.store.find('hosts', { _id: 'h1' }, { projection: { 'os.version': 0 } });
    expect(h1?.os).toEqual({ family: 'debian' });
  });
  test('_id is kept even when excluded', async () => {
    expect(await ctx.store.find('hosts', { _id: 'h3' }, { projection: { _id: 0, name: 1 } })).toEqual([{ _id: 'h3', name: 'gamma' }]);
  });
  test('projection with a residual filter and a sort', async () => {
    const docs = await ctx.store.find('hosts', { tags: 'web' }, { projection: { cpu: 1 }, sort: [['cpu', -1]] });
    expect(docs).toEqual([{ _id: 'h5', cpu: 16 }, { _id: 'h1', cpu: 4 }, { _id: 'h4', cpu: 4 }]);
  });
}

function skipAndLimitTests(ctx: Context): void {
  const byCpu: SortSpec = [['cpu', 1]];
  test('a middle page', async () => {
    expect(await ctx.ids('hosts', {}, { sort: byCpu, skip: 2, limit: 2 })).toEqual(['h4', 'h6']);
  });
  test('a partial last page', async () => {
    expect(await ctx.ids('hosts', {}, { sort: byCpu, skip: 5, limit: 5 })).toEqual(['h5']);
  });
  test('past the end is empty', async () => {
    expect(await ctx.ids('hosts', {}, { sort: byCpu, skip: 6, limit: 2 })).toEqual([]);
    expect(await ctx.ids('hosts', {}, { sort: byCpu, skip: 100 })).toEqual([]);
  });
  test('a limit larger than the total returns everything', async () => {
    expect(await ctx.ids('hosts', {}, { sort: byCpu, limit: 1000 })).toHaveLength(6);
  });
  test('paging over a residual filter', async () => {
    expect(await ctx.ids('hosts', { name: /a/ }, { sort: byCpu, skip: 1, limit: 2 })).toEqual(['h1', 'h4']);
  });
}

function countTests(ctx: Context): void {
  test.each([
    ['everything', {}, 6],
    ['a pushable filter', { status: 'up' }, 3],
    ['a range', { _created: { $gte: at(3) } }, 3],
    ['a regex', { name: /a/ }, 5],
    ['nothing', { status: 'gone' }, 0],
    ['a mixed $or', { $or: [{ tags: 'db' }, { cpu: 2 }] }, 3],
  ] as const)('%s', async (_label, filter, expected) => {
    expect(await ctx.store.count('hosts', filter)).toBe(expected);
  });
}

function insertTests(ctx: Context): void {
  test('a document round-trips', async () => {
    const doc = { _id: 'h7', name: 'eta', nested: { deep: [1, { x: 'y' }] }, flag: false, none: null, _created: at(9) };
    await ctx.store.insert('hosts', [doc]);
    expect(await ctx.one('h7')).toEqual(doc);
  });
  test('a duplicate _id is a Conflict naming _id', async () => {
    const p = ctx.store.insert('hosts', [{ _id: 'h1', name: 'other' }]);
    await expect(p).rejects.toBeInstanceOf(Conflict);
    await expect(ctx.store.insert('hosts', [{ _id: 'h1', name: 'other' }])).rejects.toMatchObject({ field: '_id' });
  });
  test('a unique index violation is a Conflict naming the field', async () => {
    await expect(ctx.store.insert('hosts', [{ _id: 'h7', name: 'alpha' }])).rejects.toBeInstanceOf(Conflict);
    await expect(ctx.store.insert('hosts', [{ _id: 'h7', name: 'alpha' }])).rejects.toMatchObject({ field: 'name' });
  });
  test('a bulk insert is all or nothing', async () => {
    await expect(ctx.store.insert('hosts', [{ _id: 'n1', name: 'n1' }, { _id: 'n2', name: 'n2' }, { _id: 'h3', name: 'n3' }])).rejects.toBeInstanceOf(Conflict);
    await expect(ctx.store.insert('hosts', [{ _id: 'n1', name: 'n1' }, { _id: 'n2', name: 'n1' }])).rejects.toBeInstanceOf(Conflict);
    expect(await ctx.store.count('hosts', { _id: { $in: ['n1', 'n2'] } })).toBe(0);
  });
  test('an undeclared collection works without ensureCollection', async () => {
    await ctx.store.insert('misc', [{ _id: 'm1', a: 1 }]);
    expect(await ctx.store.find('misc', {})).toEqual([{ _id: 'm1', a: 1 }]);
  });
}

function updateTests(ctx: Context): void {
  const apply = async (update: Record<string, unknown>, id = 'h1'): Promise<Doc | undefined> => {
    await ctx.store.update('hosts', { _id: id }, update);
    return ctx.one(id);
  };
  test('$set, including a dotted path', async () => {
    expect(await ctx.store.update('hosts', { _id: 'h1' }, { $set: { status: 'down', 'os.version': '13' } })).toEqual({ matched: 1, modified: 1 });
    expect(await ctx.one('h1')).toMatchObject({ status: 'down', os: { family: 'debian', version: '13' } });
  });
  test('$unset', async () => {
    const h1 = await apply({ $unset: { load: '', 'os.version': '' } });
    expect(h1).not.toHaveProperty('load');
    expect(h1?.os).toEqual({ family: 'debian' });
  });
  test('$inc on an existing and a missing field', async () => {
    expect(await apply({ $inc: { cpu: 2, runs: 1 } })).toMatchObject({ cpu: 6, runs: 1 });
  });
  test('$mul', async () => {
    expect(await apply({ $mul: { cpu: 3 } })).toMatchObject({ cpu: 12 });
  });
  test('$push and $push with $each', async () => {
    expect((await apply({ $push: { tags: 'x' } }))?.tags).toEqual(['web', 'prod', 'x']);
    expect((await apply({ $push: { tags: { $each: ['y', 'z'] } } }))?.tags).toEqual(['web', 'prod', 'x', 'y', 'z']);
  });
  test('$pull with a value and with a condition', async () => {
    expect((await apply({ $pull: { tags: 'db' } }, 'h5'))?.tags).toEqual(['web', 'prod']);
    expect((await apply({ $pull: { fingerprint_history: { added: { $gt: at(2) } } } }, 'h2'))?.fingerprint_history).toEqual([{ fp: 'bb', added: at(1) }]);
  });
  test('$addToSet adds once; a no-op is matched, not modified', async () => {
    expect((await apply({ $addToSet: { tags: 'new' } }))?.tags).toEqual(['web', 'prod', 'new']);
    expect(await ctx.store.update('hosts', { _id: 'h1' }, { $addToSet: { tags: 'web' } })).toEqual({ matched: 1, modified: 0 });
  });
  test('$min and $max, on numbers and dates', async () => {
    expect(await apply({ $min: { cpu: 1 }, $max: { _created: at(9) } })).toMatchObject({ cpu: 1, _created: at(9) });
    expect(await apply({ $min: { cpu: 5 }, $max: { _created: at(1) } })).toMatchObject({ cpu: 1, _created: at(9) });
  });
  test('$rename', async () => {
    const h1 = await apply({ $rename: { cpu: 'cores' } });
    expect(h1).toMatchObject({ cores: 4 });
    expect(h1).not.toHaveProperty('cpu');
  });
  test('first match only unless multi', async () => {
    expect(await ctx.store.update('hosts', { status: 'up' }, { $set: { seen: true } })).toEqual({ matched: 1, modified: 1 });
    expect(await ctx.store.update('hosts', { status: 'up' }, { $set: { seen: true } }, { multi: true })).toEqual({ matched: 3, modified: 2 });
    expect(await ctx.store.count('hosts', { seen: true })).toBe(3);
  });
  test('multi with a residual filter', async () => {
    expect(await ctx.store.update('hosts', { tags: 'prod' }, { $inc: { cpu: 1 } }, { multi: true })).toEqual({ matched: 3, modified: 3 });
    expect(await ctx.ids('hosts', { cpu: { $in: [5, 17] } })).toEqual(['h1', 'h5', 'h6']);
  });
  test('no match, no upsert', async () => {
    expect(await ctx.store.update('hosts', { _id: 'nope' }, { $set: { a: 1 } })).toEqual({ matched: 0, modified: 0 });
    expect(await ctx.store.count('hosts', {})).toBe(6);
  });
  test('a replacement document replaces everything but _id', async () => {
    expect(await ctx.store.update('hosts', { _id: 'h1' }, { name: 'alpha2', status: 'new' })).toEqual({ matched: 1, modified: 1 });
    expect(await ctx.one('h1')).toEqual({ _id: 'h1', name: 'alpha2', status: 'new' });
  });
  test('changing _id is a BadRequest', async () => {
    await expect(ctx.store.update('hosts', { _id: 'h1' }, { _id: 'h9', name: 'x' })).rejects.toBeInstanceOf(BadRequest);
    await expect(ctx.store.update('hosts', { _id: 'h1' }, { $set: { _id: 'h9' } })).rejects.toBeInstanceOf(BadRequest);
    expect(await ctx.one('h1')).toEqual(hosts()[0]);
  });
  test('upsert inserts filter equalities + $set + $setOnInsert with a generated id', async () => {
    const result = await ctx.store.update('hosts', { name: 'eta', status: 'new' }, { $set: { cpu: 1 }, $setOnInsert: { _created: at(9) } }, { upsert: true });
    expect(result).toMatchObject({ matched: 0, modified: 0 });
    expect(result.upsertedId).toMatch(/^[0-9a-f]{24}$/);
    const [created] = await ctx.store.find('hosts', { name: 'eta' });
    expect(created).toEqual({ _id: result.upsertedId, name: 'eta', status: 'new', cpu: 1, _created: at(9) });
  });
  test('upsert keeps the filter _id; $setOnInsert is ignored on a match', async () => {
    expect(await ctx.store.update('hosts', { _id: 'h8' }, { $set: { name: 'theta' } }, { upsert: true })).toEqual({ matched: 0, modified: 0, upsertedId: 'h8' });
    expect(await ctx.store.update('hosts', { _id: 'h8' }, { $set: { cpu: 2 }, $setOnInsert: { x: 1 } }, { upsert: true })).toEqual({ matched: 1, modified: 1 });
    expect(await ctx.one('h8')).toEqual({ _id: 'h8', name: 'theta', cpu: 2 });
  });
  test('a unique violation is a Conflict and changes nothing', async () => {
    await expect(ctx.store.update('hosts', { _id: 'h2' }, { $set: { name: 'alpha' } })).rejects.toBeInstanceOf(Conflict);
    await expect(ctx.store.update('hosts', { _id: 'h2' }, { $set: { name: 'alpha' } })).rejects.toMatchObject({ field: 'name' });
    expect((await ctx.one('h2'))?.name).toBe('beta');
    // A multi update is not promised to be atomic (MongoDB's updateMany is not), only to reject.
    await expect(ctx.store.update('hosts', { cpu: 4 }, { $set: { name: 'same' } }, { multi: true })).rejects.toBeInstanceOf(Conflict);
  });
}

function findOneAndUpdateTests(ctx: Context): void {
  test('returns the document after the update by default', async () => {
    expect(await ctx.store.findOneAndUpdate('hosts', { _id: 'h3' }, { $inc: { cpu: 1 } })).toMatchObject({ _id: 'h3', cpu: 3, _created: at(2) });
  });
  test('returns the document before when asked', async () => {
    expect(await ctx.store.findOneAndUpdate('hosts', { _id: 'h3' }, { $inc: { cpu: 1 } }, { returnDocument: 'before' })).toMatchObject({ _id: 'h3', cpu: 2 });
    expect((await ctx.one('h3'))?.cpu).toBe(3);
  });
  test('takes the first match in sort order', async () => {
    expect((await ctx.store.findOneAndUpdate('hosts', { status: 'up' }, { $set: { claimed: true } }, { sort: [['cpu', -1]] }))?._id).toBe('h1');
    expect((await ctx.store.findOneAndUpdate('hosts', { status: 'up', claimed: { $ne: true } }, { $set: { claimed: true } }, { sort: [['cpu', -1]] }))?._id).toBe('h4');
  });
  test('null when nothing matches; upsert creates', async () => {
    expect(await ctx.store.findOneAndUpdate('hosts', { _id: 'nope' }, { $set: { a: 1 } })).toBeNull();
    expect(await ctx.store.findOneAndUpdate('hosts', { _id: 'h9' }, { $set: { name: 'iota' } }, { upsert: true, returnDocument: 'before' })).toBeNull();
    expect(await ctx.store.findOneAndUpdate('jobs', { status: 'x' }, { $set: { n: 1 } }, { upsert: true })).toMatchObject({ status: 'x', n: 1 });
    expect(await ctx.store.count('hosts', { _id: { $in: ['nope', 'h9'] } })).toBe(1);
  });
  test('two concurrent claimers of one document: exactly one wins', async () => {
    await ctx.store.insert('jobs', [{ _id: 'j1', status: 'queued' }]);
    const claim = (who: string): Promise<Doc | null> => ctx.store.findOneAndUpdate('jobs', { status: 'queued' }, { $set: { status: 'running', by: who } });
    const results = await Promise.all([claim('a'), claim('b')]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });
  test('many claimers, few jobs: each job claimed once', async () => {
    await ctx.store.insert('jobs', [1, 2, 3].map((n) => ({ _id: `j${n}`, status: 'queued', n })));
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => ctx.store.findOneAndUpdate('jobs', { status: 'queued' }, { $set: { status: 'running', by: i } }, { sort: [['n', 1]] })));
    const won = claims.filter((c): c is Doc => c !== null).map((c) => c._id);
    expect(won.sort()).toEqual(['j1', 'j2', 'j3']);
  });
  test('a unique violation is a Conflict', async () => {
    await expect(ctx.store.findOneAndUpdate('hosts', { _id: 'h2' }, { $set: { name: 'alpha' } })).rejects.toBeInstanceOf(Conflict);
  });
}

function deleteTests(ctx: Context): void {
  test('a pushable filter', async () => {
    expect(await ctx.store.delete('hosts', { status: 'down' })).toBe(2);
    expect(await ctx.ids('hosts', {})).toEqual(['h1', 'h3', 'h4', 'h5']);
  });
  test('a residual filter', async () => {
    expect(await ctx.store.delete('hosts', { name: /^[ab]/ })).toBe(2);
    expect(await ctx.store.count('hosts', {})).toBe(4);
  });
  test('nothing matches', async () => {
    expect(await ctx.store.delete('hosts', { _id: 'nope' })).toBe(0);
  });
  test('everything', async () => {
    expect(await ctx.store.delete('hosts', {})).toBe(6);
    expect(await ctx.store.find('hosts', {})).toEqual([]);
  });
}

function aggregateTests(ctx: Context): void {
  test('$match on dates, then $count', async () => {
    expect(await ctx.store.aggregate('hosts', [{ $match: { _created: { $gte: at(2) } } }, { $count: 'n' }])).toEqual([{ n: 4 }]);
  });
  test('$unwind and $group with $sum, then $sort', async () => {
    const rows = await ctx.store.aggregate('hosts', [{ $unwind: '$tags' }, { $group: { _id: '$tags', n: { $sum: 1 } } }, { $sort: { n: -1, _id: 1 } }]);
    expect(rows).toEqual([{ _id: 'prod', n: 3 }, { _id: 'web', n: 3 }, { _id: 'db', n: 2 }, { _id: 'edge', n: 1 }]);
  });
  test('$group with $addToSet and $first', async () => {
    const rows = await ctx.store.aggregate('hosts', [
      { $match: { status: { $in: ['up', 'down'] } } },
      { $sort: { name: 1 } },
      { $group: { _id: '$status', first: { $first: '$name' }, cpus: { $addToSet: '$cpu' } } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows.map((r) => ({ ...r, cpus: [...(r.cpus as number[])].sort((a, b) => a - b) }))).toEqual([
      { _id: 'down', first: 'beta', cpus: [4, 8] },
      { _id: 'up', first: 'alpha', cpus: [2, 4] },
    ]);
  });
  test('$project with a date operator', async () => {
    const rows = await ctx.store.aggregate('hosts', [{ $match: { _id: 'h2' } }, { $project: { name: 1, day: { $dayOfMonth: '$_created' } } }]);
    expect(rows).toEqual([{ _id: 'h2', name: 'beta', day: 2 }]);
  });
  test('$facet', async () => {
    const [facets] = await ctx.store.aggregate('hosts', [
      { $match: { cpu: 4 } },
      { $facet: { total: [{ $count: 'n' }], names: [{ $sort: { name: 1 } }, { $project: { _id: 0, name: 1 } }] } },
    ]);
    expect(facets).toEqual({ total: [{ n: 3 }], names: [{ name: 'alpha' }, { name: 'delta' }, { name: 'zeta' }] });
  });
  test('the same pipeline on a collection without push-down gives the same answer', async () => {
    const pipeline = [{ $match: { status: 'up', _created: { $lt: at(3) } } }, { $group: { _id: null, n: { $sum: '$cpu' } } }];
    expect(await ctx.store.aggregate('hosts', pipeline)).toEqual([{ _id: null, n: 6 }]);
    expect(await ctx.store.aggregate('hosts_plain', pipeline)).toEqual([{ _id: null, n: 6 }]);
  });
}

function pushDownEquivalenceTests(ctx: Context): void {
  test.each(EQUIVALENCE.map(([filter, find], i) => [i, filter, find] as const))('query #%d', async (_i, filter, find) => {
    const sorted: FindOptions = find.sort === undefined ? { ...find, sort: [['_id', 1]] } : find;
    expect(await ctx.store.find('hosts', filter, sorted)).toEqual(await ctx.store.find('hosts_plain', filter, sorted));
    expect(await ctx.store.count('hosts', filter)).toBe(await ctx.store.count('hosts_plain', filter));
  });
  test('a regex-free and a regex variant of one query agree', async () => {
    const page: FindOptions = { sort: [['_created', -1]], limit: 2 };
    expect(await ctx.store.find('hosts', { status: 'up' }, page)).toEqual(await ctx.store.find('hosts', { status: /^up$/ }, page));
    expect(await ctx.store.find('hosts', { name: 'beta' })).toEqual(await ctx.store.find('hosts', { name: { $regex: '^beta$' } }));
  });
}

function mediaTests(ctx: Context): void {
  const readAll = async (stream: Readable): Promise<Buffer> => {
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
    return Buffer.concat(parts);
  };
  test('binary bytes round-trip with their metadata', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const info = await ctx.store.media.put(Readable.from([bytes]), { filename: 'all.bin', contentType: 'application/octet-stream' });
    expect(info).toMatchObject({ filename: 'all.bin', contentType: 'application/octet-stream', length: 256 });
    expect(info.uploadedAt).toBeInstanceOf(Date);
    const opened = await ctx.store.media.open(info.id);
    expect(opened?.info).toEqual(info);
    expect(await readAll(opened?.stream ?? Readable.from([]))).toEqual(bytes);
  });
  test('a multi-chunk file (> 1 MiB) written in small pieces', async () => {
    const bytes = randomBytes(1_300_000);
    const pieces = Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) => bytes.subarray(i * 65_536, (i + 1) * 65_536));
    const info = await ctx.store.media.put(Readable.from(pieces), { filename: 'big.tar', contentType: 'application/x-tar' });
    expect(info.length).toBe(bytes.length);
    const opened = await ctx.store.media.open(info.id);
    expect((await readAll(opened?.stream ?? Readable.from([]))).equals(bytes)).toBe(true);
  });
  test('an empty file', async () => {
    const info = await ctx.store.media.put(Readable.from([]), { filename: 'empty', contentType: 'text/plain' });
    const opened = await ctx.store.media.open(info.id);
    expect(opened?.info.length).toBe(0);
    expect(await readAll(opened?.stream ?? Readable.from([Buffer.from('x')]))).toEqual(Buffer.alloc(0));
  });
  test('delete, then the id is unknown', async () => {
    const info = await ctx.store.media.put(Readable.from([Buffer.from('hello')]), { filename: 'h.txt', contentType: 'text/plain' });
    expect(await ctx.store.media.delete(info.id)).toBe(true);
    expect(await ctx.store.media.open(info.id)).toBeNull();
    expect(await ctx.store.media.delete(info.id)).toBe(false);
  });
  test('an unknown id is null', async () => {
    expect(await ctx.store.media.open('0123456789abcdef01234567')).toBeNull();
  });
}

function leasesTests(ctx: Context): void {
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  test('acquire, renew, release', async () => {
    const before = Date.now();
    const lease = await ctx.store.leases.acquire('scheduler', 'a', 60_000);
    expect(lease).toMatchObject({ name: 'scheduler', holder: 'a' });
    expect(lease?.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 60_000);
    expect(await ctx.store.leases.acquire('scheduler', 'a', 60_000)).toMatchObject({ holder: 'a' });
    expect(await ctx.store.leases.renew('scheduler', 'a', 120_000)).toMatchObject({ holder: 'a' });
    expect(await ctx.store.leases.release('scheduler', 'a')).toBe(true);
    expect(await ctx.store.leases.release('scheduler', 'a')).toBe(false);
  });
  test('a second holder is refused until the lease is released', async () => {
    await ctx.store.leases.acquire('sync', 'a', 60_000);
    expect(await ctx.store.leases.acquire('sync', 'b', 60_000)).toBeNull();
    expect(await ctx.store.leases.renew('sync', 'b', 60_000)).toBeNull();
    expect(await ctx.store.leases.release('sync', 'b')).toBe(false);
    await ctx.store.leases.release('sync', 'a');
    expect(await ctx.store.leases.acquire('sync', 'b', 60_000)).toMatchObject({ holder: 'b' });
  });
  test('another holder takes over after expiry; the old one cannot renew', async () => {
    await ctx.store.leases.acquire('snap', 'a', 50);
    await sleep(120);
    expect(await ctx.store.leases.acquire('snap', 'b', 60_000)).toMatchObject({ holder: 'b' });
    expect(await ctx.store.leases.renew('snap', 'a', 60_000)).toBeNull();
  });
  test('concurrent acquirers: exactly one wins', async () => {
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((h) => ctx.store.leases.acquire('race', h, 60_000)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });
  test('leases are independent by name', async () => {
    await ctx.store.leases.acquire('one', 'a', 60_000);
    expect(await ctx.store.leases.acquire('two', 'b', 60_000)).toMatchObject({ name: 'two', holder: 'b' });
  });
}

function lifecycleTests(ctx: Context): void {
  test('ensureCollection is idempotent', async () => {
    await ctx.store.ensureCollection(HOSTS);
    expect(await ctx.store.count('hosts', {})).toBe(6);
  });
  test('after close, calls reject with ServiceUnavailable', async () => {
    await ctx.store.close();
    await expect(ctx.store.find('hosts', {})).rejects.toBeInstanceOf(ServiceUnavailable);
    await expect(ctx.store.insert('hosts', [{ _id: 'x' }])).rejects.toBeInstanceOf(ServiceUnavailable);
  });
}
/** The suite, one entry per concern (a table, so a new concern cannot be forgotten in the runner). */
const CONCERNS: Readonly<Record<Concern, (ctx: Context) => void>> = {
  'query operators': queryOperatorsTests,
  'nested and array fields': nestedAndArrayFieldsTests,
  datetimes: datetimesTests,
  sort: sortTests,
  projection: projectionTests,
  'skip and limit': skipAndLimitTests,
  count: countTests,
  insert: insertTests,
  update: updateTests,
  findOneAndUpdate: findOneAndUpdateTests,
  delete: deleteTests,
  aggregate: aggregateTests,
  'push-down equivalence': pushDownEquivalenceTests,
  media: mediaTests,
  leases: leasesTests,
  lifecycle: lifecycleTests,
};

/** Declares the contract suite for one adapter; `open` must return a fresh, empty store each call. */
export function runStoreContract(adapterName: string, open: () => Promise<Store>, options: StoreContractOptions = {}): void {
  describe(`store contract: ${adapterName}`, () => {
    let current: Store | undefined;
    const ctx: Context = {
      get store(): Store {
        if (current === undefined) throw new Error('the store is opened by beforeEach: use it inside a test');
        return current;
      },
      ids: async (collection, filter, find = {}) => (await ctx.store.find(collection, filter, { sort: [['_id', 1]], ...find })).map((d) => d._id),
      one: async (id) => (await ctx.store.find('hosts', { _id: id }))[0],
    };
    beforeEach(async () => {
      current = await open();
      for (const spec of [HOSTS, PLAIN, JOBS]) await ctx.store.ensureCollection(spec);
      await ctx.store.insert('hosts', hosts());
      await ctx.store.insert('hosts_plain', hosts());
    });
    afterEach(async () => {
      // Some tests close the store themselves; a second close may reject, which is fine here.
      await ctx.store.close().catch(() => undefined);
    });
    for (const [name, declare] of Object.entries(CONCERNS) as [Concern, (c: Context) => void][]) {
      const reason = options.skip?.[name];
      if (reason === undefined) describe(name, () => declare(ctx));
      else describe.skip(`${name} (skipped: ${reason})`, () => declare(ctx));
    }
  });
}
