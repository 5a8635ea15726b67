/**
 * When reconciles run: every `intervalMs` from the start (0: never by itself) and on demand, only on the
 * instance holding the store lease `vpn-reconcile` (several API instances on one database repair
 * once: two repairing at a time would both make a missing account), one run at a time in this
 * process (on-demand runs wait for the one in progress). The lease outlives two intervals, is
 * renewed while a run lasts, and is released on stop (without periodic runs: once idle).
 */
import { Conflict, type Log, type Runtime } from '@fleet/engine';
import { reason } from './alerts';

/** Name of the store lease that elects the reconciling instance. */
export const RECONCILE_LEASE = 'vpn-reconcile';
/** The lease's life when reconciles only run on demand. */
const ON_DEMAND_TTL_MS = 600_000;

/** The schedule's settings and the run it schedules. */
export interface LoopOptions<R> {
  readonly runtime: Runtime;
  readonly log: Log;
  /** Between two periodic runs; 0: none. */
  readonly intervalMs: number;
  /** Unique per process. */
  readonly holder: string;
  readonly run: (manager?: string) => Promise<R>;
}

/** The leased schedule of reconciles. */
export class ReconcileLoop<R> {
  private readonly ttlMs: number;
  private chain: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly o: LoopOptions<R>) {
    this.ttlMs = o.intervalMs > 0 ? o.intervalMs * 2 + 30_000 : ON_DEMAND_TTL_MS;
    // The first run after one interval: a restart is no reason to call every VPN server at once.
    if (o.intervalMs > 0) this.plan(o.intervalMs);
  }

  /** Runs now (after the run in progress); 409 when another instance holds the lease. */
  async runNow(manager?: string): Promise<R> {
    if (this.stopped) throw new Conflict('the VPN reconcile is stopped');
    const lease = await this.o.runtime.leases.acquire(RECONCILE_LEASE, this.o.holder, this.ttlMs);
    if (lease === null)
      throw new Conflict(
        'the VPN reconcile runs on another instance; try again there or wait for its next run',
      );
    return this.enqueue(manager);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([this.ticking, this.chain]);
    await this.o.runtime.leases.release(RECONCILE_LEASE, this.o.holder).catch(() => false);
  }

  private plan(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.ticking = this.tick();
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const started = Date.now();
    try {
      const lease = await this.o.runtime.leases.acquire(RECONCILE_LEASE, this.o.holder, this.ttlMs);
      if (lease !== null && !this.stopped) await this.enqueue();
    } catch (err) {
      this.o.log.error({ err: reason(err) }, 'VPN reconcile failed');
    }
    if (!this.stopped) this.plan(Math.max(0, this.o.intervalMs - (Date.now() - started)));
  }

  /** One run after the previous one, renewing the lease while it lasts. */
  private enqueue(manager?: string): Promise<R> {
    const next = this.chain.catch(() => undefined).then(() => this.leased(manager));
    this.chain = next;
    // Without periodic runs, nothing here needs the lease once idle: another instance may run one.
    if (this.o.intervalMs === 0) {
      const release = (): Promise<unknown> =>
        this.chain === next
          ? this.o.runtime.leases.release(RECONCILE_LEASE, this.o.holder).catch(() => false)
          : Promise.resolve();
      void next.then(release, release);
    }
    return next;
  }

  private async leased(manager?: string): Promise<R> {
    const renew = setInterval(
      () => {
        this.o.runtime.leases.renew(RECONCILE_LEASE, this.o.holder, this.ttlMs).then(
          (lease) => {
            if (lease === null)
              this.o.log.warn({ holder: this.o.holder }, 'VPN reconcile: lease lost during a run');
          },
          (err: unknown) => this.o.log.warn({ err: reason(err) }, 'VPN reconcile: lease renewal failed'),
        );
      },
      Math.max(1000, Math.floor(this.ttlMs / 3)),
    );
    try {
      return await this.o.run(manager);
    } finally {
      clearInterval(renew);
    }
  }
}
