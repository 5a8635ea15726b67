/**
 * Writing the compact history: every snapshot is appended to the open block (its changes since
 * the snapshot before it, its counters); a new block, which starts with a keyframe of every host,
 * begins after a day, after as many changes as there are hosts, or after BLOCK_SNAPSHOTS
 * snapshots. So a replay reads one keyframe and at most a day of changes before its range.
 */
import { randomBytes } from 'node:crypto';
import { systemContext, type CallContext, type Runtime } from '@fleet/engine';
import { hosts_history } from '../hosts_history';
import { hosts_statistic } from '../hosts_statistic';
import { blockAtOrBefore, ChainState, changesOfBlocks, replay, systemOf, type SnapshotHead } from './chain';
import { applyChange, diffEntry, encodeSummary, type Change, type DiffOptions, type Entry } from './codec';
import { BlockColumns, blockSnapshots, frameColumns, SNAPSHOTS } from './columns';

/** A new block (and keyframe) at least this often. */
export const BLOCK_MS = 86_400_000;
/** ... and after this many snapshots (one a second would otherwise make a day a huge row). */
export const BLOCK_SNAPSHOTS = 1_000;
/** ... and once the changes in the block reach max(hosts, this). */
const MIN_CHANGES_PER_BLOCK = 1_000;
/** Hosts per keyframe part: bounds each stored document (MongoDB's 16 MB). */
export const PART_ENTRIES = 5_000;
/** After every snapshot there will ever be. */
export const END_OF_TIME = new Date('9999-12-31T23:59:59.999Z');

/** Which snapshot is being written. */
export interface SnapshotMeta {
  readonly id: string;
  readonly timestamp: Date;
  readonly index: number;
}

/** A hosts_history row as written (the engine adds the meta fields); columns.ts lays out `data`. */
export type HistoryData = {
  readonly _id: string;
  readonly snapshot: string;
  readonly timestamp: Date;
  readonly column: string;
  readonly part: number;
  readonly last: Date | null;
  readonly base: string | null;
  readonly data: { list: unknown[] };
};

/** The rows a snapshot writes: its block's grown columns (every column and the keyframe when it starts one). */
export interface BlockWrite {
  readonly rows: HistoryData[];
  /** With `defer`: the rows of the block this snapshot closed, complete. */
  readonly closed: HistoryData[];
  /** It started a block (and a keyframe). */
  readonly starts: boolean;
  readonly head: SnapshotHead;
  readonly changes: number;
}

/** The block being appended to. */
interface OpenBlock {
  readonly id: string;
  readonly timestamp: Date;
  readonly index: number;
  readonly base: string | null;
  readonly columns: BlockColumns;
}

/** The changes from the hosts of `state` to `entries` (every host of the next snapshot). */
export function changesOf(
  state: ReadonlyMap<string, Entry>,
  entries: readonly Entry[],
  o: DiffOptions,
): Change[] {
  const changes: Change[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    seen.add(entry.h);
    const change = diffEntry(state.get(entry.h), entry, o);
    if (change !== null) changes.push(change);
  }
  for (const host of state.keys()) if (!seen.has(host)) changes.push({ h: host, g: 1 });
  return changes;
}

/** Appends snapshots to a history, in time order: the state after the last one, and its open block. */
export class HistoryBuilder {
  constructor(
    readonly state = new ChainState(),
    private block?: OpenBlock,
  ) {}

  private startsBlock(at: Date, changes: number): boolean {
    const b = this.block;
    if (b === undefined || this.state.last === undefined) return true;
    if (at.getTime() - b.timestamp.getTime() >= BLOCK_MS || b.columns.count >= BLOCK_SNAPSHOTS) return true;
    return b.columns.changed + changes >= Math.max(this.state.hosts.size, MIN_CHANGES_PER_BLOCK);
  }

  /**
   * Adds the next snapshot, given its changes against the state (diffEntry's); the rows to write.
   * `defer` (a bulk writer): a block's columns come once, in `closed` when the next block starts
   * or from `pending()` at the end, instead of at every snapshot.
   */
  add(meta: SnapshotMeta, changes: readonly Change[], o: { defer?: boolean } = {}): BlockWrite {
    const hosts = this.state.hosts;
    let up = this.state.last?.up ?? 0;
    let down = this.state.last?.down ?? 0;
    const weigh = (entry: Entry | undefined, sign: number) => {
      if (entry === undefined || entry.x === true) return;
      if (entry.s === 'up') up += sign;
      else down += sign;
    };
    const fresh = new Set<string>();
    for (const change of changes) {
      const before = hosts.get(change.h);
      const after = applyChange(before, change);
      weigh(before, -1);
      weigh(after, 1);
      if (before === undefined) fresh.add(change.h);
      if (after === undefined) hosts.delete(change.h);
      else hosts.set(change.h, after);
    }
    const starts = this.startsBlock(meta.timestamp, changes.length);
    const base = this.state.last?.id ?? null;
    const closed = starts && o.defer === true ? this.pending() : [];
    // startsBlock() is true without an open block: this.block is set either way.
    const block =
      starts || this.block === undefined
        ? { id: meta.id, timestamp: meta.timestamp, index: meta.index, base, columns: new BlockColumns() }
        : this.block;
    this.block = block;
    // The first snapshot of a history is its keyframe alone: nothing came before to change.
    const recorded = base === null ? [] : changes;
    block.columns.add(
      { id: meta.id, at: meta.timestamp.getTime(), index: meta.index, up, down, changed: recorded.length },
      recorded,
      (h) => fresh.has(h),
    );
    const head: SnapshotHead = { id: meta.id, timestamp: meta.timestamp, index: meta.index, up, down };
    this.state.last = head;
    // The keyframe first and the `snapshots` column last: where a batch is not one transaction
    // (MongoDB), a reader that sees the snapshot finds everything it needs.
    const rows = o.defer === true ? [] : this.pending();
    return {
      rows: [...(starts ? keyframeRows(block, hosts) : []), ...rows],
      closed,
      starts,
      head,
      changes: recorded.length,
    };
  }

