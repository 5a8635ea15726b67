/**
 * Store contract: lists of scalars with an index on them (MongoDB's multikey index; on SQLite a
 * side table kept by triggers). Whatever an adapter answers from the index, the answers are
 * MongoDB's: an element or the value itself matches, `$ne`/`$nin` hold when no element does, and
 * what the index cannot hold (null, whole lists, other types, nested lists) still answers right.
 * The index follows every write: insert, update, delete, and documents stored before it existed.
 */
import type { CollectionSpec, Doc } from '../../../engine/src/store/port';
import type { Case, Context } from './fixtures';

/** Boxes with two indexed lists (strings and integers). */
export const BOXES: CollectionSpec = {
  name: 'boxes',
  scalarPaths: { kind: 'string' },
  arrayPaths: { tags: 'string', sizes: 'integer' },
  datetimePaths: [],
  indexes: [
    { fields: [['tags', 1]] },
    {
      fields: [
        ['kind', 1],
        ['sizes', 1],
      ],
    },
  ],
};
/** The same documents with nothing declared. */
const BOXES_PLAIN: CollectionSpec = { name: 'boxes_plain', scalarPaths: {}, datetimePaths: [], indexes: [] };

/** Lists, a scalar in place of a list, an empty and a missing one, a null and a nested list, mixed types. */
export function boxes(): Doc[] {
  return [
    { _id: 'b1', kind: 'a', tags: ['web', 'prod'], sizes: [1, 2] },
    { _id: 'b2', kind: 'a', tags: ['db'], sizes: [3] },
    { _id: 'b3', kind: 'b', tags: 'web', sizes: 2 },
    { _id: 'b4', kind: 'b', tags: [], sizes: [] },
    { _id: 'b5', kind: 'a' },
    { _id: 'b6', kind: 'b', tags: ['edge', null, ['web']], sizes: [4, '3', 2.5] },
    { _id: 'b7', kind: 'a', tags: ['web', 'web'], sizes: [1] },
  ];
}

/** Filters on the lists, and the ids MongoDB finds. */
export const LIST_CASES: readonly Case[] = [
  ['an element', { tags: 'web' }, ['b1', 'b3', 'b7']],
  ['$eq an element', { tags: { $eq: 'db' } }, ['b2']],
  ['$in', { tags: { $in: ['db', 'edge'] } }, ['b2', 'b6']],
  ['$in empty', { tags: { $in: [] } }, []],
  ['$ne: no element is it (missing included)', { tags: { $ne: 'web' } }, ['b2', 'b4', 'b5', 'b6']],
  ['$nin', { tags: { $nin: ['web', 'db'] } }, ['b4', 'b5', 'b6']],
  ['$nin empty', { tags: { $nin: [] } }, ['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7']],
  ['null: a null element or no list', { tags: null }, ['b5', 'b6']],
  ['a whole list', { tags: ['web', 'prod'] }, ['b1']],
  ['a nested list', { tags: ['web'] }, ['b6']],
  ['$all', { tags: { $all: ['web', 'prod'] } }, ['b1']],
  ['$size', { tags: { $size: 0 } }, ['b4']],
  ['an integer element', { sizes: 2 }, ['b1', 'b3']],
  ['a fraction element', { sizes: 2.5 }, ['b6']],
  ['a string among integers', { sizes: '3' }, ['b6']],
  ['$in of mixed types', { sizes: { $in: [3, '3'] } }, ['b2', 'b6']],
  ['a range on a list is mingo', { sizes: { $gt: 3 } }, ['b6']],
  ['with another field', { kind: 'a', sizes: 1 }, ['b1', 'b7']],
  ['$or of lists', { $or: [{ tags: 'db' }, { sizes: 4 }] }, ['b2', 'b6']],
];

async function ids(ctx: Context, collection: string, filter: Record<string, unknown>): Promise<string[]> {
  return (await ctx.store.find(collection, filter, { sort: [['_id', 1]] })).map((d) => d._id);
}

/** Each case finds its ids in both collections; the index follows writes. */
export function listTests(ctx: Context): void {
  beforeEach(async () => {
    await ctx.store.ensureCollection(BOXES);
    await ctx.store.ensureCollection(BOXES_PLAIN);
    await ctx.store.insert('boxes', boxes());
    await ctx.store.insert('boxes_plain', boxes());
  });
  test.each(LIST_CASES)('%s', async (_label, filter, expected) => {
    expect(await ids(ctx, 'boxes', filter)).toEqual(expected);
    expect(await ids(ctx, 'boxes_plain', filter)).toEqual(expected);
    expect(await ctx.store.count('boxes', filter)).toBe(expected.length);
  });
  test('updates, replacements and deletes move the matches', async () => {
    await ctx.store.update('boxes', { _id: 'b2' }, { $push: { tags: 'web' } });
    await ctx.store.update('boxes', { _id: 'b1' }, { $pull: { tags: 'web' } });
    await ctx.store.write([
      { op: 'replace', collection: 'boxes', doc: { _id: 'b3', kind: 'b', tags: ['edge'] } },
    ]);
    await ctx.store.delete('boxes', { _id: 'b7' });
    expect(await ids(ctx, 'boxes', { tags: 'web' })).toEqual(['b2']);
    expect(await ids(ctx, 'boxes', { tags: 'edge' })).toEqual(['b3', 'b6']);
    expect(await ids(ctx, 'boxes', { tags: { $ne: 'web' } })).toEqual(['b1', 'b3', 'b4', 'b5', 'b6']);
  });
  test('ids alone of a condition on a list: each document once, however many elements match', async () => {
    const found = await ctx.store.find(
      'boxes',
      { tags: { $in: ['web', 'prod'] } },
      { projection: { _id: 1 } },
    );
    expect(found.map((d) => d._id).sort()).toEqual(['b1', 'b3', 'b7']);
    expect(found.every((d) => Object.keys(d).join() === '_id')).toBe(true);
    const page = await ctx.store.find(
      'boxes',
      { sizes: { $in: [1, 2, 3] } },
      { projection: { _id: 1 }, limit: 2 },
    );
    expect(page).toHaveLength(2);
  });
  test('an index declared on documents already stored finds them', async () => {
    await ctx.store.insert('later', boxes());
    await ctx.store.ensureCollection({ ...BOXES, name: 'later' });
    expect(await ids(ctx, 'later', { tags: { $in: ['web', 'db'] } })).toEqual(['b1', 'b2', 'b3', 'b7']);
  });
}

/** `{_id: 1}` alone: documents of their `_id` and nothing else, as MongoDB answers them. */
export function idOnlyProjectionTests(ctx: Context): void {
  test('a find projecting `_id` alone answers `{_id}` documents', async () => {
    expect(
      await ctx.store.find('hosts', { status: 'up' }, { projection: { _id: 1 }, sort: [['_id', 1]] }),
    ).toEqual([{ _id: 'h1' }, { _id: 'h3' }, { _id: 'h4' }]);
    expect(
      await ctx.store.find(
        'hosts',
        { tags: 'prod' },
        { projection: { _id: 1 }, sort: [['cpu', -1]], limit: 2 },
      ),
    ).toEqual([{ _id: 'h5' }, { _id: 'h1' }]);
    expect(await ctx.store.find('hosts_plain', { name: /^[ab]/ }, { projection: { _id: 1 } })).toEqual(
      expect.arrayContaining([{ _id: 'h1' }, { _id: 'h2' }]),
    );
  });
}
