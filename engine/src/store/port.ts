/**
 * The store port: the one interface every storage adapter implements (embedded SQLite, MongoDB).
 *
 * It speaks MongoDB's dialect (filters, update operators, aggregation pipelines) and knows nothing of
 * HTTP, masking, soft delete or definitions beyond the collection spec handed to `ensureCollection`.
 * Documents carry `_id` as a string; datetime fields are JS `Date` objects on both sides of the port.
 */
import type { Readable } from 'node:stream';

/** A stored document. `_id` is always a string (generated 24-hex or a natural id). */
export type Doc = { _id: string } & Record<string, unknown>;
/** A MongoDB query filter (`{status: "up", _created: {$gt: date}}`). */
export type Filter = Record<string, unknown>;
/** A MongoDB update: operators (`$set`, `$unset`, `$inc`, `$push`, `$pull`, `$addToSet`, `$setOnInsert`). */
export type Update = Record<string, unknown>;
/** Sort keys in order; 1 ascending, -1 descending. */
export type SortSpec = ReadonlyArray<readonly [string, 1 | -1]>;
/** Inclusive (`{a: 1}`) or exclusive (`{a: 0}`) projection; `_id` is always kept. */
export type Projection = Record<string, 0 | 1>;

/** Scalar field types the adapters may push down to an index (SQL column, Mongo index). */
export type ScalarType = 'string' | 'integer' | 'number' | 'boolean' | 'datetime';

/** What an adapter needs to know about one collection, derived from its resource definition. */
export interface CollectionSpec {
  readonly name: string;
  /** Dotted paths of scalar fields outside arrays, with their type: candidates for push-down. */
  readonly scalarPaths: Readonly<Record<string, ScalarType>>;
  /**
   * Scalar paths never stored as null (every write is validated): an adapter may answer `$exists`
   * on them with the path's index. Absent: any path may hold null.
   */
  readonly notNullPaths?: readonly string[];
  /**
   * Lists of scalars outside other lists, with their elements' type: `{path: v}` and `$in` match
   * an element, which an adapter may answer from an index on the path (a multikey index).
   */
  readonly arrayPaths?: Readonly<Record<string, ScalarType>>;
  /** Dotted paths (array elements traversed) whose values are datetimes, revived to `Date` on read. */
  readonly datetimePaths: readonly string[];
  /** Secondary indexes; `unique` ones make duplicate writes fail with `Conflict` naming the field. */
  readonly indexes: readonly IndexSpec[];
}

export interface IndexSpec {
  readonly fields: SortSpec;
  readonly unique?: boolean;
}

export interface FindOptions {
  readonly sort?: SortSpec;
  readonly projection?: Projection;
  readonly skip?: number;
  readonly limit?: number;
}

export interface UpdateOptions {
  /** Update every match (default: the first one only). */
  readonly multi?: boolean;
  /** Insert `{...equalities of filter, ...$set, ...$setOnInsert}` when nothing matches. */
  readonly upsert?: boolean;
}

export interface UpdateResult {
  readonly matched: number;
  readonly modified: number;
  readonly upsertedId?: string;
}

export interface FindOneAndUpdateOptions {
  readonly sort?: SortSpec;
  readonly upsert?: boolean;
  /** Return the document after the update (default) or before it. */
  readonly returnDocument?: 'after' | 'before';
}

/** Metadata of a stored media file. */
export interface MediaInfo {
  readonly id: string;
  readonly filename: string;
  readonly contentType: string;
  readonly length: number;
  readonly uploadedAt: Date;
}

/** Media (file contents) storage: SQLite chunk rows in embedded mode, GridFS in mongo mode. */
export interface MediaStore {
  /** Stores the stream's bytes; resolves once they are durable. */
  put(content: Readable, meta: { filename: string; contentType: string }): Promise<MediaInfo>;
  /** `null` when the id is unknown. */
  open(id: string): Promise<{ info: MediaInfo; stream: Readable } | null>;
  /** Resolves `true` when something was deleted. */
  delete(id: string): Promise<boolean>;
}

/** A time-bounded exclusive right to do some work (the scheduler, the master sync, snapshots). */
export interface Lease {
  readonly name: string;
  readonly holder: string;
  readonly expiresAt: Date;
}

