/**
 * Store contract: writes issued together, none awaited before the next is asked (requests in flight
 * at once; the embedded store commits such writes as one group). Each settles on its own: a unique
 * conflict or a lost precondition fails that write alone, every other one is stored; a batch that
 * fails among them stays all-or-none where batches are atomic; claims never share a document.
 */
import { Conflict, PreconditionFailed } from '../../../engine/src/errors';
import type { Context } from './fixtures';

/** Each promise's outcome: `ok` or the error's class name. */
async function outcomes(writes: readonly Promise<unknown>[]): Promise<string[]> {
  const settled = await Promise.allSettled(writes);
  return settled.map((s) =>
    s.status === 'fulfilled' ? 'ok' : s.reason instanceof Error ? s.reason.constructor.name : 'unknown',
  );
}

/** Writes in flight together. */
export function concurrentWritesTests(ctx: Context, options: { atomic: boolean }): void {
  test("one write's failure fails it alone: the others issued with it are stored", async () => {
    const s = ctx.store;
    const results = await outcomes([
      s.insert('jobs', [{ _id: 'j1', status: 'new', n: 1 }]),
      s.insert('hosts', [{ _id: 'h9', name: 'alpha' }]), // name is unique: h1 has it
      s.update('hosts', { _id: 'h2' }, { $set: { status: 'patched' } }),
      s.write([{ op: 'replace', collection: 'hosts', doc: { _id: 'h3', name: 'gamma2' }, ifEtag: 'stale' }]),
      s.write([{ op: 'replace', collection: 'hosts', doc: { _id: 'h4', name: 'delta2', _etag: 'e2' } }]),
      s.findOneAndUpdate('hosts', { _id: 'h5' }, { $inc: { cpu: 1 } }),
      s.delete('hosts', { _id: 'h6' }),
      s.insert('jobs', [{ _id: 'j2', status: 'new', n: 2 }]),
    ]);
    expect(results).toEqual(['ok', 'Conflict', 'ok', 'PreconditionFailed', 'ok', 'ok', 'ok', 'ok']);
    expect(await ctx.ids('jobs', {})).toEqual(['j1', 'j2']);
    expect(await ctx.one('h9')).toBeUndefined();
    expect((await ctx.one('h2'))?.status).toBe('patched');
    expect((await ctx.one('h3'))?.name).not.toBe('gamma2');
    expect((await ctx.one('h4'))?.name).toBe('delta2');
    expect(await ctx.one('h6')).toBeUndefined();
  });

  test('writes issued together see each other in the order they were asked', async () => {
    const s = ctx.store;
    const first = s.insert('jobs', [{ _id: 'k1', status: 'new', n: 1 }]);
    // Conflicts with the insert just asked for, not yet acknowledged.
    const second = s.insert('jobs', [{ _id: 'k1', status: 'again', n: 2 }]);
    const third = s.update('jobs', { _id: 'k1' }, { $inc: { n: 10 } });
    expect(await outcomes([first, second, third])).toEqual(['ok', 'Conflict', 'ok']);
    expect(await s.find('jobs', { _id: 'k1' })).toEqual([{ _id: 'k1', status: 'new', n: 11 }]);
  });

  test('many inserts at once, a few colliding: exactly the colliding ones fail', async () => {
    const s = ctx.store;
    const writes = Array.from({ length: 120 }, (_, i) =>
      s.insert('jobs', [{ _id: `m${String(i % 100).padStart(3, '0')}`, status: 'new', n: i }]),
    );
    const results = await outcomes(writes);
    expect(results.slice(0, 100).every((r) => r === 'ok')).toBe(true);
    expect(results.slice(100)).toEqual(Array.from({ length: 20 }, () => 'Conflict'));
    expect(await s.count('jobs', {})).toBe(100);
    expect((await s.find('jobs', { _id: 'm007' }))[0]?.n).toBe(7);
  });

  if (options.atomic) {
    test('a batch that fails among them is undone whole; the writes around it are stored', async () => {
      const s = ctx.store;
      const results = await outcomes([
        s.insert('jobs', [{ _id: 'b1', status: 'new', n: 1 }]),
        s.write([
          { op: 'insert', collection: 'jobs', doc: { _id: 'b2', status: 'new', n: 2 } },
          { op: 'delete', collection: 'hosts', id: 'h1' },
          { op: 'insert', collection: 'hosts', doc: { _id: 'h7', name: 'beta' } }, // h2's name
        ]),
        s.insert('jobs', [{ _id: 'b3', status: 'new', n: 3 }]),
      ]);
      expect(results).toEqual(['ok', Conflict.name, 'ok']);
      expect(await ctx.ids('jobs', {})).toEqual(['b1', 'b3']);
      expect(await ctx.one('h1')).toBeDefined();
    });
  }

  test('claims issued together never share a document', async () => {
    const s = ctx.store;
    await s.insert(
      'jobs',
      Array.from({ length: 5 }, (_, i) => ({ _id: `q${i}`, status: 'queued', n: i })),
    );
    const claims = await Promise.all(
      Array.from({ length: 8 }, () =>
        s.findOneAndUpdate(
          'jobs',
          { status: 'queued' },
          { $set: { status: 'running' } },
          { sort: [['n', 1]] },
        ),
      ),
    );
    const won = claims.flatMap((d) => (d === null ? [] : [d._id]));
    expect(won.sort()).toEqual(['q0', 'q1', 'q2', 'q3', 'q4']);
    expect(claims.filter((d) => d === null)).toHaveLength(3);
  });

  test('a lost precondition among many writes of one document: exactly one versioned write wins', async () => {
    const s = ctx.store;
    await s.write([{ op: 'replace', collection: 'hosts', doc: { _id: 'h3', name: 'gamma', _etag: 'v1' } }]);
    const results = await outcomes(
      Array.from({ length: 6 }, (_, i) =>
        s.write([
          {
            op: 'replace',
            collection: 'hosts',
            doc: { _id: 'h3', name: `gamma-${i}`, _etag: `v2-${i}` },
            ifEtag: 'v1',
          },
        ]),
      ),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r === PreconditionFailed.name)).toHaveLength(5);
    const winner = results.indexOf('ok');
    expect((await ctx.one('h3'))?.name).toBe(`gamma-${winner}`);
  });
}
