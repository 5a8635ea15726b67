/**
 * A repair's write to the store: applied only while the item still says what the repair read
 * (`unchanged`, judged on the stored item). Other changes do not stop it (the sync writes a
 * host's status every minute): on a lost race the item is read again and, still unchanged in
 * what matters, written with its new version (If-Match). A change that matters is a 409.
 */
import { Conflict, PreconditionFailed, systemContext, type CallContext, type Runtime } from '@fleet/engine';

/** The part of a local API collection a repair writes through. */
export interface Patchable<I> {
  readonly name: string;
  get(id: string, ctx: CallContext, options?: { showDeleted?: boolean }): Promise<I>;
  patch(
    id: string,
    data: never,
    ctx: CallContext,
    options?: { ifMatch?: string; showDeleted?: boolean },
  ): Promise<unknown>;
}

const ATTEMPTS = 5;

/** Patches `item` with `data` as the system principal while `unchanged` holds. */
export async function casPatch<I extends { _id: string; _etag: string }>(
  runtime: Runtime,
  target: { readonly api: Patchable<I>; readonly item: I; readonly data: Record<string, unknown> },
  unchanged: (fresh: I) => boolean,
): Promise<void> {
  const ctx = systemContext(runtime);
  let current = target.item;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (!unchanged(current))
      throw new Conflict(
        `${target.api.name} "${current._id}" changed while it was being repaired; the repair is dropped`,
      );
    try {
      await target.api.patch(current._id, target.data as never, ctx, {
        ifMatch: current._etag,
        showDeleted: true,
      });
      return;
    } catch (err) {
      if (!(err instanceof PreconditionFailed)) throw err;
    }
    current = await target.api.get(current._id, ctx, { showDeleted: true });
  }
  throw new Conflict(
    `${target.api.name} "${current._id}" kept changing while it was being repaired; the repair is dropped`,
  );
}
