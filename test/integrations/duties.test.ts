/**
 * @fleet/duties over a real SQLite file, several "instances" being several holders on one store:
 * a lease is held while its holder renews it and taken over within the lease's time when it stops
 * renewing (a dead instance) or at once when it releases it; a periodic duty runs on the holder
 * only and a new holder continues the recorded cadence; a run asked of an instance without the
 * lease runs on the holder (its failure comes back with its status), and ends in 503 when the
 * holder does not take it; due items are claimed once among instances; rate-limit counts are
 * charged across instances.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ClaimLoop,
  dutyRecord,
  LeaseKeeper,
  leaseTimes,
  PeriodicDuty,
  type DutyContext,
} from '@fleet/duties';
import { BadGateway, HttpError, systemContext, type Runtime, type Store } from '@fleet/engine';
import { openSqliteStore } from '@fleet/engine/sqlite';
import { monitored_hosts } from '@fleet/resources';
import { sharedBuckets } from '../../packages/server/src/rate-counts';
import { runtimeOver } from '../helpers';
import { capturingLog } from '../helpers/log';
import { until } from '../helpers/until';

let dir: string;
let store: Store;
let runtime: Runtime;
const { log } = capturingLog();
const TIMES = leaseTimes(600);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-duties-'));
  store = openSqliteStore({ path: join(dir, 'fleet.db') });
  runtime = await runtimeOver(store, log);
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctxOf = (holder: string): DutyContext => ({ runtime, log, holder, times: TIMES });

/** A keeper of `name` for `holder`, with the takeovers it saw. */
function keeper(name: string, holder: string): { k: LeaseKeeper; gains: boolean[]; losses: number[] } {
  const gains: boolean[] = [];
  const losses: number[] = [];
  const k = new LeaseKeeper({
    leases: runtime.leases,
    name,
    holder,
    times: TIMES,
    log,
    onGained: (takeover) => gains.push(takeover),
    onLost: () => losses.push(1),
  });
  k.start();
  return { k, gains, losses };
}

describe('a lease kept while the process lives', () => {
  it('one of two instances holds it; when the holder releases it, the other takes it over', async () => {
    const a = keeper('test-release', 'a');
    await until(() => a.k.held, 'a to hold the lease');
    const b = keeper('test-release', 'b');
    await until(() => b.k.contended, 'b to find the lease held');
    expect(b.k.held).toBe(false);
    await a.k.stop();
    await until(() => b.k.held, 'b to take the lease over');
    expect(a.gains).toEqual([false]);
    expect(b.gains).toEqual([true]);
    await b.k.stop();
  });

  it('a holder that stops renewing (a dead instance) loses it to another within the lease time', async () => {
    // The dead instance: it took the lease and never renews it.
    const dead = await runtime.leases.acquire('test-death', 'dead', TIMES.ttlMs);
    expect(dead).not.toBeNull();
    const b = keeper('test-death', 'b');
    await until(() => b.k.held, 'b to take the lease over');
    // In that order: the dead holder's lease ran out, then b took it.
    expect(Date.now()).toBeGreaterThanOrEqual(dead?.expiresAt.getTime() ?? Infinity);
    expect(b.gains).toEqual([true]);
    await b.k.stop();
  });

  it('a holder whose lease was taken by another (it stalled past the expiry) learns it at its next renewal', async () => {
    const a = keeper('test-stolen', 'a');
    await until(() => a.k.held, 'a to hold the lease');
    // As if a had stalled past the expiry and another instance took the lease.
    await runtime.leases.release('test-stolen', 'a');
    expect(await runtime.leases.acquire('test-stolen', 'thief', 60_000)).not.toBeNull();
    await until(() => a.losses.length === 1, 'a to notice');
    expect(a.k.held).toBe(false);
    await a.k.stop();
    expect(await runtime.leases.release('test-stolen', 'thief')).toBe(true);
  });
});

