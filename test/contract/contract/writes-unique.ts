/** Store contract: insert (round-trips, duplicate ids, unique indexes, all or nothing) and delete. */
import { Conflict } from '../../../engine/src/errors';
import { at, type Context } from './fixtures';

/** Inserts round-trip; duplicates are a Conflict naming the field; bulk inserts are atomic. */
export function insertTests(ctx: Context): void {
  test('a document round-trips', async () => {
    const doc = {
      _id: 'h7',
      name: 'eta',
      nested: { deep: [1, { x: 'y' }] },
      flag: false,
      none: null,
      _created: at(9),
    };
    await ctx.store.insert('hosts', [doc]);
    expect(await ctx.one('h7')).toEqual(doc);
  });
  test('a duplicate _id is a Conflict naming _id', async () => {
    const p = ctx.store.insert('hosts', [{ _id: 'h1', name: 'other' }]);
    await expect(p).rejects.toBeInstanceOf(Conflict);
    await expect(ctx.store.insert('hosts', [{ _id: 'h1', name: 'other' }])).rejects.toMatchObject({
      field: '_id',
    });
  });
  test('a unique index violation is a Conflict naming the field', async () => {
    await expect(ctx.store.insert('hosts', [{ _id: 'h7', name: 'alpha' }])).rejects.toBeInstanceOf(Conflict);
    await expect(ctx.store.insert('hosts', [{ _id: 'h7', name: 'alpha' }])).rejects.toMatchObject({
      field: 'name',
    });
  });
  test('a bulk insert is all or nothing', async () => {
    await expect(
      ctx.store.insert('hosts', [
        { _id: 'n1', name: 'n1' },
        { _id: 'n2', name: 'n2' },
        { _id: 'h3', name: 'n3' },
      ]),
    ).rejects.toBeInstanceOf(Conflict);
    await expect(
      ctx.store.insert('hosts', [
        { _id: 'n1', name: 'n1' },
        { _id: 'n2', name: 'n1' },
      ]),
    ).rejects.toBeInstanceOf(Conflict);
    expect(await ctx.store.count('hosts', { _id: { $in: ['n1', 'n2'] } })).toBe(0);
  });
  test('an undeclared collection works without ensureCollection', async () => {
    await ctx.store.insert('misc', [{ _id: 'm1', a: 1 }]);
    expect(await ctx.store.find('misc', {})).toEqual([{ _id: 'm1', a: 1 }]);
  });
}

/** Deletes by pushable and residual filters. */
export function deleteTests(ctx: Context): void {
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
