/**
 * Deletes: a soft-delete resource hides the item (a new version with the flag set); any other
 * deletes it, with the relation rules of the items referring to it applied in the same batch
 * (pull / nullify) or refusing it (restrict, 409) before `beforeDelete` runs, and its media
 * removed afterwards.
 */
import type { CallContext } from '../definition/local-api';
import type { AnyItem } from '../definition/infer';
import type { WriteOptions } from '../definition/local-api';
import { PreconditionFailed } from '../errors';
import type { BatchWrite, Doc, Filter } from '../store/port';
import { authorize } from './access';
import type { OpsScope } from './context';
import { etagMatches, etagOf } from './etag';
import { inItemTurn } from './item-lines';
import { getStored } from './read';
import { deleteEffects } from './relations';
import { scoped } from './scope';
import { lastWriteWins } from './write';

/** The batch deleting (or hiding) `docs`, relation effects first. */
async function deletion(s: OpsScope, docs: readonly Doc[], now: Date): Promise<BatchWrite[]> {
  const sd = s.res.softDelete;
  if (sd) {
    return docs.map((doc) => {
      const next: Doc = { ...doc, [sd.field]: true, _updated: now };
      next._etag = etagOf(next);
      return { op: 'replace', collection: s.res.name, doc: next, ifEtag: String(doc._etag) };
    });
  }
  const effects = await deleteEffects(s, s.res, new Set(docs.map((d) => d._id)), now);
  return [
    ...effects,
    ...docs.map((doc): BatchWrite => ({
      op: 'delete',
      collection: s.res.name,
      id: doc._id,
      ifEtag: String(doc._etag),
    })),
  ];
}

async function removeMedia(s: OpsScope, docs: readonly Doc[]): Promise<void> {
  if (s.res.softDelete) return;
  for (const doc of docs)
    for (const field of s.res.mediaFields)
      if (typeof doc[field] === 'string') await s.store.media.delete(doc[field]);
}

async function runHooks(
  s: OpsScope,
  which: 'beforeDelete' | 'afterDelete',
  docs: readonly Doc[],
  ctx: CallContext,
): Promise<void> {
  const hooks = s.res.def.hooks;
  if (hooks?.[which]) for (const doc of docs) await hooks[which]({ doc: doc as AnyItem, ctx });
}

/** `delete` of one item. */
export async function deleteItem(
  s: OpsScope,
  id: string,
  ctx: CallContext,
  o: Pick<WriteOptions, 'ifMatch'> = {},
): Promise<void> {
  authorize(s.res, 'delete', ctx.principal);
  const attempt = async (): Promise<Doc> => {
    const found = await getStored(s, id);
    if (o.ifMatch !== undefined && !etagMatches(o.ifMatch, String(found._etag)))
      throw new PreconditionFailed();
    // The relations decide first (a restrict is a 409 before any hook acts on a peer).
    const batch = await deletion(s, [found], ctx.now);
    await runHooks(s, 'beforeDelete', [found], ctx);
    await s.store.write(batch);
    return found;
  };
  const doc = await inItemTurn(s, id, () => lastWriteWins(o.ifMatch, attempt));
  await removeMedia(s, [doc]);
  await runHooks(s, 'afterDelete', [doc], ctx);
}

/** `deleteMany`: every visible match in one batch; resolves how many. */
export async function deleteItems(s: OpsScope, where: Filter, ctx: CallContext): Promise<number> {
  authorize(s.res, 'deleteMany', ctx.principal);
  const docs = await lastWriteWins(undefined, async () => {
    const found = await s.store.find(s.res.name, scoped(s.res, where));
    const batch = await deletion(s, found, ctx.now);
    await runHooks(s, 'beforeDelete', found, ctx);
    await s.store.write(batch);
    return found;
  });
  await removeMedia(s, docs);
  await runHooks(s, 'afterDelete', docs, ctx);
  return docs.length;
}
