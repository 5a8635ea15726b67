/**
 * Converting full snapshots (hosts_statistic items holding their host list, as versions before
 * the compact history wrote them) into the history, without loss: every field of every summary
 * is kept, `_updated` included (trackUpdated). Each item keeps its id, timestamp and index; its
 * stored host list is emptied once its block is written, and reads fill it back in. Snapshots
 * older than the history are converted into blocks of their own before it, newer ones are
 * appended to it; one that falls inside the history's span stays a full snapshot (reads take it
 * as it is).
 */
import type { CallContext } from '@fleet/engine';
import { hosts_history } from '../hosts_history';
import { hosts_statistic } from '../hosts_statistic';
import { blockAtOrBefore, systemOf } from './chain';
import { blockSnapshots, SNAPSHOTS } from './columns';
import { legacyRefs, legacySnapshots, type LegacyRef } from './legacy';
import { changesOf, continueHistory, END_OF_TIME, HistoryBuilder, type HistoryData } from './writer';

/** What a conversion did. */
export interface Conversion {
  /** Full snapshots converted, and the blocks (keyframes) they made. */
  converted: number;
  blocks: number;
  /** Host changes recorded between the converted snapshots. */
  changes: number;
  /** Host summaries the converted snapshots stored, summed. */
  summaries: number;
  /** Full snapshots inside the history's span, left as they are. */
  skipped: number;
  first?: Date;
  last?: Date;
}

/** Where the history starts and ends, if it holds anything. */
async function historySpan(ctx: CallContext): Promise<{ first: number; last: number } | undefined> {
  const [oldest] = await ctx.runtime.resources
    .of(hosts_history)
    .find(
      { where: { column: SNAPSHOTS }, sort: [['timestamp', 1]], limit: 1, projection: { data: 0 } },
      systemOf(ctx),
    );
  const newest = await blockAtOrBefore(ctx, END_OF_TIME);
  const last = newest === undefined ? undefined : blockSnapshots(newest.data).pop();
  return oldest === undefined || last === undefined
    ? undefined
    : { first: oldest.timestamp.getTime(), last: last.at };
}

/** Converts `refs` (in time order) through `builder`, a block written at a time. */
async function convertRun(
  ctx: CallContext,
  refs: readonly LegacyRef[],
  o: { builder: HistoryBuilder; done: Conversion; keepGoing: () => Promise<boolean> },
): Promise<boolean> {
  const sys = systemOf(ctx);
  const history = ctx.runtime.resources.of(hosts_history);
  let ids: string[] = [];
  // A block's rows, then the emptying of its items' host lists: never an item without history.
  const flush = async (rows: HistoryData[]) => {
    if (rows.length > 0) await history.upsertMany(rows, sys);
    // One at a time: each write reads the item it changes, a full host list.
    for (const id of ids) await ctx.runtime.resources.of(hosts_statistic).patch(id, { hosts: [] }, sys);
    ids = [];
  };
  for await (const snap of legacySnapshots(ctx, refs)) {
    const w = o.builder.add(
      { id: snap.id, timestamp: snap.timestamp, index: snap.index },
      changesOf(o.builder.state.hosts, snap.entries, { trackUpdated: true }),
      { defer: true },
    );
    if (w.starts) {
      await flush(w.closed);
      if (!(await o.keepGoing())) return false;
      await history.upsertMany(w.rows, sys);
      o.done.blocks += 1;
    }
    ids.push(snap.id);
    o.done.converted += 1;
    o.done.changes += w.changes;
    o.done.summaries += snap.entries.length;
    o.done.first ??= snap.timestamp;
    o.done.last = snap.timestamp;
  }
  await flush(o.builder.pending());
  return true;
}

/**
 * Converts every full snapshot from `since` on, oldest first. `keepGoing` is asked before each
 * block (the caller renews its lease there); false stops, and the next run goes on. `exact`:
 * compare every id (reconcile), not only the numbers of snapshots.
 */
export async function convertFullSnapshots(
  ctx: CallContext,
  o: { since: Date; exact?: boolean; keepGoing?: () => Promise<boolean> },
): Promise<Conversion> {
  const done: Conversion = { converted: 0, blocks: 0, changes: 0, summaries: 0, skipped: 0 };
  const refs = await legacyRefs(ctx, { from: o.since, to: END_OF_TIME }, { exact: o.exact === true });
  if (refs.length === 0) return done;
  const keepGoing = o.keepGoing ?? (async () => true);
  const span = await historySpan(ctx);
  const at = (r: LegacyRef) => r.timestamp.getTime();
  const before = span === undefined ? [] : refs.filter((r) => at(r) < span.first);
  const after = span === undefined ? refs : refs.filter((r) => at(r) > span.last);
  done.skipped = refs.length - before.length - after.length;
  if (
    before.length > 0 &&
    !(await convertRun(ctx, before, { builder: new HistoryBuilder(), done, keepGoing }))
  )
    return done;
  if (after.length > 0)
    await convertRun(ctx, after, { builder: await continueHistory(ctx), done, keepGoing });
  return done;
}
