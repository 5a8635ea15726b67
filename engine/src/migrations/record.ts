/**
 * The store's schema record: one document in the `fleet_schema` collection saying which schema
 * the store is at, which release wrote it, and every migration applied to it. It is the engine's
 * own bookkeeping (like the leases), kept through the store port; no resource and no route
 * reaches it.
 */
import type { CollectionSpec, Store } from '../store/port';

/** The collection of the record; no resource may take its name (the schema step refuses one that does). */
export const SCHEMA_COLLECTION = 'fleet_schema';
const RECORD_ID = 'schema';

/** One migration applied. Times are ISO 8601 text: the record is read the same on every store. */
export interface AppliedMigration {
  readonly version: number;
  readonly name: string;
  readonly release: string;
  readonly at: string;
  readonly ms: number;
  readonly result: string;
}

/** What the record holds. */
export interface SchemaRecord {
  /** The schema the store is at: the number of the last migration applied. */
  readonly version: number;
  /** The release that last changed the record (the newest that opened the store). */
  readonly release: string;
  /**
   * Since when the record is kept, and the schema the store was at then: the newest, for a store
   * this release created; 0 for one written before releases kept a record.
   */
  readonly since: { readonly version: number; readonly release: string; readonly at: string };
  readonly migrations: readonly AppliedMigration[];
}

const SPEC: CollectionSpec = { name: SCHEMA_COLLECTION, scalarPaths: {}, datetimePaths: [], indexes: [] };

function isRecord(doc: Record<string, unknown>): doc is Record<string, unknown> & SchemaRecord {
  const since = doc.since;
  return (
    typeof doc.version === 'number' &&
    Number.isInteger(doc.version) &&
    typeof doc.release === 'string' &&
    typeof since === 'object' &&
    since !== null &&
    Array.isArray(doc.migrations)
  );
}

/** Reads the record; `undefined` when the store has none (new, or written before records were kept). */
export async function readSchemaRecord(store: Store): Promise<SchemaRecord | undefined> {
  await store.ensureCollection(SPEC);
  const [doc] = await store.find(SCHEMA_COLLECTION, { _id: RECORD_ID }, { limit: 1 });
  if (doc === undefined) return undefined;
  if (!isRecord(doc))
    throw new Error(`the store's schema record (${SCHEMA_COLLECTION}) is damaged: restore it from a backup`);
  const { version, release, since, migrations } = doc;
  return { version, release, since, migrations };
}

/**
 * Starts the record: at the newest schema for a store this release creates, at 0 for one it found
 * without a record. Never replaces a record another instance wrote first.
 */
export async function startSchemaRecord(
  store: Store,
  o: { version: number; release: string; now: Date },
): Promise<void> {
  const since = { version: o.version, release: o.release, at: o.now.toISOString() };
  const record = { version: o.version, release: o.release, since, migrations: [] };
  await store.update(SCHEMA_COLLECTION, { _id: RECORD_ID }, { $setOnInsert: record }, { upsert: true });
}

/** Records one migration applied: the version moves on, the migration joins the list. */
export async function recordMigration(store: Store, applied: AppliedMigration): Promise<void> {
  await store.update(
    SCHEMA_COLLECTION,
    { _id: RECORD_ID },
    { $set: { version: applied.version, release: applied.release }, $push: { migrations: applied } },
  );
}

/** The release opening a store at the newest schema says so (the record names the newest release that ran on it). */
export async function recordRelease(store: Store, release: string): Promise<void> {
  await store.update(SCHEMA_COLLECTION, { _id: RECORD_ID }, { $set: { release } });
}
