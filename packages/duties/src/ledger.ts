/**
 * The `duties` items: one per duty, `_id` its lease name, written by the instance holding it (who
 * took it and when, when its runs started and ended). Bookkeeping only: a failed write is logged
 * and the duty goes on.
 */
import { systemContext, type ItemOf, type Runtime, type WriteDataOf } from '@fleet/engine';
import { duties } from '@fleet/resources';
import type { DutyContext } from './table';

/** A duty's item. */
export type DutyRecord = ItemOf<typeof duties>;

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Merges `fields` into the duty's item (creating it). */
export async function noteDuty(
  ctx: DutyContext,
  lease: string,
  fields: WriteDataOf<(typeof duties)['fields']>,
): Promise<void> {
  await ctx.runtime.resources
    .of(duties)
    .upsertMany([{ _id: lease, ...fields }], systemContext(ctx.runtime))
    .catch((err: unknown) => ctx.log.warn({ duty: lease, err: errText(err) }, 'duty bookkeeping failed'));
}

/** The duty's item; null before any instance took it on this store. */
export async function dutyRecord(runtime: Runtime, lease: string): Promise<DutyRecord | null> {
  const [item] = await runtime.resources
    .of(duties)
    .find({ where: { _id: lease }, limit: 1 }, systemContext(runtime));
  return item ?? null;
}
