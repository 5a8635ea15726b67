/**
 * Reading the compact history (docs/statistics.md): pages of hosts_history rows in time order,
 * the block a range starts in, and the replay, which rebuilds the host list snapshot after
 * snapshot from that block's keyframe and the changes after it. Every read is an indexed range of
 * the local API (timestamp, or part + timestamp), a page at a time, so memory holds a page and the
 * host list, never the whole range.
 */
import { systemContext, type CallContext, type Filter, type ItemOf, type SortSpec } from '@fleet/engine';
import { hosts_history } from '../hosts_history';
import type { Entry } from './codec';
import {
  blockSnapshots,
  BlockReader,
  changeColumnsFor,
  keyColumnsFor,
  readFrame,
  SNAPSHOTS,
  type BlockSnapshot,
  type OnChange,
} from './columns';

/** A stored history row. */
export type HistoryRow = ItemOf<typeof hosts_history>;

/** One snapshot of the history. */
export interface SnapshotHead {
  readonly id: string;
  readonly timestamp: Date;
  readonly index: number;
  readonly up: number;
  readonly down: number;
}

/** Rows per page: a few months of blocks' snapshot lists, or a month of one column. */
const PAGE_ROWS = 100;
/** Blocks a replay holds the columns of at once (a busy day's column is a few hundred kB). */
const REPLAY_BLOCKS = 3;
/** Time order, ties by id: what the timestamp index (which ends with the id) serves. */
export const TIME_ORDER: SortSpec = [
  ['timestamp', 1],
  ['_id', 1],
];

/** The history is the service's own: read as the system principal, at the caller's time. */
export function systemOf(ctx: CallContext): CallContext {
  return ctx.principal.system === true ? ctx : systemContext(ctx.runtime, ctx.now);
}

