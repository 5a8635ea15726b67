/**
 * Meta fields and batched writes: every seeded document gets `_created`, `_updated` and the
 * engine's own `_etag`, and goes to the store in batches so a million documents never sit in
 * memory at once.
 */
import type { Doc, Store } from '@fleet/engine';
import { etagOf } from '@fleet/engine';

/** Documents per `store.insert`: one transaction (one fsync) each. */
export const DEFAULT_BATCH = 5000;

/** Adds `_created`, `_updated` and `_etag` as the engine's create does (etag over the rest). */
export function stamped(fields: { _id: string } & Record<string, unknown>, created: Date, updated: Date = created): Doc {
  const doc: Doc = { ...fields, _created: created, _updated: updated };
  doc._etag = etagOf(doc);
  return doc;
}

/** How {@link insertAll} batches. */
export interface BatchOptions {
  /** Documents per insert (default {@link DEFAULT_BATCH}). */
  readonly size?: number;
  /**
   * Order of the documents inside each insert. It changes nothing stored, only the order the
   * B-trees are walked: sorting a batch of actions by host turns the random inserts into the
   * (host, _created) index into one sequential sweep, a third less seeding time on a million.
   */
  readonly order?: (a: Doc, b: Doc) => number;
}

/** Inserts the documents of `source` in batches; resolves how many were written. */
export async function insertAll(store: Store, collection: string, source: Iterable<Doc>, options: BatchOptions = {}): Promise<number> {
  const size = options.size ?? DEFAULT_BATCH;
  let pending: Doc[] = [];
  let written = 0;
  const flush = async () => {
    if (options.order) pending.sort(options.order);
    await store.insert(collection, pending);
    written += pending.length;
    pending = [];
  };
  for (const doc of source) {
    pending.push(doc);
    if (pending.length >= size) await flush();
  }
  if (pending.length > 0) await flush();
  return written;
}

/** `YYYY-MM-DD HH:MM:SS+00:00`: the format of the tool grain's timestamps (spec: hosts grain). */
export function toolTimestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}+00:00`;
}

/** Id families of {@link seededObjectId}: each kind of document counts on its own. */
export const ID_KIND = { group: 1, alert: 2, task: 3, snapshot: 4, vpnManager: 5, vpnOrganization: 6, update: 7 } as const;

/** A 24-hex id shaped like a MongoDB ObjectId, stable for a given seed, kind and counter. */
export function seededObjectId(seed: number, kind: number, counter: number): string {
  // Fixed timestamp part (2023-09-12): ids must not change with the clock.
  const middle = `${kind.toString(16).padStart(2, '0')}${(seed >>> 0).toString(16).padStart(8, '0')}`;
  return `65000000${middle}${counter.toString(16).padStart(6, '0')}`;
}
