/**
 * Batched writes through the local API: every seeded item is created by the engine as the system
 * principal (validated, defaults applied, references checked, content `_etag` computed), with its
 * own `_created` / `_updated` (an import keeps its history), in batches so a million items never
 * sit in memory at once.
 */
import { systemContext, type Doc, type Runtime } from '@fleet/engine';

/** Items per `createMany`: one store transaction (one fsync) each. */
export const DEFAULT_BATCH = 5000;

/** The item with when it came to be and when it last changed (kept by the system import). */
export function stamped<F extends { _id: string }>(
  fields: F,
  created: Date,
  updated: Date = created,
): F & { _created: Date; _updated: Date } {
  return { ...fields, _created: created, _updated: updated };
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
  /** Told after each insert how many items it wrote (the seed's progress). */
  readonly onWritten?: (items: number) => void;
}

/** Creates the items of `source` in batches; resolves how many were written. */
export async function createAll(
  runtime: Runtime,
  collection: string,
  source: Iterable<Doc>,
  options: BatchOptions = {},
): Promise<number> {
  const size = options.size ?? DEFAULT_BATCH;
  const api = runtime.resources.get(collection);
  const ctx = systemContext(runtime);
  let pending: Doc[] = [];
  let written = 0;
  const flush = async () => {
    if (options.order) pending.sort(options.order);
    await api.createMany(pending, ctx);
    written += pending.length;
    options.onWritten?.(pending.length);
    pending = [];
  };
  for (const doc of source) {
    pending.push(doc);
    if (pending.length >= size) await flush();
  }
  if (pending.length > 0) await flush();
  return written;
}

/** Id families of {@link seededObjectId}: each kind of document counts on its own. */
export const ID_KIND = {
  group: 1,
  alert: 2,
  task: 3,
  snapshot: 4,
  vpnManager: 5,
  vpnOrganization: 6,
  update: 7,
} as const;

/** A 24-hex id shaped like a MongoDB ObjectId, stable for a given seed, kind and counter. */
export function seededObjectId(seed: number, kind: number, counter: number): string {
  // Fixed timestamp part (2023-09-12): ids must not change with the clock.
  const middle = `${kind.toString(16).padStart(2, '0')}${(seed >>> 0).toString(16).padStart(8, '0')}`;
  return `65000000${middle}${counter.toString(16).padStart(6, '0')}`;
}
