/**
 * hosts_statistic items keep the spec's shape: an item stored in the compact history has an empty
 * `hosts`, and reads fill it back from the history (its block's keyframe and the changes up to
 * it). One replay serves every item of a page in the same block.
 */
import type { CallContext } from '@fleet/engine';
import { blockAtOrBefore, ChainState, replay, systemOf, type HistoryRow } from './chain';
import { decodeEntry, type Summary } from './codec';
import { blockSnapshots } from './columns';
import { snapshotsRef } from './fields';

/** What the read hook sees of an item. */
export interface SnapshotItem {
  readonly _id: string;
  readonly timestamp?: Date;
  hosts?: unknown[];
}

/** The summaries of a state, by host id (the order the snapshot loop always wrote). */
export function summariesOf(state: ChainState): Summary[] {
  return [...state.hosts.values()]
    .map(decodeEntry)
    .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
}

/** Each item's time: from the item, or read when a projection left it out. */
async function timesOf(ctx: CallContext, items: readonly SnapshotItem[]): Promise<Map<string, Date>> {
  const times = new Map<string, Date>();
  for (const item of items) if (item.timestamp instanceof Date) times.set(item._id, item.timestamp);
  const missing = items.filter((i) => !times.has(i._id)).map((i) => i._id);
  if (missing.length > 0) {
    const found = await ctx.runtime.resources
      .of(snapshotsRef)
      .find({ where: { _id: { $in: missing } }, projection: { hosts: 0 } }, ctx);
    for (const item of found) times.set(item._id, item.timestamp);
  }
  return times;
}

/**
 * Fills `hosts` of the items read with an empty one (a projection that leaves `hosts` out leaves
 * it out) when the history holds them; full snapshots of older versions stay as stored.
 */
export async function fillSnapshots(docs: readonly SnapshotItem[], ctx: CallContext): Promise<void> {
  const wanted = docs.filter((d) => Array.isArray(d.hosts) && d.hosts.length === 0);
  if (wanted.length === 0) return;
  const sys = systemOf(ctx);
  const times = await timesOf(sys, wanted);
  const groups = new Map<string, { block: HistoryRow; items: Map<string, SnapshotItem>; to: Date }>();
  for (const item of wanted) {
    const at = times.get(item._id);
    if (at === undefined) continue;
    const known = [...groups.values()].find(
      (g) => g.block.timestamp <= at && (g.block.last ?? g.block.timestamp) >= at,
    );
    const block = known?.block ?? (await blockAtOrBefore(sys, at));
    if (block === undefined || !blockSnapshots(block.data).some((s) => s.id === item._id)) continue;
    const group = groups.get(block._id) ?? { block, items: new Map<string, SnapshotItem>(), to: at };
    group.items.set(item._id, item);
    if (at > group.to) group.to = at;
    groups.set(block._id, group);
  }
  for (const { block, items, to } of groups.values()) {
    const state = new ChainState();
    for await (const step of replay(sys, { from: block.timestamp, to }, state)) {
      const item = items.get(step.head.id);
      if (item !== undefined) item.hosts = summariesOf(state);
    }
  }
}
