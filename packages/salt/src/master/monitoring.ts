/**
 * Host monitoring (POST /hosts/{id}/all_status): `status.all_status` (salt-api notes §8) run on
 * the host every `intervalMs` while monitoring is on, the latest sample kept in the host's
 * `all_status` field (with a new `_updated` / `_etag`). A sample from a silent minion keeps the
 * previous one. Timers are per API instance, unref'd, and all cleared by `stopAll()`.
 */
import { isPlainObject, NotFound, stampNow, systemContext, type Log, type Runtime } from '@fleet/engine';
import { hosts } from '@fleet/resources';
import type { SaltClient } from '../client';
import { SYNC_METADATA } from '../sync/noise';

/** The job metadata of the samples (salt-api notes §2 `metadata`: stored and echoed in returns). */
export const MONITORING_METADATA: Readonly<Record<string, string>> = Object.freeze({
  ...SYNC_METADATA,
  task: 'all_status',
});

export interface MonitorOptions {
  readonly client: SaltClient;
  readonly runtime: Runtime;
  readonly log: Log;
  readonly intervalMs: number;
}

/** Periodic `status.all_status` collection per host. */
export class Monitor {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly o: MonitorOptions) {}

  /** The interval between two samples of one host. */
  get intervalMs(): number {
    return this.o.intervalMs;
  }

  /** Hosts being monitored, sorted. */
  hosts(): string[] {
    return [...this.timers.keys()].sort();
  }

  /**
   * Takes one sample and stores it; resolves it, or null when the minion did not answer.
   * Master errors propagate (502/503/504).
   */
  async sample(hostId: string): Promise<Record<string, unknown> | null> {
    // Bookkeeping, not an action: the sync and the event consumer skip jobs with this metadata.
    const result = await this.o.client.local(hostId, 'status.all_status', {
      extra: { metadata: MONITORING_METADATA },
    });
    const outcome = result.minions[hostId];
    const sample = outcome?.status === 'returned' ? outcome.ret : null;
    if (!isPlainObject(sample)) return null;
    try {
      await this.o.runtime.resources
        .of(hosts)
        .patch(hostId, { all_status: sample }, systemContext(this.o.runtime, stampNow()));
    } catch (err) {
      // The host was deleted (hidden) meanwhile: stop sampling it.
      if (!(err instanceof NotFound)) throw err;
      this.stop(hostId);
    }
    return sample;
  }

  /** Turns monitoring on for a host (again: the timer restarts). */
  start(hostId: string): void {
    this.stop(hostId);
    this.schedule(hostId);
  }

  /** Turns monitoring off for a host; resolves whether it was on. */
  stop(hostId: string): boolean {
    const timer = this.timers.get(hostId);
    if (timer === undefined) return false;
    clearTimeout(timer);
    this.timers.delete(hostId);
    return true;
  }

  /** Turns monitoring off everywhere; resolves the hosts that were monitored. */
  stopAll(): string[] {
    const hosts = this.hosts();
    for (const host of hosts) this.stop(host);
    return hosts;
  }

  /** Stops every timer and waits for the samples being taken (server shutdown). */
  async close(): Promise<void> {
    this.stopAll();
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(hostId: string): void {
    const timer = setTimeout(() => {
      const run = this.tick(hostId, timer);
      this.inFlight.add(run);
      void run.finally(() => this.inFlight.delete(run));
    }, this.o.intervalMs);
    timer.unref();
    this.timers.set(hostId, timer);
  }

  /** One periodic sample; the next is scheduled after it ends, so samples never overlap. */
  private async tick(hostId: string, timer: NodeJS.Timeout): Promise<void> {
    if (this.timers.get(hostId) !== timer) return;
    try {
      await this.sample(hostId);
    } catch (err) {
      this.o.log.warn(
        { host: hostId, error: err instanceof Error ? err.message : String(err) },
        'status.all_status sample failed',
      );
    }
    if (this.timers.get(hostId) === timer) this.schedule(hostId);
  }
}
