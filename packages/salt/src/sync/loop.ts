/**
 * The sync's schedule: a run at start and then every `intervalMs`, only on the instance holding
 * the store lease `fleet-sync` (several API instances on one database sync once), never two
 * runs at a time. The lease's TTL outlives two intervals, is renewed while a long run goes on,
 * and is released on stop so another instance can take over at once.
 */
import { Conflict } from '@fleet/engine';
import { createFleetSync, type SyncOptions, type SyncReport } from './run';

/** Name of the store lease that elects the syncing instance. */
export const SYNC_LEASE = 'fleet-sync';

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Starts the loop. `holder` must be unique per process. `runNow` (the admin endpoint) queues a
 * run after the one in progress, if any; it rejects with Conflict when another instance holds
 * the lease.
 */
export function startSyncLoop(o: SyncOptions & { intervalMs: number; holder: string }): { runNow(): Promise<SyncReport>; stop(): Promise<void> } {
  const sync = createFleetSync(o);
  const ttlMs = o.intervalMs * 2 + 30_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<SyncReport> | undefined;
  let queued: Promise<SyncReport> | undefined;

  const guarded = async (): Promise<SyncReport> => {
    const renew = setInterval(() => {
      o.store.leases.renew(SYNC_LEASE, o.holder, ttlMs).then(
        (lease) => { if (lease === null) o.log.warn({ holder: o.holder }, 'fleet sync: lease lost during a run'); },
        (err: unknown) => o.log.warn({ err: errText(err) }, 'fleet sync: lease renewal failed'),
      );
    }, Math.max(1000, Math.floor(ttlMs / 3)));
    try {
      return await sync.runOnce();
    } finally {
      clearInterval(renew);
    }
  };
  const start = (): Promise<SyncReport> => {
    running = guarded().finally(() => { running = undefined; });
    return running;
  };
  /** Runs now, or once right after the run in progress (later callers share that one). */
  const schedule = (): Promise<SyncReport> => {
    if (queued !== undefined) return queued;
    if (running === undefined) return start();
    queued = running.catch(() => undefined).then(() => {
      queued = undefined;
      return start();
    });
    return queued;
  };
  let ticking: Promise<void> | undefined;
  const tick = async (): Promise<void> => {
    const started = Date.now();
    try {
      const lease = await o.store.leases.acquire(SYNC_LEASE, o.holder, ttlMs);
      if (lease !== null && !stopped) await schedule();
    } catch (err) {
      o.log.error({ err: errText(err) }, 'fleet sync failed');
    }
    if (!stopped) timer = setTimeout(() => { ticking = tick(); }, Math.max(0, o.intervalMs - (Date.now() - started)));
  };
  timer = setTimeout(() => { ticking = tick(); }, 0);

  return {
    async runNow() {
      if (stopped) throw new Conflict('the fleet sync is stopped');
      const lease = await o.store.leases.acquire(SYNC_LEASE, o.holder, ttlMs);
      if (lease === null) throw new Conflict('the fleet sync runs on another instance; try again there or wait for its next run');
      return schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.allSettled([ticking, running, queued]);
      await o.store.leases.release(SYNC_LEASE, o.holder).catch(() => false);
    },
  };
}
