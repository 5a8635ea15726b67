/**
 * Host monitoring (POST /hosts/{id}/all_status): `status.all_status` (salt/modules/status.py) run on
 * the host every `intervalMs` while monitoring is on, the latest sample kept in the host's
 * `all_status` field (with a new `_updated` / `_etag`). A sample from a silent minion keeps the
 * previous one. Which hosts are monitored lives in the store (`monitored_hosts`): any instance
 * starts or stops it, and each sample is taken by the one instance that claims the host when it
 * is due (@fleet/duties `ClaimLoop`), so a host is sampled once per interval across instances and
 * an instance that dies leaves its hosts to the others.
 */
import { ClaimLoop } from '@fleet/duties';
import {
  isPlainObject,
  NotFound,
  stampNow,
  systemContext,
  type ItemOf,
  type Log,
  type Runtime,
  type WriteDataOf,
} from '@fleet/engine';
import { hosts, monitored_hosts } from '@fleet/resources';
import type { SaltClient } from '../client';
import { SYNC_METADATA } from '../sync/noise';

/** The job metadata of the samples (salt/netapi/__init__.py, salt/client/__init__.py `metadata`: stored and echoed in returns). */
export const MONITORING_METADATA: Readonly<Record<string, string>> = Object.freeze({
  ...SYNC_METADATA,
  task: 'all_status',
});

export interface MonitorOptions {
  readonly client: SaltClient;
  readonly runtime: Runtime;
  readonly log: Log;
  readonly intervalMs: number;
  /** The longest a sample may take (the client's execution timeout): a claim holds the host that long. */
  readonly sampleTimeoutMs?: number;
}

type Monitored = ItemOf<typeof monitored_hosts>;

/** Periodic `status.all_status` collection per host. */
export class Monitor {
  private readonly loop: ClaimLoop<Monitored, WriteDataOf<(typeof monitored_hosts)['fields']>>;

  constructor(private readonly o: MonitorOptions) {
    // A claim holds the host for the sample's longest time: samples of one host never overlap.
    const holdMs = o.intervalMs + (o.sampleTimeoutMs ?? 120_000) + 5_000;
    this.loop = new ClaimLoop({
      runtime: o.runtime,
      log: o.log,
      what: 'status.all_status sample',
      everyMs: Math.min(o.intervalMs, 1000),
      api: this.api(),
      spec: (now) => ({
        where: { next_sample: { $lte: now } },
        sort: [['next_sample', 1]],
        update: () => ({ next_sample: new Date(now.getTime() + holdMs) }),
      }),
      handle: (item) => this.tick(item._id),
      concurrency: 16,
    });
  }

  /** The interval between two samples of one host. */
  get intervalMs(): number {
    return this.o.intervalMs;
  }

  /** Hosts being monitored, sorted. */
  async hosts(): Promise<string[]> {
    const items = await this.api().find({ projection: { _id: 1 } }, this.ctx());
    return items.map((i) => i._id).sort();
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
      await this.o.runtime.resources.of(hosts).patch(hostId, { all_status: sample }, this.ctx());
    } catch (err) {
      // The host was deleted (hidden) meanwhile: stop sampling it.
      if (!(err instanceof NotFound)) throw err;
      await this.stop(hostId);
    }
    return sample;
  }

  /** Turns monitoring on for a host (again: the next sample an interval from now). */
  async start(hostId: string, by: string): Promise<void> {
    const next = new Date(Date.now() + this.o.intervalMs);
    await this.api().upsertMany([{ _id: hostId, next_sample: next, by }], this.ctx());
  }

  /** Turns monitoring off for a host; resolves whether it was on. */
  async stop(hostId: string): Promise<boolean> {
    try {
      await this.api().delete(hostId, this.ctx());
      return true;
    } catch (err) {
      if (err instanceof NotFound) return false;
      throw err;
    }
  }

  /** Turns monitoring off everywhere; resolves the hosts that were monitored. */
  async stopAll(): Promise<string[]> {
    const ids = await this.hosts();
    if (ids.length > 0) await this.api().deleteMany({ _id: { $in: ids } }, this.ctx());
    return ids;
  }

  /** Stops this instance's sampling and waits for the samples being taken (server shutdown). */
  async close(): Promise<void> {
    await this.loop.stop();
  }

  private api() {
    return this.o.runtime.resources.of(monitored_hosts);
  }

  private ctx() {
    return systemContext(this.o.runtime, stampNow());
  }

  /** One periodic sample of a claimed host; the next one an interval after it ends. */
  private async tick(hostId: string): Promise<void> {
    try {
      await this.sample(hostId);
    } catch (err) {
      this.o.log.warn(
        { host: hostId, error: err instanceof Error ? err.message : String(err) },
        'status.all_status sample failed',
      );
    }
    const next = new Date(Date.now() + this.o.intervalMs);
    await this.api()
      .patch(hostId, { next_sample: next }, this.ctx())
      .catch((err: unknown) => {
        // Stopped meanwhile: nothing to plan.
        if (!(err instanceof NotFound)) throw err;
      });
  }
}
