/**
 * The MongoDB store: selected by `DATABASE_URL=mongodb://...` or `mongodb+srv://...`.
 * Several stateless API instances may share one database; leases make the once-only work
 * (scheduler, master sync, snapshots) run on one of them at a time.
 */
import mongoose from 'mongoose';
import type { CompiledResource } from '../../compile/compile';
import type { Log } from '../../log';
import { MongoConnector } from './connection';
import { redact } from './errors';
import { compileMongooseSchema } from './schema';
import { MongoStore } from './store';

export { compileMongooseSchema, schemaIndexPlans } from './schema';
export { SORT_MEMORY_MESSAGE, TIME_LIMIT_MESSAGE, TOO_LARGE_MESSAGE, translateMongoError } from './errors';
export { hasLabel, inTransaction, TRANSACTION_RETRY_MS, UndoLog } from './atomic';
export { insertedBeforeFailure, stepsOf, versionFilter, writeBatch, type BatchTarget } from './batch';
export { indexStep, indexTaskName } from './indexes';
export { MAX_OPEN_REPEATS, mongoFilter, mongoPipeline, openRepeats, pcreSource } from './patterns';
export {
  describeWireVersion,
  MAX_WIRE_VERSION,
  MIN_WIRE_VERSION,
  serverInfoOf,
  SUPPORTED_VERSIONS,
  UnsupportedServer,
  unsupportedServer,
  type ServerInfo,
  type Topology,
} from './server';
export { BackgroundTasks, type TaskStep } from './tasks';
export { MEDIA_BUCKET } from './media';
export { LEASES_COLLECTION, planAcquire, planRenew } from './leases';
export {
  BACKFILL_BATCH,
  DEFAULT_MAX_TIME_MS,
  DEFAULT_INDEX_WAIT_MS,
  MongoStore,
  type MongoStoreParts,
} from './store';
export type { DbSource } from './connection';
export * from './plan';

/** How to reach the database; the timeouts bound every call (503 instead of a hang). */
export interface MongoStoreOptions {
  /** `mongodb://...` or `mongodb+srv://...`; the database is the URL's path (default `test`). */
  readonly url: string;
  /** Connection events and index mismatches are reported here. */
  readonly log?: Log;
  /** How long a call waits for a usable server; default 5000. */
  readonly serverSelectionTimeoutMS?: number;
  /** How long an operation's socket may stay silent; default 30000 (an aggregation may take a while). */
  readonly socketTimeoutMS?: number;
  /** Server-side time limit sent with every query (`maxTimeMS`); default 5000. */
  readonly maxTimeMS?: number;
  /** Compiled resources: their Mongoose schemas are compiled at open and declare the indexes. */
  readonly resources?: readonly CompiledResource[];
  /** How long `ensureCollection` waits for its index builds before leaving them to the background; default 2000. */
  readonly indexWaitMS?: number;
}

/** Default bound on waiting for a usable server. */
export const DEFAULT_SERVER_SELECTION_TIMEOUT_MS = 5000;
/** Default bound on a silent socket during an operation. */
export const DEFAULT_SOCKET_TIMEOUT_MS = 30000;

/** Checks the URL's syntax now (no network), so a bad `DATABASE_URL` stops the server at start. */
function checkUrl(url: string): void {
  if (!/^mongodb(\+srv)?:\/\//.test(url))
    throw new Error('DATABASE_URL: a MongoDB URL starts with mongodb:// or mongodb+srv://');
  try {
    // Constructing a client parses and validates the connection string without connecting.
    void new mongoose.mongo.MongoClient(url);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`DATABASE_URL: ${redact(message)}`);
  }
}

/**
 * Opens the MongoDB store on its own Mongoose connection. Resolves at once: connecting happens in
 * the background, and a call made while the database is unreachable rejects with
 * `ServiceUnavailable` after `serverSelectionTimeoutMS`.
 */
export async function openMongoStore(options: MongoStoreOptions): Promise<MongoStore> {
  checkUrl(options.url);
  const schemas = new Map(
    (options.resources ?? []).map((res) => [res.name, compileMongooseSchema(res)] as const),
  );
  const connector = new MongoConnector({
    url: options.url,
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? DEFAULT_SERVER_SELECTION_TIMEOUT_MS,
    socketTimeoutMS: options.socketTimeoutMS ?? DEFAULT_SOCKET_TIMEOUT_MS,
    ...(options.log ? { log: options.log } : {}),
  });
  return new MongoStore(connector, {
    schemas,
    ...(options.maxTimeMS === undefined ? {} : { maxTimeMS: options.maxTimeMS }),
    ...(options.indexWaitMS === undefined ? {} : { indexWaitMS: options.indexWaitMS }),
    ...(options.log ? { log: options.log } : {}),
  });
}
export { openEveSource, type EveFile, type EveSource } from './eve/source';
export { fromEve, UnimportableValue } from './eve/values';
export type { RawDoc } from './eve/records';
