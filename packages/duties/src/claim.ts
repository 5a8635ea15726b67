/**
 * Claiming a due item among several instances: the earliest match is read, then written with
 * `If-Match` on the version read; the write moves it out of the due set (a scheduled task's
 * `next`, a followed job's or a monitored host's next poll). Of several instances racing for one
 * item exactly one write succeeds; the others get 412 and look again. What a claim leaves behind
 * when its instance dies (a poll time pushed a little into the future) is picked up by another
 * instance once it comes due again, so nothing is followed twice at once and nothing is dropped.
 */
import {
  PreconditionFailed,
  type AnyItem,
  type AnyWriteData,
  type CallContext,
  type Collection,
  type Filter,
  type SortSpec,
} from '@fleet/engine';

/** How many times a claim reads again after losing a race, per call. */
const CLAIM_ATTEMPTS = 5;

/** What to claim: the due set, its order and the write that takes an item out of it. */
export interface ClaimSpec<I extends AnyItem, W extends AnyWriteData> {
  readonly where: Filter;
  readonly sort: SortSpec;
  /** The fields the claim writes: they must take the item out of `where`. */
  readonly update: (item: I) => W;
}

/**
 * Claims the earliest due item of `api`, or resolves null when none is due (or every attempt lost
 * its race). Resolves the item as written by the claim.
 */
export async function claimDue<I extends AnyItem, W extends AnyWriteData>(
  api: Collection<I, W>,
  spec: ClaimSpec<I, W>,
  ctx: CallContext,
): Promise<I | null> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const [due] = await api.find({ where: spec.where, sort: spec.sort, limit: 1 }, ctx);
    if (due === undefined) return null;
    try {
      return await api.patch(due._id, spec.update(due), ctx, { ifMatch: due._etag });
    } catch (err) {
      // Another instance (or a request) changed it first: look again.
      if (!(err instanceof PreconditionFailed)) throw err;
    }
  }
  return null;
}