/** Leases: work that must happen once across several API instances on one database. */
export interface LeaseStore {
  /** Takes the lease when it is free, expired, or already ours (which renews it); else `null`. */
  acquire(name: string, holder: string, ttlMs: number): Promise<Lease | null>;
  /** Extends a lease we hold; `null` when it was lost (expired and taken by another holder). */
  renew(name: string, holder: string, ttlMs: number): Promise<Lease | null>;
  /** Gives the lease up if we hold it; resolves `true` when it was ours. */
  release(name: string, holder: string): Promise<boolean>;
  /** The leases among `names` that some holder has now (not expired); asks for nothing. */
  live(names: readonly string[]): Promise<Lease[]>;
}

/** Where a store's background task is. */
export type StoreTaskState = 'pending' | 'running' | 'done' | 'skipped' | 'failed';

/** Work a store does in the background once it serves: building an index, backfilling a field. */
export interface StoreTask {
  /** `index`, `backfill`, ... */
  readonly kind: string;
  /** Which one, in the store's words (`hosts {"status":1,"_updated":-1,"_id":1}`). */
  readonly name: string;
  readonly state: StoreTaskState;
  /** When it entered that state. */
  readonly since: Date;
  /** Why it was skipped or failed, or what it waits for. */
  readonly detail?: string;
}

/**
 * A store's background work, for a readiness report: `ready` when nothing is under way, `working`
 * while tasks run (the store serves, some reads are slower or miss what a backfill has not reached
 * yet), `degraded` when a task failed.
 */
export interface StoreStatus {
  readonly state: 'ready' | 'working' | 'degraded';
  readonly tasks: readonly StoreTask[];
}

/** One write of a {@link Store.write} batch. */
export type BatchWrite =
  | { readonly op: 'insert'; readonly collection: string; readonly doc: Doc }
  /** Replaces the stored document of `doc._id`; with `ifEtag`, only the version carrying that `_etag`. */
  | { readonly op: 'replace'; readonly collection: string; readonly doc: Doc; readonly ifEtag?: string }
  | { readonly op: 'delete'; readonly collection: string; readonly id: string; readonly ifEtag?: string };

/**
 * The store port. Every method takes the collection name first (`write` names it per write). Writes are durable when they
 * resolve. Duplicate keys reject with `Conflict` (engine/src/errors.ts) naming the field;
 * an unreachable database rejects with `ServiceUnavailable`.
 */
export interface Store {
  /**
   * Declares a collection: creates its table/indexes (MongoDB: queues the index builds, see
   * `status`). Idempotent; called once per resource at boot.
   */
  ensureCollection(spec: CollectionSpec): Promise<void>;
  find(collection: string, filter: Filter, options?: FindOptions): Promise<Doc[]>;
  count(collection: string, filter: Filter): Promise<number>;
  /** Inserts all or none. */
  insert(collection: string, docs: readonly Doc[]): Promise<void>;
  /** An update with operators, or a whole replacement document (no `$` keys, `_id` kept). */
  update(collection: string, filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  /** Atomic read-modify-write of one document: claims, counters. */
  findOneAndUpdate(
    collection: string,
    filter: Filter,
    update: Update,
    options?: FindOneAndUpdateOptions,
  ): Promise<Doc | null>;
  /** Deletes every match; resolves the number deleted. */
  delete(collection: string, filter: Filter): Promise<number>;
  /**
   * Whole-document writes, in order, across collections: the operations' one way to write a new
   * version of items (content `_etag`, relation effects). All or none: one transaction on SQLite
   * and on a MongoDB replica set; on a standalone MongoDB an ordered sequence whose earlier writes
   * are taken back when one fails (see mongo/batch.ts). A `replace` or `delete` whose document is
   * gone, or no longer carries `ifEtag`, rejects with `PreconditionFailed` and writes nothing more.
   */
  write(batch: readonly BatchWrite[]): Promise<void>;
  /** Runs a MongoDB aggregation pipeline. */
  aggregate(
    collection: string,
    pipeline: readonly Record<string, unknown>[],
  ): Promise<Record<string, unknown>[]>;
  /**
   * Applies `update` to every document matching `filter`, in the background and in bounded steps
   * (each within the store's time limits); resolves once the work is queued, and `status()`
   * reports it. `filter` must stop matching a document once the update is applied. A store
   * without it does the same with `update(..., {multi: true})`.
   */
  backfill?(collection: string, filter: Filter, update: Update): Promise<void>;
  /** Background work and its state; a store without it does all its work before its calls resolve. */
  status?(): StoreStatus;
  readonly media: MediaStore;
  readonly leases: LeaseStore;
  /** Flushes and closes; further calls reject. */
  close(): Promise<void>;
}