  /** The columns of the open block changed since they were last written. */
  pending(): HistoryData[] {
    const block = this.block;
    const last = this.state.last?.timestamp;
    if (block === undefined) return [];
    const rows = [...block.columns.take()].map(([column, data]) =>
      columnRow(block, { column, part: 0, data }, last),
    );
    return [...rows.filter((r) => r.column !== SNAPSHOTS), ...rows.filter((r) => r.column === SNAPSHOTS)];
  }
}

/** One row of a block: the `snapshots` column carries the block's last time and base. */
function columnRow(
  block: OpenBlock,
  c: { column: string; part: number; data: { list: unknown[] } },
  last?: Date,
): HistoryData {
  const id = c.column === SNAPSHOTS ? block.id : `${block.id}~${c.column}${c.part > 0 ? `~${c.part}` : ''}`;
  const head = c.column === SNAPSHOTS;
  return {
    _id: id,
    snapshot: block.id,
    timestamp: block.timestamp,
    column: c.column,
    part: c.part,
    last: head ? (last ?? null) : null,
    base: head ? block.base : null,
    data: c.data,
  };
}

/** The keyframe of a block: every host, PART_ENTRIES to a part, a row per column and part. */
function keyframeRows(block: OpenBlock, hosts: ReadonlyMap<string, Entry>): HistoryData[] {
  const all = [...hosts.values()];
  const rows: HistoryData[] = [];
  for (let i = 0, part = 1; i === 0 || i < all.length; i += PART_ENTRIES, part += 1) {
    for (const [column, data] of frameColumns(all.slice(i, i + PART_ENTRIES)))
      rows.push(columnRow(block, { column, part, data }));
  }
  return rows;
}

/** A builder continuing the history: the state after its newest snapshot, and its last block open. */
export async function continueHistory(ctx: CallContext): Promise<HistoryBuilder> {
  const latest = await blockAtOrBefore(ctx, END_OF_TIME);
  if (latest === undefined) return new HistoryBuilder();
  const state = new ChainState();
  for await (const step of replay(ctx, { from: latest.timestamp, to: END_OF_TIME }, state)) void step;
  const changes = (await changesOfBlocks(ctx, [latest])).get(latest.snapshot) ?? new Map<string, unknown>();
  const columns = BlockColumns.of(new Map([...changes, [SNAPSHOTS, latest.data]]));
  const index = blockSnapshots(latest.data)[0]?.index ?? 0;
  return new HistoryBuilder(state, {
    id: latest.snapshot,
    timestamp: latest.timestamp,
    index,
    base: latest.base,
    columns,
  });
}

/** The builder after the newest snapshot, kept per runtime so the loop does not replay every tick. */
const builders = new WeakMap<Runtime, HistoryBuilder>();

async function currentBuilder(ctx: CallContext): Promise<HistoryBuilder> {
  const latest = await blockAtOrBefore(ctx, END_OF_TIME);
  const newest = latest === undefined ? undefined : blockSnapshots(latest.data).pop();
  const cached = builders.get(ctx.runtime);
  if (newest === undefined) return new HistoryBuilder();
  if (cached?.state.last?.id === newest.id) return cached;
  return continueHistory(ctx);
}

/** An id shaped like a MongoDB ObjectId (seconds, then random): new snapshots sort after old ones. */
function snapshotId(at: Date): string {
  return `${Math.floor(at.getTime() / 1000)
    .toString(16)
    .padStart(8, '0')}${randomBytes(8).toString('hex')}`;
}

/** Writes a snapshot's rows in one batch (new columns created, grown ones rewritten). */
export async function writeBlock(ctx: CallContext, w: BlockWrite): Promise<void> {
  await ctx.runtime.resources.of(hosts_history).upsertMany(w.rows, systemOf(ctx));
}

/**
 * Records the host list at `ctx.now` as the next snapshot (`_updated` alone changing is not a
 * change, see DiffOptions): its history first, then its hosts_statistic item (a crash in between
 * leaves a snapshot the next start gives an item, retention.ts). Refuses a time not after the
 * newest snapshot: the history only grows at its end.
 */
export async function recordSnapshot(
  ctx: CallContext,
  summaries: readonly { readonly _id?: unknown }[],
): Promise<BlockWrite> {
  const builder = await currentBuilder(ctx);
  const last = builder.state.last;
  if (last !== undefined && ctx.now.getTime() <= last.timestamp.getTime()) {
    throw new Error(
      `the clock (${ctx.now.toISOString()}) is not after the newest snapshot (${last.timestamp.toISOString()})`,
    );
  }
  const sys = systemContext(ctx.runtime, ctx.now);
  const [latest] = await ctx.runtime.resources
    .of(hosts_statistic)
    .find({ sort: [['timestamp', -1]], limit: 1, projection: { hosts: 0 } }, sys);
  const meta = {
    id: snapshotId(ctx.now),
    timestamp: ctx.now,
    index: latest === undefined ? 0 : latest.index + 1,
  };
  builders.delete(ctx.runtime);
  const w = builder.add(
    meta,
    changesOf(
      builder.state.hosts,
      summaries.map((s) => encodeSummary(s)),
      { trackUpdated: false },
    ),
  );
  await writeBlock(sys, w);
  await ctx.runtime.resources
    .of(hosts_statistic)
    .create({ _id: meta.id, timestamp: meta.timestamp, index: meta.index, hosts: [] }, sys);
  builders.set(ctx.runtime, builder);
  return w;
}