/** Lets other requests run between two pages of a long read (better-sqlite3 is synchronous). */
export function breath(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Reads the rows whose timestamp matches a filter, in (timestamp, _id) order, at most `limit`. */
export type TimeRead<R> = (timestamp: Filter | Date, limit?: number) => Promise<R[]>;

/** The rows of [from, to] in time order, one page at a time, through `read`. */
export async function* timePages<R extends { readonly timestamp: Date }>(
  read: TimeRead<R>,
  range: { from: Date; to: Date },
  size = PAGE_ROWS,
): AsyncGenerator<R[]> {
  let lower: Filter = { $gte: range.from };
  for (;;) {
    const page = await read({ ...lower, $lte: range.to }, size);
    const last = page[page.length - 1];
    if (page.length < size || last === undefined) {
      if (page.length > 0) yield page;
      return;
    }
    // The page may stop inside one timestamp (the parts of a keyframe): those rows come again next.
    const whole = page.filter((row) => row.timestamp.getTime() < last.timestamp.getTime());
    if (whole.length > 0) {
      yield whole;
      lower = { $gte: last.timestamp };
    } else {
      yield await read(last.timestamp);
      lower = { $gt: last.timestamp };
    }
    await breath();
  }
}

/** The history rows of [from, to] matching `where`, in (timestamp, _id) order, a page at a time. */
export function historyPages(
  ctx: CallContext,
  range: { from: Date; to: Date },
  q: { where?: Filter; size?: number } = {},
): AsyncGenerator<HistoryRow[]> {
  const history = ctx.runtime.resources.of(hosts_history);
  const sys = systemOf(ctx);
  const read: TimeRead<HistoryRow> = (timestamp, limit) =>
    history.find({ where: { ...q.where, timestamp }, sort: TIME_ORDER, ...(limit ? { limit } : {}) }, sys);
  return timePages(read, range, q.size);
}

/** The block holding `at`, or the last one before it: the `snapshots` row of the latest block starting at or before `at`. */
export async function blockAtOrBefore(ctx: CallContext, at: Date): Promise<HistoryRow | undefined> {
  const [row] = await ctx.runtime.resources
    .of(hosts_history)
    .find(
      { where: { column: SNAPSHOTS, timestamp: { $lte: at } }, sort: [['timestamp', -1]], limit: 1 },
      systemOf(ctx),
    );
  return row;
}

/** The `snapshots` rows of the blocks holding snapshots of [from, to], in time order. */
export async function* blockPages(
  ctx: CallContext,
  range: { from: Date; to: Date },
  size?: number,
): AsyncGenerator<HistoryRow[]> {
  const first = await blockAtOrBefore(ctx, range.from);
  yield* historyPages(
    ctx,
    { from: first?.timestamp ?? range.from, to: range.to },
    { where: { column: SNAPSHOTS }, ...(size ? { size } : {}) },
  );
}

/** Columns of the rows matching `where` in [from, to], by block, then part, then column. */
async function columnsOf(
  ctx: CallContext,
  range: { from: Date; to: Date },
  q: { names: readonly string[]; where?: Filter },
): Promise<Map<string, Map<number, Map<string, unknown>>>> {
  const out = new Map<string, Map<number, Map<string, unknown>>>();
  for (const column of q.names) {
    for await (const page of historyPages(ctx, range, { where: { ...q.where, column } })) {
      for (const row of page) {
        const parts = out.get(row.snapshot) ?? new Map<number, Map<string, unknown>>();
        const columns = parts.get(row.part) ?? new Map<string, unknown>();
        columns.set(column, row.data);
        parts.set(row.part, columns);
        out.set(row.snapshot, parts);
      }
    }
  }
  return out;
}

/** The head of a block's snapshot. */
export function headOf(s: BlockSnapshot): SnapshotHead {
  return { id: s.id, timestamp: new Date(s.at), index: s.index, up: s.up, down: s.down };
}

/** Every host of a block's keyframe, with the entry keys in `keys` (all when undefined). */
export async function keyframeHosts(
  ctx: CallContext,
  block: { readonly snapshot: string; readonly timestamp: Date },
  keys?: ReadonlySet<string>,
): Promise<Map<string, Entry>> {
  const hosts = new Map<string, Entry>();
  const parts = (
    await columnsOf(
      ctx,
      { from: block.timestamp, to: block.timestamp },
      { names: keyColumnsFor(keys), where: { snapshot: block.snapshot } },
    )
  ).get(block.snapshot);
  for (const part of [...(parts?.keys() ?? [])].sort((a, b) => a - b))
    readFrame(parts?.get(part) ?? new Map(), hosts, keys);
  return hosts;
}

/** The change columns a replay needs of the blocks in `heads` (a window of consecutive blocks). */
export async function changesOfBlocks(
  ctx: CallContext,
  heads: readonly HistoryRow[],
  keys?: ReadonlySet<string>,
): Promise<Map<string, Map<string, unknown>>> {
  const first = heads[0];
  const last = heads[heads.length - 1];
  if (first === undefined || last === undefined) return new Map();
  const found = await columnsOf(
    ctx,
    { from: first.timestamp, to: last.timestamp },
    { names: changeColumnsFor(keys) },
  );
  return new Map([...found].map(([block, parts]) => [block, parts.get(0) ?? new Map<string, unknown>()]));
}

/** The host list as of the last snapshot replayed. */
export class ChainState {
  hosts = new Map<string, Entry>();
  last: SnapshotHead | undefined;
}

/** One snapshot of a replay: its head, and the hosts it changed (`all` after a keyframe was loaded). */
export interface Step {
  readonly head: SnapshotHead;
  readonly touched: readonly string[] | 'all';
}

/** What a replay reads: the entry keys it needs (all when undefined), and who hears each change. */
export interface ReplayOptions {
  readonly keys?: ReadonlySet<string>;
  readonly onChange?: OnChange;
}

/**
 * Replays the history over [from, to]: the block holding `from` from its keyframe on, then every
 * snapshot's changes, yielding a step per snapshot (those before `from` too: callers skip them).
 * A block that does not continue the state (the start of a history) is taken from its keyframe.
 */
export async function* replay(
  ctx: CallContext,
  range: { from: Date; to: Date },
  state = new ChainState(),
  o: ReplayOptions = {},
): AsyncGenerator<Step> {
  const apply = o.onChange ? { onChange: o.onChange } : {};
  for await (const heads of blockPages(ctx, range, REPLAY_BLOCKS)) {
    const changes = await changesOfBlocks(ctx, heads, o.keys);
    for (const block of heads) {
      const reader = new BlockReader(changes.get(block.snapshot) ?? new Map<string, unknown>());
      const continues = state.last !== undefined && block.base === state.last.id;
      const snapshots = blockSnapshots(block.data);
      for (const [j, snapshot] of snapshots.entries()) {
        const head = headOf(snapshot);
        if (head.timestamp > range.to) return;
        if (j === 0 && !continues) {
          reader.apply(0, state.hosts, { skip: true });
          state.hosts = await keyframeHosts(ctx, block, o.keys);
          state.last = head;
          yield { head, touched: 'all' };
          continue;
        }
        const touched = reader.apply(j, state.hosts, apply);
        state.last = head;
        yield { head, touched };
      }
    }
  }
}