describe('a periodic duty', () => {
  /** A duty named `lease` on `holder` counting its runs. */
  function periodic(lease: string, holder: string, intervalMs: number, fail?: () => Error | undefined) {
    const runs: (string | null)[] = [];
    const duty = new PeriodicDuty<Record<string, unknown>>({
      ctx: ctxOf(holder),
      duty: { lease, what: `the ${lease} duty` },
      intervalMs,
      first: 'now',
      recorded: true,
      run: async (arg) => {
        runs.push(arg);
        const err = fail?.();
        if (err) throw err;
        return { by: holder, arg };
      },
      revive: (stored) => stored,
    });
    return { duty, runs };
  }

  it('runs on the holder only, and a run asked of another instance runs there', async () => {
    const a = periodic('test-periodic', 'a', 200);
    await until(() => a.duty.held, 'a to hold the lease');
    const b = periodic('test-periodic', 'b', 200);
    try {
      await until(() => a.runs.length >= 3, 'three periodic runs on a');
      expect(await b.duty.runNow('only-this')).toEqual({ by: 'a', arg: 'only-this' });
      expect(a.runs).toContain('only-this');
      expect(b.runs).toEqual([]);
    } finally {
      await a.duty.stop();
      await b.duty.stop();
    }
  });

  it('a new holder keeps the recorded cadence: no run before an interval after the last one', async () => {
    const a = periodic('test-cadence', 'a', 60_000);
    await until(() => a.runs.length === 1, 'the first run');
    const last = (await dutyRecord(runtime, 'test-cadence'))?.last_started;
    expect(last).toBeInstanceOf(Date);
    await a.duty.stop();
    const b = periodic('test-cadence', 'b', 60_000);
    try {
      await until(() => b.duty.held, 'b to take the duty over');
      // Its first run is planned a minute after a's: a run asked now is the only one.
      expect(await b.duty.runNow()).toEqual({ by: 'b', arg: null });
      expect(b.runs).toEqual([null]);
      expect((await dutyRecord(runtime, 'test-cadence'))?.holder).toBe('b');
    } finally {
      await b.duty.stop();
    }
  });

  it("a run asked of another instance that fails comes back with the holder's status and message", async () => {
    const a = periodic('test-failing', 'a', 0, () => new BadGateway('the master answered 500'));
    await until(() => a.duty.held, 'a to hold the lease');
    const b = periodic('test-failing', 'b', 0);
    try {
      const err: unknown = await b.duty.runNow().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpError);
      expect(err).toMatchObject({ status: 502, message: 'the master answered 500' });
      expect((await dutyRecord(runtime, 'test-failing'))?.last_error).toBe('the master answered 500');
    } finally {
      await a.duty.stop();
      await b.duty.stop();
    }
  });

  it('a run asked while an instance that takes no request holds the lease ends in 503 after two lease times', async () => {
    expect(await runtime.leases.acquire('test-silent', 'silent', 60_000)).not.toBeNull();
    const b = periodic('test-silent', 'b', 0);
    try {
      const err: unknown = await b.duty.runNow().catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 503 });
      expect((err as Error).message).toMatch(/runs on another instance, which did not take the request/);
      expect(b.runs).toEqual([]);
      // The request was withdrawn.
      expect(await store.count('duty_requests', { duty: 'test-silent' })).toBe(0);
    } finally {
      await b.duty.stop();
      await runtime.leases.release('test-silent', 'silent');
    }
  });
});

describe('claims of due items', () => {
  it('three instances claiming the same due items handle each once', async () => {
    const api = runtime.resources.of(monitored_hosts);
    const ids = Array.from({ length: 30 }, (_, i) => `claim-${i}.fleet.test`);
    const past = new Date(Date.now() - 1000);
    await api.upsertMany(
      ids.map((_id) => ({ _id, next_sample: past })),
      systemContext(runtime),
    );
    const handled: string[] = [];
    const loops = ['a', 'b', 'c'].map(
      () =>
        new ClaimLoop({
          runtime,
          log,
          what: 'test claim',
          everyMs: 10,
          api,
          spec: () => ({
            where: { next_sample: { $lte: new Date() } },
            sort: [['next_sample', 1]],
            update: () => ({ next_sample: new Date(Date.now() + 3_600_000) }),
          }),
          handle: async (item) => void handled.push(item._id),
        }),
    );
    await until(() => handled.length >= ids.length, 'every item handled');
    await Promise.all(loops.map((l) => l.stop()));
    expect([...handled].sort()).toEqual([...ids].sort());
  });
});

describe('rate-limit counts shared through the store', () => {
  it('an instance charges its own bucket for what another admitted', async () => {
    const a = sharedBuckets({ runtime, log, holder: 'rate-a', syncMs: 50 });
    const b = sharedBuckets({ runtime, log, holder: 'rate-b', syncMs: 50 });
    try {
      const key = 'writes\u0000ci-bot';
      const now = Date.now();
      // a admits 4 of the 5 a minute.
      expect([1, 2, 3, 4].map(() => a.take(key, 5, now))).toEqual([0, 0, 0, 0]);
      await until(
        async () => (await store.count('rate_counts', { holder: 'rate-a', count: 4 })) === 1,
        'a to share its count',
      );
      // b hears of them at its next exchange: one more passes there, then it refuses.
      await until(() => b.heard === 4, 'b to hear of them');
      expect(b.take(key, 5, Date.now())).toBe(0);
      expect(b.take(key, 5, Date.now())).toBeGreaterThanOrEqual(1);
      // Another token is not charged.
      expect(b.take('writes\u0000other', 5, Date.now())).toBe(0);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
