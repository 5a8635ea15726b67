/**
 * Retention and repair of the snapshots. Items older than the retention are deleted; history
 * blocks are deleted once they end before the block holding the retention's start, which is kept
 * whole (so at most a day of history outlives its items, and nothing is ever rewritten). A snapshot whose item write never happened (a crash
 * between the two writes) gets its item back.
 */
import type { CallContext, Projection } from '@fleet/engine';
import { hosts_statistic } from '../hosts_statistic';
import { blockAtOrBefore, breath, systemOf } from './chain';
import { reconcile } from './legacy';

/** Rows deleted per batch: bounded memory (an old full snapshot is megabytes). */
const DELETE_BATCH = { hosts_statistic: 20, hosts_history: 50 } as const;

/** Deletes the rows of `name` older than `before`, a batch at a time; resolves how many. */
async function deleteOlder(ctx: CallContext, name: keyof typeof DELETE_BATCH, before: Date): Promise<number> {
  const collection = ctx.runtime.resources.get(name);
  const sys = systemOf(ctx);
  // Ids only: a full snapshot's host list, a column of a busy block are megabytes.
  const projection: Projection = name === 'hosts_statistic' ? { hosts: 0 } : { data: 0 };
  let deleted = 0;
  for (;;) {
    const ids = (
      await collection.find(
        {
          where: { timestamp: { $lt: before } },
          sort: [['timestamp', 1]],
          limit: DELETE_BATCH[name],
          projection,
        },
        sys,
      )
    ).map((d) => d._id);
    if (ids.length === 0) return deleted;
    deleted += await collection.deleteMany({ _id: { $in: ids } }, sys);
    await breath();
  }
}

/** Deletes the snapshots older than `before`; resolves how many items went. */
export async function pruneSnapshots(ctx: CallContext, before: Date): Promise<number> {
  // Items first: a crash in between leaves history rows the next prune deletes, never items
  // without their history.
  const items = await deleteOlder(ctx, 'hosts_statistic', before);
  // History: the blocks that end before the one holding `before` (kept whole, with its keyframe).
  const holding = await blockAtOrBefore(ctx, before);
  if (holding !== undefined) await deleteOlder(ctx, 'hosts_history', holding.timestamp);
  return items;
}

/** Gives the snapshots from `since` on whose item is missing their item; resolves how many. */
export async function repairItems(
  ctx: CallContext,
  range: { from: Date; to: Date },
  o: { exact?: boolean } = {},
): Promise<number> {
  const { orphans } = await reconcile(ctx, range, o);
  const items = ctx.runtime.resources.of(hosts_statistic);
  const sys = systemOf(ctx);
  for (const head of orphans)
    await items.create({ _id: head.id, timestamp: head.timestamp, index: head.index, hosts: [] }, sys);
  return orphans.length;
}
