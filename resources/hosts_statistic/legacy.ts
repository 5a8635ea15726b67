/**
 * Full snapshots: hosts_statistic items that carry their host list and have no history. They are
 * what older versions wrote; the snapshot loop converts them (migrate.ts), and until it has, or
 * while an older instance still writes them during a rolling upgrade, reads take them as they are.
 */
import type { CallContext } from '@fleet/engine';
import { hosts_statistic } from '../hosts_statistic';
import {
  blockPages,
  breath,
  headOf,
  systemOf,
  TIME_ORDER,
  timePages,
  type SnapshotHead,
  type TimeRead,
} from './chain';
import { blockSnapshots, countSnapshots } from './columns';
import { encodeSummary, type Entry } from './codec';

/** A full snapshot's place. */
export interface LegacyRef {
  readonly id: string;
  readonly timestamp: Date;
}

/** A full snapshot, encoded. */
export interface LegacySnapshot extends LegacyRef {
  readonly index: number;
  readonly entries: Entry[];
}

/** Full snapshots read per query: each holds every host (10,000 hosts: ~15 MB decoded). */
const PER_READ = 2;

type ItemRef = { readonly _id: string; readonly timestamp: Date };

/** The items of [from, to], without their host lists, a page at a time. */
function itemPages(ctx: CallContext, range: { from: Date; to: Date }): AsyncGenerator<ItemRef[]> {
  const items = ctx.runtime.resources.of(hosts_statistic);
  const sys = systemOf(ctx);
  // An exclusion: the store drops `hosts` before decoding (a full snapshot is megabytes).
  const read: TimeRead<ItemRef> = (timestamp, limit) =>
    items.find(
      { where: { timestamp }, sort: TIME_ORDER, projection: { hosts: 0 }, ...(limit ? { limit } : {}) },
      sys,
    );
  return timePages(read, range);
}

/** Items and history of a range compared: full snapshots, and history snapshots with no item. */
export interface Reconciled {
  readonly legacy: LegacyRef[];
  readonly orphans: SnapshotHead[];
}

/** The snapshots the history holds in [from, to], by id. */
export async function historySnapshots(
  ctx: CallContext,
  range: { from: Date; to: Date },
): Promise<Map<string, SnapshotHead>> {
  const heads = new Map<string, SnapshotHead>();
  const [from, to] = [range.from.getTime(), range.to.getTime()];
  for await (const page of blockPages(ctx, range)) {
    for (const block of page)
      for (const s of blockSnapshots(block.data)) if (s.at >= from && s.at <= to) heads.set(s.id, headOf(s));
  }
  return heads;
}

/** How many snapshots the history holds in [from, to]. */
async function snapshotCount(ctx: CallContext, range: { from: Date; to: Date }): Promise<number> {
  let n = 0;
  for await (const page of blockPages(ctx, range))
    for (const block of page) n += countSnapshots(block.data, range.from.getTime(), range.to.getTime());
  return n;
}

/**
 * Compares the items and the history of [from, to] id by id, unless the numbers of snapshots
 * already agree (the usual case: an index-only count and the blocks' snapshot lists) and `exact`
 * is not asked for (a full snapshot and a lost item in one range would cancel out in the
 * numbers). `orphans` are snapshots whose item write did not happen (a crash between the two
 * writes, writer.ts).
 */
export async function reconcile(
  ctx: CallContext,
  range: { from: Date; to: Date },
  o: { exact?: boolean } = {},
): Promise<Reconciled> {
  const items = await ctx.runtime.resources
    .of(hosts_statistic)
    .count({ timestamp: { $gte: range.from, $lte: range.to } }, systemOf(ctx));
  if (o.exact !== true && items === (await snapshotCount(ctx, range))) return { legacy: [], orphans: [] };
  const heads = await historySnapshots(ctx, range);
  const legacy: LegacyRef[] = [];
  for await (const page of itemPages(ctx, range)) {
    for (const item of page)
      if (!heads.delete(item._id)) legacy.push({ id: item._id, timestamp: item.timestamp });
  }
  return { legacy, orphans: [...heads.values()] };
}

/** The full snapshots of [from, to], in time order (usually none). */
export async function legacyRefs(
  ctx: CallContext,
  range: { from: Date; to: Date },
  o: { exact?: boolean } = {},
): Promise<LegacyRef[]> {
  return (await reconcile(ctx, range, o)).legacy;
}

/** Reads full snapshots a few at a time, their hosts encoded as the history encodes them. */
export async function* legacySnapshots(
  ctx: CallContext,
  refs: readonly LegacyRef[],
): AsyncGenerator<LegacySnapshot> {
  const items = ctx.runtime.resources.of(hosts_statistic);
  const sys = systemOf(ctx);
  for (let i = 0; i < refs.length; i += PER_READ) {
    const ids = refs.slice(i, i + PER_READ).map((r) => r.id);
    const docs = await items.find({ where: { _id: { $in: ids } }, sort: TIME_ORDER }, sys);
    for (const doc of docs)
      yield {
        id: doc._id,
        timestamp: doc.timestamp,
        index: doc.index,
        entries: doc.hosts.map((h) => encodeSummary(h)),
      };
    await breath();
  }
}
