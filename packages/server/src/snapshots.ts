/**
 * Host-list snapshots (`hosts_statistic`): every SNAPSHOT_INTERVAL_S one item holding a summary of
 * every host, kept SNAPSHOT_RETENTION_DAYS. Taken by the one instance holding the `snapshots`
 * lease, so several API instances on one database write one snapshot per interval. Written through
 * the local API as the system principal.
 */
import { stampNow, systemContext, type ItemOf, type Log, type Runtime } from '@fleet/engine';
import { hosts, hosts_statistic } from '@fleet/resources';

/** The host fields a snapshot keeps (DESIGN §5 hosts_statistic). */
const SUMMARY_FIELDS = ['version', 'ip', 'nodegroups', 'status', 'last_stateapply', 'last_distupgrade', '_created', '_updated', '_soft_deleted'] as const;
const LEASE = 'snapshots';

/** Writes one snapshot of every host (soft-deleted ones flagged) at `now`; resolves it. */
export async function takeSnapshot(runtime: Runtime, now: Date): Promise<ItemOf<typeof hosts_statistic>> {
  const ctx = systemContext(runtime, now);
  const projection = Object.fromEntries(SUMMARY_FIELDS.map((f) => [f, 1 as const]));
  const all = await runtime.resources.of(hosts).find({ projection, sort: [['_id', 1]], showDeleted: true }, ctx);
  const snapshots = runtime.resources.of(hosts_statistic);
  const [last] = await snapshots.find({ sort: [['index', -1]], limit: 1, projection: { index: 1 } }, ctx);
  const summaries = all.map((h) => {
    const summary: Record<string, unknown> = { _id: h._id, nodegroups: [], _soft_deleted: false };
    for (const f of SUMMARY_FIELDS) if (h[f] !== undefined) summary[f] = h[f];
    return summary;
  });
  return snapshots.create({ hosts: summaries, timestamp: now, index: last === undefined ? 0 : last.index + 1 }, ctx);
}

/** Deletes the snapshots older than `retentionDays`; resolves how many. */
export function pruneSnapshots(runtime: Runtime, now: Date, retentionDays: number): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * 86_400_000);
  return runtime.resources.of(hosts_statistic).deleteMany({ timestamp: { $lt: before } }, systemContext(runtime, now));
}

export interface SnapshotLoopOptions {
  readonly runtime: Runtime;
  readonly log: Log;
  readonly intervalMs: number;
  readonly retentionDays: number;
  /** Unique per process (the lease holder). */
  readonly holder: string;
}

/** One tick: if this instance holds the lease and the latest snapshot is due, take one and prune. */
async function tick(o: SnapshotLoopOptions): Promise<boolean> {
  const lease = await o.runtime.leases.acquire(LEASE, o.holder, o.intervalMs * 2);
  if (!lease) return false;
  const now = stampNow();
  const [latest] = await o.runtime.resources.of(hosts_statistic).find({ sort: [['timestamp', -1]], limit: 1, projection: { timestamp: 1 } }, systemContext(o.runtime, now));
  const due = latest === undefined || now.getTime() - latest.timestamp.getTime() >= o.intervalMs - 500;
  if (!due) return false;
  const snapshot = await takeSnapshot(o.runtime, now);
  const pruned = await pruneSnapshots(o.runtime, now, o.retentionDays);
  o.log.info({ index: snapshot.index, hosts: snapshot.hosts.length, pruned }, 'host-list snapshot taken');
  return true;
}

/** Takes a snapshot every interval (the first one interval after start); `stop` waits for a running tick. */
export function startSnapshotLoop(o: SnapshotLoopOptions): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = tick(o).catch((err: unknown) => o.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'host-list snapshot failed; retrying at the next interval'));
  };
  const timer = setInterval(run, o.intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await o.runtime.leases.release(LEASE, o.holder).catch(() => false);
    },
  };
}
