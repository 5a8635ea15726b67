/**
 * `Store.write` and `Store.insert` on MongoDB: the writes of a batch, in order, all or nothing
 * (atomic.ts): in one transaction on a replica set or sharded cluster; on a standalone server as
 * an ordered sequence whose earlier writes are taken back when a later one fails. Consecutive
 * inserts into one collection go as one ordered `insertMany` (a bulk create of 1,000 items is one
 * round trip, not 1,000). A versioned replace or delete whose document changed stops the batch
 * with `PreconditionFailed`; a duplicate key with `Conflict` naming the field.
 */
import type mongoose from 'mongoose';
import type { Log } from '../../log';
import { PreconditionFailed } from '../../errors';
import type { BatchWrite, Doc } from '../port';
import { inTransaction, UndoLog } from './atomic';
import { translateMongoError } from './errors';
import type { ServerInfo } from './server';

type Collection = mongoose.mongo.Collection<Doc>;
type Session = mongoose.mongo.ClientSession;

/** What a batch needs of the store: its collections, its server and client, its log. */
export interface BatchTarget {
  collection(name: string): Promise<Collection>;
  server(): Promise<ServerInfo>;
  client(): Promise<mongoose.mongo.MongoClient>;
  readonly log?: Log | undefined;
}

/** How the writes run: in a transaction's session, or alone noting their undo (standalone). */
type Mode = { readonly session: Session } | { readonly undo: UndoLog; readonly maxTimeMS?: number };

/** A batch step: several inserts into one collection, or one versioned replace or delete. */
type Step =
  | { readonly op: 'insert'; readonly collection: string; readonly docs: Doc[] }
  | Exclude<BatchWrite, { op: 'insert' }>;

/** The filter of a versioned write: the id, and the etag when one is expected. */
export function versionFilter(id: string, ifEtag: string | undefined): Record<string, unknown> {
  return ifEtag === undefined ? { _id: id } : { _id: id, _etag: ifEtag };
}

/** The batch as steps: runs of inserts into one collection merged, everything else as it is. */
export function stepsOf(batch: readonly BatchWrite[]): Step[] {
  const steps: Step[] = [];
  for (const w of batch) {
    const last = steps[steps.length - 1];
    if (w.op !== 'insert') steps.push(w);
    else if (last?.op === 'insert' && last.collection === w.collection) last.docs.push(w.doc);
    else steps.push({ op: 'insert', collection: w.collection, docs: [w.doc] });
  }
  return steps;
}

/**
 * How many documents of an ordered `insertMany` were written before it failed: the index of the
 * first write error, else the driver's inserted count; 0 when neither is known.
 */
export function insertedBeforeFailure(error: unknown): number {
  if (typeof error !== 'object' || error === null) return 0;
  const writeErrors: unknown = 'writeErrors' in error ? error.writeErrors : undefined;
  const first: unknown = Array.isArray(writeErrors) ? writeErrors[0] : undefined;
  if (typeof first === 'object' && first !== null && 'index' in first && typeof first.index === 'number')
    return first.index;
  return 'insertedCount' in error && typeof error.insertedCount === 'number' ? error.insertedCount : 0;
}

const etagOf = (doc: Doc): string | undefined => (typeof doc._etag === 'string' ? doc._etag : undefined);

const changed = (collection: string, id: string): PreconditionFailed =>
  new PreconditionFailed(`${collection} "${id}" was changed or removed by another request; read it again`);

/** Notes how to take back inserted documents: delete each, if it is still the version inserted. */
function noteInserted(target: Collection, docs: readonly Doc[], undo: UndoLog): void {
  for (const doc of docs)
    undo.add(`insert ${target.collectionName} "${doc._id}"`, async () => {
      const { deletedCount } = await target.deleteOne(versionFilter(doc._id, etagOf(doc)));
      return deletedCount > 0;
    });
}

async function insertStep(target: Collection, docs: Doc[], mode: Mode): Promise<void> {
  if ('session' in mode) {
    await target.insertMany(docs, { ordered: true, session: mode.session });
    return;
  }
  try {
    await target.insertMany(docs, {
      ordered: true,
      ...(mode.maxTimeMS ? { maxTimeMS: mode.maxTimeMS } : {}),
    });
  } catch (error) {
    // An ordered insert stops at the first failure: the documents before it were written.
    noteInserted(target, docs.slice(0, insertedBeforeFailure(error)), mode.undo);
    throw error;
  }
  noteInserted(target, docs, mode.undo);
}

/** A versioned replace; standalone, it keeps the version it replaced to put it back. */
async function replaceStep(
  target: Collection,
  doc: Doc,
  ifEtag: string | undefined,
  mode: Mode,
): Promise<void> {
  const filter = versionFilter(doc._id, ifEtag);
  if ('session' in mode) {
    const { matchedCount } = await target.replaceOne(filter, doc, { session: mode.session });
    if (matchedCount === 0) throw changed(target.collectionName, doc._id);
    return;
  }
  const before = await target.findOneAndReplace(filter, doc, {
    returnDocument: 'before',
    includeResultMetadata: false,
  });
  if (before === null) throw changed(target.collectionName, doc._id);
  mode.undo.add(`replace ${target.collectionName} "${doc._id}"`, async () => {
    const { matchedCount } = await target.replaceOne(versionFilter(doc._id, etagOf(doc)), before);
    return matchedCount > 0;
  });
}

/** A versioned delete; standalone, it keeps the deleted document to insert it again. */
async function deleteStep(
  target: Collection,
  id: string,
  ifEtag: string | undefined,
  mode: Mode,
): Promise<void> {
  const filter = versionFilter(id, ifEtag);
  if ('session' in mode) {
    const { deletedCount } = await target.deleteOne(filter, { session: mode.session });
    if (deletedCount === 0) throw changed(target.collectionName, id);
    return;
  }
  const before = await target.findOneAndDelete(filter, { includeResultMetadata: false });
  if (before === null) throw changed(target.collectionName, id);
  mode.undo.add(`delete ${target.collectionName} "${id}"`, async () => {
    await target.insertOne(before);
    return true;
  });
}

async function runSteps(target: BatchTarget, steps: readonly Step[], mode: Mode): Promise<void> {
  for (const step of steps) {
    const collection = await target.collection(step.collection);
    if (step.op === 'insert') await insertStep(collection, step.docs, mode);
    else if (step.op === 'replace') await replaceStep(collection, step.doc, step.ifEtag, mode);
    else await deleteStep(collection, step.id, step.ifEtag, mode);
  }
}

/**
 * Runs the batch all or nothing: in a transaction when the server has them, else in order with
 * the earlier writes taken back on a failure. `maxTimeMS` bounds each standalone write.
 */
export async function writeBatch(
  target: BatchTarget,
  batch: readonly BatchWrite[],
  o: { maxTimeMS?: number } = {},
): Promise<void> {
  if (batch.length === 0) return;
  const steps = stepsOf(batch);
  const server = await target.server();
  if (server.transactions) {
    const client = await target.client();
    await inTransaction(client, (session) => runSteps(target, steps, { session }));
    return;
  }
  const undo = new UndoLog();
  try {
    await runSteps(target, steps, { undo, ...(o.maxTimeMS ? { maxTimeMS: o.maxTimeMS } : {}) });
  } catch (error) {
    await undo.rollback(target.log);
    throw translateMongoError(error);
  }
}
