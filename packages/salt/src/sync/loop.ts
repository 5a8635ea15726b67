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

type LoopOptions = SyncOptions & { intervalMs: number; holder: string };

/** The leased schedule behind `startSyncLoop`. */
class SyncLoop {
  private readonly sync: { runOnce(): Promise<SyncReport> };
  private readonly ttlMs: number;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private running: Promise<SyncReport> | undefined;
  private queued: Promise<SyncReport> | undefined;

  constructor(private readonly o: LoopOptions) {
    this.sync = createFleetSync(o);
    this.ttlMs = o.intervalMs * 2 + 30_000;
    this.timer = setTimeout(() => {
      this.ticking = this.tick();
    }, 0);
  }

  async runNow(): Promise<SyncReport> {
    if (this.stopped) throw new Conflict('the fleet sync is stopped');
    const lease = await this.o.runtime.leases.acquire(SYNC_LEASE, this.o.holder, this.ttlMs);
    if (lease === null)
      throw new Conflict('the fleet sync runs on another instance; try again there or wait for its next run');
    return this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([this.ticking, this.running, this.queued]);
    await this.o.runtime.leases.release(SYNC_LEASE, this.o.holder).catch(() => false);
  }

  /** One scheduled attempt: take (or renew) the lease, run, plan the next attempt. */
  private async tick(): Promise<void> {
    const started = Date.now();
    try {
      const lease = await this.o.runtime.leases.acquire(SYNC_LEASE, this.o.holder, this.ttlMs);
      if (lease !== null && !this.stopped) await this.schedule();
    } catch (err) {
      this.o.log.error({ err: errText(err) }, 'fleet sync failed');
    }
    if (this.stopped) return;
    this.timer = setTimeout(
      () => {
        this.ticking = this.tick();
      },
      Math.max(0, this.o.intervalMs - (Date.now() - started)),
    );
  }

  /** Runs now, or once right after the run in progress (later callers share that one). */
  private schedule(): Promise<SyncReport> {
    if (this.queued !== undefined) return this.queued;
    if (this.running === undefined) return this.start();
    this.queued = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    return this.queued;
  }

  private start(): Promise<SyncReport> {
    this.running = this.guarded().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** A run that keeps renewing the lease while it lasts. */
  private async guarded(): Promise<SyncReport> {
    const renew = setInterval(
      () => {
        this.o.runtime.leases.renew(SYNC_LEASE, this.o.holder, this.ttlMs).then(
          (lease) => {
            if (lease === null)
              this.o.log.warn({ holder: this.o.holder }, 'fleet sync: lease lost during a run');
          },
          (err: unknown) => this.o.log.warn({ err: errText(err) }, 'fleet sync: lease renewal failed'),
        );
      },
      Math.max(1000, Math.floor(this.ttlMs / 3)),
    );
    try {
      return await this.sync.runOnce();
    } finally {
      clearInterval(renew);
    }
  }
}

/**
 * Starts the loop. `holder` must be unique per process. `runNow` (the admin endpoint) queues a
 * run after the one in progress, if any; it rejects with Conflict when another instance holds
 * the lease.
 */
export function startSyncLoop(o: LoopOptions): { runNow(): Promise<SyncReport>; stop(): Promise<void> } {
  const loop = new SyncLoop(o);
  return { runNow: () => loop.runNow(), stop: () => loop.stop() };
}
