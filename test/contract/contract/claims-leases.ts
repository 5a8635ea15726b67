/** Store contract: atomic claims (`findOneAndUpdate`) and named leases, both raced concurrently. */
import { Conflict } from '../../../engine/src/errors';
import type { Doc } from '../../../engine/src/store/port';
import { at, type Context } from './fixtures';

/** `findOneAndUpdate`: before/after, sort order, upsert, one winner per document. */
export function findOneAndUpdateTests(ctx: Context): void {
  test('returns the document after the update by default', async () => {
    expect(await ctx.store.findOneAndUpdate('hosts', { _id: 'h3' }, { $inc: { cpu: 1 } })).toMatchObject({
      _id: 'h3',
      cpu: 3,
      _created: at(2),
    });
  });
  test('returns the document before when asked', async () => {
    expect(
      await ctx.store.findOneAndUpdate(
        'hosts',
        { _id: 'h3' },
        { $inc: { cpu: 1 } },
        { returnDocument: 'before' },
      ),
    ).toMatchObject({ _id: 'h3', cpu: 2 });
    expect((await ctx.one('h3'))?.cpu).toBe(3);
  });
  test('takes the first match in sort order', async () => {
    expect(
      (
        await ctx.store.findOneAndUpdate(
          'hosts',
          { status: 'up' },
          { $set: { claimed: true } },
          { sort: [['cpu', -1]] },
        )
      )?._id,
    ).toBe('h1');
    expect(
      (
        await ctx.store.findOneAndUpdate(
          'hosts',
          { status: 'up', claimed: { $ne: true } },
          { $set: { claimed: true } },
          { sort: [['cpu', -1]] },
        )
      )?._id,
    ).toBe('h4');
  });
  test('null when nothing matches; upsert creates', async () => {
    expect(await ctx.store.findOneAndUpdate('hosts', { _id: 'nope' }, { $set: { a: 1 } })).toBeNull();
    expect(
      await ctx.store.findOneAndUpdate(
        'hosts',
        { _id: 'h9' },
        { $set: { name: 'iota' } },
        { upsert: true, returnDocument: 'before' },
      ),
    ).toBeNull();
    expect(
      await ctx.store.findOneAndUpdate('jobs', { status: 'x' }, { $set: { n: 1 } }, { upsert: true }),
    ).toMatchObject({ status: 'x', n: 1 });
    expect(await ctx.store.count('hosts', { _id: { $in: ['nope', 'h9'] } })).toBe(1);
  });
  test('two concurrent claimers of one document: exactly one wins', async () => {
    await ctx.store.insert('jobs', [{ _id: 'j1', status: 'queued' }]);
    const claim = (who: string): Promise<Doc | null> =>
      ctx.store.findOneAndUpdate('jobs', { status: 'queued' }, { $set: { status: 'running', by: who } });
    const results = await Promise.all([claim('a'), claim('b')]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });
  test('many claimers, few jobs: each job claimed once', async () => {
    await ctx.store.insert(
      'jobs',
      [1, 2, 3].map((n) => ({ _id: `j${n}`, status: 'queued', n })),
    );
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        ctx.store.findOneAndUpdate(
          'jobs',
          { status: 'queued' },
          { $set: { status: 'running', by: i } },
          { sort: [['n', 1]] },
        ),
      ),
    );
    const won = claims.filter((c): c is Doc => c !== null).map((c) => c._id);
    expect(won.sort()).toEqual(['j1', 'j2', 'j3']);
  });
  test('a unique violation is a Conflict', async () => {
    await expect(
      ctx.store.findOneAndUpdate('hosts', { _id: 'h2' }, { $set: { name: 'alpha' } }),
    ).rejects.toBeInstanceOf(Conflict);
  });
}

/** Lease acquire, renew, release, expiry and races. */
export function leasesTests(ctx: Context): void {
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
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map((h) => ctx.store.leases.acquire('race', h, 60_000)),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });
  test('live: the leases some holder has now, expired and released ones left out', async () => {
    await ctx.store.leases.acquire('live-a', 'a', 60_000);
    await ctx.store.leases.acquire('live-b', 'b', 60_000);
    await ctx.store.leases.acquire('live-gone', 'c', 50);
    await ctx.store.leases.acquire('live-freed', 'd', 60_000);
    await ctx.store.leases.release('live-freed', 'd');
    await sleep(120);
    const live = await ctx.store.leases.live(['live-a', 'live-b', 'live-gone', 'live-freed', 'live-never']);
    expect(live.map((l) => [l.name, l.holder]).sort()).toEqual([
      ['live-a', 'a'],
      ['live-b', 'b'],
    ]);
    expect(live[0]?.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });
  test('leases are independent by name', async () => {
    await ctx.store.leases.acquire('one', 'a', 60_000);
    expect(await ctx.store.leases.acquire('two', 'b', 60_000)).toMatchObject({ name: 'two', holder: 'b' });
  });
}
