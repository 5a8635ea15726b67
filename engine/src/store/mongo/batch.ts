/**
 * `Store.write` on MongoDB: the writes of a batch as an ordered sequence of single-document
 * operations. A standalone server has no multi-document transactions, so the batch is not atomic
 * there: when a versioned replace or delete finds its document changed, the sequence stops with
 * `PreconditionFailed` and the writes before it stay. The operations order their batches so that
 * this is safe: an item's own new version comes last, after the relation effects it implies
 * (ids pulled from referencing items are harmless to keep when the delete itself then fails).
 */
import type mongoose from 'mongoose';
import { PreconditionFailed } from '../../errors';
import type { BatchWrite, Doc } from '../port';
import { translated } from './errors';

type CollectionOf = (name: string) => Promise<mongoose.mongo.Collection<Doc>>;

/** The filter of a versioned write: the id, and the etag when one is expected. */
export function versionFilter(id: string, ifEtag: string | undefined): Record<string, unknown> {
  return ifEtag === undefined ? { _id: id } : { _id: id, _etag: ifEtag };
}

/** Runs the batch in order; stops at the first write whose document changed. */
export async function writeBatch(collectionOf: CollectionOf, batch: readonly BatchWrite[]): Promise<void> {
  for (const w of batch) {
    const target = await collectionOf(w.collection);
    if (w.op === 'insert') {
      await translated(() => target.insertOne(w.doc));
      continue;
    }
    const id = w.op === 'replace' ? w.doc._id : w.id;
    const filter = versionFilter(id, w.ifEtag);
    const touched =
      w.op === 'replace'
        ? (await translated(() => target.replaceOne(filter, w.doc))).matchedCount
        : (await translated(() => target.deleteOne(filter))).deletedCount;
    if (touched === 0)
      throw new PreconditionFailed(
        `${w.collection} "${id}" was changed or removed by another request; read it again`,
      );
  }
}
