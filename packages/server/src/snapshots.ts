/**
 * Host-list snapshots (`hosts_statistic`): every SNAPSHOT_INTERVAL_S the host list is recorded in
 * the compact history (docs/statistics.md), kept SNAPSHOT_RETENTION_DAYS. Taken by the one
 * instance holding the `snapshots` lease, so several API instances on one database write one
 * snapshot per interval. When it takes the lease, and at every tick, full snapshots written by older versions
 * are converted into the history, and the first start after the upgrade logs what it did. All of
 * it through the local API as the system principal.
 */
import { DUTIES, PeriodicDuty, type DutyContext } from '@fleet/duties';
import { stampNow, systemContext, type Log, type Runtime } from '@fleet/engine';
import { hosts, hosts_statistic, snapshotHistory } from '@fleet/resources';

/** The host fields a snapshot keeps. */
const SUMMARY_FIELDS = [
  'version',
  'ip',
  'nodegroups',
  'status',
  'last_stateapply',
  'last_distupgrade',
  '_created',
  '_updated',
  '_soft_deleted',
] as const;
const DAY_MS = 86_400_000;

/** What one snapshot recorded. */
export interface TakenSnapshot {
  readonly id: string;
  readonly index: number;
  /** It started a new block (with a keyframe of every host). */
  readonly keyframe: boolean;
  readonly up: number;
  readonly down: number;
  /** Hosts changed since the snapshot before. */
  readonly changes: number;
}

/** Records a snapshot of every host (soft-deleted ones flagged) at `now`. */
export async function takeSnapshot(runtime: Runtime, now: Date): Promise<TakenSnapshot> {
  const ctx = systemContext(runtime, now);
  const projection = Object.fromEntries(SUMMARY_FIELDS.map((f) => [f, 1 as const]));
  const all = await runtime.resources
    .of(hosts)
    .find({ projection, sort: [['_id', 1]], showDeleted: true }, ctx);
  const summaries = all.map((h) => {
    const summary: Record<string, unknown> = { _id: h._id, nodegroups: [], _soft_deleted: false };
    for (const f of SUMMARY_FIELDS) if (h[f] !== undefined) summary[f] = h[f];
    return summary;
  });
  const w = await snapshotHistory.recordSnapshot(ctx, summaries);
  return {
    id: w.head.id,
    index: w.head.index,
    keyframe: w.starts,
    up: w.head.up,
    down: w.head.down,
    changes: w.changes,
  };
}

/** Deletes the snapshots older than `retentionDays`; resolves how many. */
export function pruneSnapshots(runtime: Runtime, now: Date, retentionDays: number): Promise<number> {
  return snapshotHistory.pruneSnapshots(
    systemContext(runtime, now),
    new Date(now.getTime() - retentionDays * DAY_MS),
  );
}

export interface SnapshotLoopOptions {
  readonly runtime: Runtime;
  readonly log: Log;
  readonly intervalMs: number;
  readonly retentionDays: number;
  /** The process's duties (the `snapshots` lease). */
  readonly duty: DutyContext;
}

/** What {@link convertSnapshots} needs. */
export interface ConvertOptions {
  readonly runtime: Runtime;
  readonly log: Log;
  readonly retentionDays: number;
  /** Asked before each block (the loop renews its lease there); false stops. */
  readonly keepGoing?: () => Promise<boolean>;
  /**
   * Compare items and history id by id (default true), not only their numbers: a full snapshot
   * and a lost item would cancel out. The loop's ticks use the numbers; the start is exact.
   */
  readonly exact?: boolean;
}

/** Conversions running per runtime: one at a time in a process (across processes, the lease). */
const converting = new WeakMap<Runtime, Promise<unknown>>();

/**
 * Converts the full snapshots within the retention into the compact history (oldest first) and
 * gives missing items back to history snapshots; logs what it did. One at a time per runtime; the
 * caller makes sure no other instance does the same at the same time (the loop holds the
 * `snapshots` lease).
 */
export function convertSnapshots(
  o: ConvertOptions,
  now: Date = stampNow(),
): Promise<snapshotHistory.Conversion> {
  const before = converting.get(o.runtime) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => convert(o, now));
  converting.set(o.runtime, run);
  return run;
}

async function convert(o: ConvertOptions, now: Date): Promise<snapshotHistory.Conversion> {
  const ctx = systemContext(o.runtime, now);
  const since = new Date(now.getTime() - o.retentionDays * DAY_MS);
  const started = Date.now();
  const exact = o.exact !== false;
  const done = await snapshotHistory.convertFullSnapshots(ctx, {
    since,
    exact,
    ...(o.keepGoing ? { keepGoing: o.keepGoing } : {}),
  });
  const repaired = await snapshotHistory.repairItems(
    ctx,
    { from: since, to: snapshotHistory.END_OF_TIME },
    { exact },
  );
  if (done.converted > 0) {
    o.log.info(
      { ...done, first: done.first?.toISOString(), last: done.last?.toISOString(), ms: Date.now() - started },
      `converted ${done.converted} full host-list snapshot(s) into the compact history (${done.blocks} block(s), ${done.changes} host change(s) for ${done.summaries} stored summaries)`,
    );
  }
  // Said once, at start: a tick finds them again (the numbers differ) and has nothing new to say.
  if (done.skipped > 0 && exact)
    o.log.warn(
      { skipped: done.skipped },
      "full host-list snapshots inside the compact history's span were left as they are (reads take them as stored)",
    );
  if (repaired > 0)
    o.log.warn(
      { repaired },
      'snapshots found in the history without their hosts_statistic item were given one',
    );
  return done;
}

/** One tick: if the latest snapshot is due, take one and prune (the holder of the `snapshots` lease). */
async function tick(o: SnapshotLoopOptions, keepGoing: () => Promise<boolean>): Promise<boolean> {
  const now = stampNow();
  const ctx = systemContext(o.runtime, now);
  const [latest] = await o.runtime.resources
    .of(hosts_statistic)
    .find({ sort: [['timestamp', -1]], limit: 1, projection: { hosts: 0 } }, ctx);
  const due = latest === undefined || now.getTime() - latest.timestamp.getTime() >= o.intervalMs - 500;
  if (!due) return false;
  const pruned = await pruneSnapshots(o.runtime, now, o.retentionDays);
  // A full snapshot an older instance wrote during a rolling upgrade joins the history first.
  await convertSnapshots(
    { runtime: o.runtime, log: o.log, retentionDays: o.retentionDays, keepGoing, exact: false },
    now,
  );
  const snapshot = await takeSnapshot(o.runtime, now);
  o.log.info({ ...snapshot, pruned }, 'host-list snapshot taken');
  return true;
}

/**
 * On the instance holding the `snapshots` lease (@fleet/duties): converts full snapshots when it
 * takes the lease, then takes a snapshot every interval (the first one interval after that);
 * `stop` waits for a running tick and releases the lease.
 */
export function startSnapshotLoop(o: SnapshotLoopOptions): { stop(): Promise<void> } {
  const keepGoing = async (): Promise<boolean> => duty.held;
  const duty: PeriodicDuty<boolean> = new PeriodicDuty<boolean>({
    ctx: o.duty,
    duty: { lease: DUTIES.snapshots.lease, what: 'the host-list snapshot' },
    intervalMs: o.intervalMs,
    first: 'after-interval',
    recorded: false,
    run: () => tick(o, keepGoing),
    onGained: async () => {
      await convertSnapshots({ runtime: o.runtime, log: o.log, retentionDays: o.retentionDays, keepGoing });
    },
  });
  return { stop: () => duty.stop() };
}
