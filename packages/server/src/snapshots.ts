/**
 * Host-list snapshots (`hosts_statistic`): every SNAPSHOT_INTERVAL_S one item holding a summary of
 * every host, kept SNAPSHOT_RETENTION_DAYS. Taken by the one instance holding the `snapshots`
 * lease, so several API instances on one database write one snapshot per interval.
 */
import { randomBytes } from 'node:crypto';
import { stampNow, type Doc, type Log, type Store } from '@fleet/engine';

/** The host fields a snapshot keeps (DESIGN §5 hosts_statistic). */
const SUMMARY_FIELDS = ['version', 'ip', 'nodegroups', 'status', 'last_stateapply', 'last_distupgrade', '_created', '_updated', '_soft_deleted'] as const;
const LEASE = 'snapshots';

/** Writes one snapshot of every host (soft-deleted ones flagged) at `now`; resolves it. */
export async function takeSnapshot(store: Store, now: Date): Promise<Doc> {
  const projection = Object.fromEntries(SUMMARY_FIELDS.map((f) => [f, 1 as const]));
  const hosts = await store.find('hosts', {}, { projection, sort: [['_id', 1]] });
  const [last] = await store.find('hosts_statistic', {}, { sort: [['index', -1]], limit: 1, projection: { index: 1 } });
  const summaries = hosts.map((h) => {
    const summary: Record<string, unknown> = { _id: h._id, nodegroups: [], _soft_deleted: false };
    for (const f of SUMMARY_FIELDS) if (h[f] !== undefined) summary[f] = h[f];
    return summary;
  });
  const doc: Doc = {
    _id: randomBytes(12).toString('hex'),
    hosts: summaries,
    timestamp: now,
    index: typeof last?.index === 'number' ? last.index + 1 : 0,
    _created: now,
    _updated: now,
    _etag: randomBytes(20).toString('hex'),
  };
  await store.insert('hosts_statistic', [doc]);
  return doc;
}

/** Deletes the snapshots older than `retentionDays`; resolves how many. */
export function pruneSnapshots(store: Store, now: Date, retentionDays: number): Promise<number> {
  return store.delete('hosts_statistic', { timestamp: { $lt: new Date(now.getTime() - retentionDays * 86_400_000) } });
}

export interface SnapshotLoopOptions {
  readonly store: Store;
  readonly log: Log;
  readonly intervalMs: number;
  readonly retentionDays: number;
  /** Unique per process (the lease holder). */
  readonly holder: string;
}

/** One tick: if this instance holds the lease and the latest snapshot is due, take one and prune. */
async function tick(o: SnapshotLoopOptions): Promise<boolean> {
  const lease = await o.store.leases.acquire(LEASE, o.holder, o.intervalMs * 2);
  if (!lease) return false;
  const now = stampNow();
  const [latest] = await o.store.find('hosts_statistic', {}, { sort: [['timestamp', -1]], limit: 1, projection: { timestamp: 1 } });
  const due = !(latest?.timestamp instanceof Date) || now.getTime() - latest.timestamp.getTime() >= o.intervalMs - 500;
  if (!due) return false;
  const snapshot = await takeSnapshot(o.store, now);
  const pruned = await pruneSnapshots(o.store, now, o.retentionDays);
  o.log.info({ index: snapshot.index, hosts: (snapshot.hosts as unknown[]).length, pruned }, 'host-list snapshot taken');
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
      await o.store.leases.release(LEASE, o.holder).catch(() => false);
    },
  };
}
