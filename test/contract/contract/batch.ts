/**
 * Store contract: `write` batches — inserts, versioned replaces and deletes across collections, in
 * order; a write whose document changed stops the batch with PreconditionFailed.
 */
import { Conflict, PreconditionFailed } from '../../../engine/src/errors';
import type { Context } from './fixtures';

/** Whole-document batch writes. */
export function batchTests(ctx: Context, options: { atomic: boolean }): void {
  test('inserts, replaces and deletes across collections', async () => {
    const h1 = await ctx.one('h1');
    await ctx.store.write([
      { op: 'insert', collection: 'jobs', doc: { _id: 'j1', status: 'new', n: 1 } },
      { op: 'replace', collection: 'hosts', doc: { ...h1, _id: 'h1', name: 'alpha2', _etag: 'e2' } },
      { op: 'delete', collection: 'hosts', id: 'h2' },
    ]);
    expect(await ctx.store.find('jobs', {})).toEqual([{ _id: 'j1', status: 'new', n: 1 }]);
    expect((await ctx.one('h1'))?.name).toBe('alpha2');
    expect(await ctx.one('h2')).toBeUndefined();
  });
  test('a versioned replace writes only the version it read', async () => {
    await ctx.store.write([
      { op: 'replace', collection: 'hosts', doc: { _id: 'h3', name: 'gamma', _etag: 'v1' } },
    ]);
    await ctx.store.write([
      { op: 'replace', collection: 'hosts', doc: { _id: 'h3', name: 'gamma2', _etag: 'v2' }, ifEtag: 'v1' },
    ]);
    const stale = ctx.store.write([
      { op: 'replace', collection: 'hosts', doc: { _id: 'h3', name: 'gamma3', _etag: 'v3' }, ifEtag: 'v1' },
    ]);
    await expect(stale).rejects.toBeInstanceOf(PreconditionFailed);
    expect((await ctx.one('h3'))?.name).toBe('gamma2');
  });
  test('a replace or delete of a missing document is PreconditionFailed', async () => {
    await expect(
      ctx.store.write([{ op: 'replace', collection: 'hosts', doc: { _id: 'nope', name: 'x' } }]),
    ).rejects.toBeInstanceOf(PreconditionFailed);
    await expect(ctx.store.write([{ op: 'delete', collection: 'hosts', id: 'nope' }])).rejects.toBeInstanceOf(
      PreconditionFailed,
    );
  });
  test('a versioned delete', async () => {
    await ctx.store.write([
      { op: 'replace', collection: 'hosts', doc: { _id: 'h4', name: 'delta', _etag: 'd1' } },
    ]);
    await expect(
      ctx.store.write([{ op: 'delete', collection: 'hosts', id: 'h4', ifEtag: 'other' }]),
    ).rejects.toBeInstanceOf(PreconditionFailed);
    await ctx.store.write([{ op: 'delete', collection: 'hosts', id: 'h4', ifEtag: 'd1' }]);
    expect(await ctx.one('h4')).toBeUndefined();
  });
  test('a unique violation is a Conflict naming the field', async () => {
    const p = ctx.store.write([{ op: 'replace', collection: 'hosts', doc: { _id: 'h5', name: 'alpha' } }]);
    await expect(p).rejects.toBeInstanceOf(Conflict);
  });
  if (options.atomic) {
    test('a failing write rolls the whole batch back', async () => {
      const p = ctx.store.write([
        { op: 'insert', collection: 'jobs', doc: { _id: 'j9', status: 'new', n: 9 } },
        { op: 'delete', collection: 'hosts', id: 'h6' },
        { op: 'replace', collection: 'hosts', doc: { _id: 'h1', name: 'x' }, ifEtag: 'not-the-etag' },
      ]);
      await expect(p).rejects.toBeInstanceOf(PreconditionFailed);
      expect(await ctx.store.count('jobs', { _id: 'j9' })).toBe(0);
      expect(await ctx.one('h6')).toBeDefined();
    });
  } else {
    test('writes before a failing one stay, writes after it do not run', async () => {
      const p = ctx.store.write([
        { op: 'insert', collection: 'jobs', doc: { _id: 'j9', status: 'new', n: 9 } },
        { op: 'replace', collection: 'hosts', doc: { _id: 'h1', name: 'x' }, ifEtag: 'not-the-etag' },
        { op: 'delete', collection: 'hosts', id: 'h6' },
      ]);
      await expect(p).rejects.toBeInstanceOf(PreconditionFailed);
      expect(await ctx.store.count('jobs', { _id: 'j9' })).toBe(1);
      expect(await ctx.one('h6')).toBeDefined();
    });
  }
}
