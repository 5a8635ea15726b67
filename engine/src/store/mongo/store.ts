/**
 * The mongo adapter of the store port.
 *
 * It writes through the raw driver collections (`Db.collection(name)`), not through Mongoose
 * models, for three reasons: the port's dialect *is* MongoDB's, so filters, updates and pipelines
 * must reach the server exactly as the API built them (a model would cast values by its schema
 * and apply `strictQuery`); the port returns stored documents as they are, secrets included (the
 * operations need a VPN manager's sealed password; masking is the serializer's job), while a
 * model hides `select: false` paths; and plain objects skip hydration on every read. Each call is
 * first planned by the pure functions of plan.ts, which the no-server tests assert.
 */
import mongoose from 'mongoose';
import type { Log } from '../../definition/define';
import { BadRequest } from '../../errors';
import type {
  BatchWrite,
  CollectionSpec,
  Doc,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  Store,
  Update,
  UpdateOptions,
  UpdateResult,
} from '../port';
import { writeBatch } from './batch';
import type { DbSource } from './connection';
import { translated, translateMongoError } from './errors';
import { MongoLeases } from './leases';
import { GridFsMedia } from './media';
import {
  type IndexPlan,
  planAggregate,
  planCount,
  planFind,
  planFindOneAndUpdate,
  planIndexes,
  planInsert,
  planUpdate,
} from './plan';

type Collection = mongoose.mongo.Collection<Doc>;

/** IndexOptionsConflict, IndexKeySpecsConflict: an index of that name or key exists, differently. */
const INDEX_MISMATCH_CODES: ReadonlySet<number> = new Set([85, 86]);

/** A new string id in ObjectId layout, for upserts that name none. */
const newId = (): string => new mongoose.mongo.ObjectId().toHexString();

function codeOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number'
    ? error.code
    : undefined;
}

/** `skip`/`limit` as the embedded store accepts them: non-negative integers, limit 0 = none. */
function checkPage(options: FindOptions): void {
  for (const key of ['skip', 'limit'] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0))
      throw new BadRequest(`${key} must be a non-negative integer`);
  }
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

/** What a `MongoStore` may be given beside its database. */
export interface MongoStoreParts {
  /** Compiled Mongoose schemas by collection: their indexes are the ones `ensureCollection` creates. */
  readonly schemas?: ReadonlyMap<string, mongoose.Schema>;
  /** Index mismatches and a partial batch that could not be withdrawn are reported here. */
  readonly log?: Log;
  /** Server-side time limit of every query, update and delete; default {@link DEFAULT_MAX_TIME_MS}. */
  readonly maxTimeMS?: number;
}

/**
 * Every query, count, aggregation, update and delete the adapter sends carries `maxTimeMS`: the
 * server stops it there (MaxTimeMSExpired, https://www.mongodb.com/docs/manual/reference/method/cursor.maxTimeMS/)
 * and the client gets a 503 of ours instead of a request that runs for minutes (docs/limits.md).
 */
export const DEFAULT_MAX_TIME_MS = 5000;

/** The store over one MongoDB database. */
export class MongoStore implements Store {
  readonly media: GridFsMedia;
  readonly leases: MongoLeases;
  private readonly schemas: ReadonlyMap<string, mongoose.Schema>;
  private readonly log: Log | undefined;
  private readonly maxTimeMS: number;

  constructor(
    private readonly connector: DbSource,
    parts: MongoStoreParts = {},
  ) {
    this.schemas = parts.schemas ?? new Map();
    this.log = parts.log;
    this.maxTimeMS = parts.maxTimeMS ?? DEFAULT_MAX_TIME_MS;
    this.media = new GridFsMedia(connector);
    this.leases = new MongoLeases(connector);
  }

  /**
   * Creates the collection's indexes, additively: `createIndex` one at a time, never `syncIndexes`,
   * which would drop indexes an operator added or a newer instance (rolling upgrade) needs.
   * An index that exists with other options, or a unique index over duplicate data, is logged and
   * skipped so the API still starts.
   */
  async ensureCollection(spec: CollectionSpec): Promise<void> {
    const collection = await this.collection(spec.name);
    for (const index of this.indexesOf(spec)) {
      try {
        await collection.createIndex(index.key, index.unique === true ? { unique: true } : {});
      } catch (error) {
        const code = codeOf(error);
        if (code === undefined || !(INDEX_MISMATCH_CODES.has(code) || code === 11000))
          throw translateMongoError(error);
        const why =
          code === 11000
            ? 'existing documents violate it'
            : 'an index on these keys exists with other options';
        this.log?.warn(
          { collection: spec.name, index: index.key, code },
          `mongodb index not created: ${why}`,
        );
      }
    }
  }

  async find(collection: string, filter: Filter, options: FindOptions = {}): Promise<Doc[]> {
    checkPage(options);
    const plan = planFind(collection, filter, options);
    const target = await this.collection(collection);
    return translated(() => target.find(plan.filter, this.timed(plan.options)).toArray());
  }

  async count(collection: string, filter: Filter): Promise<number> {
    const plan = planCount(collection, filter);
    const target = await this.collection(collection);
    if (plan.method === 'estimatedDocumentCount')
      return translated(() => target.estimatedDocumentCount(this.timed({})));
    return translated(() => target.countDocuments(plan.filter, this.timed({})));
  }

  /**
   * All or nothing without a transaction: an ordered `insertMany` stops at the first failure and the
   * documents it wrote in this call are deleted again. Transactions would need a replica set, while
   * the adapter must also run on a standalone server; the cost is a short window in which a reader
   * may see part of a batch that is then withdrawn.
   */
  async insert(collection: string, docs: readonly Doc[]): Promise<void> {
    if (docs.length === 0) return;
    const plan = planInsert(collection, docs);
    const target = await this.collection(collection);
    try {
      await target.insertMany(plan.docs, this.timed(plan.options));
    } catch (error) {
      const written = plan.docs.slice(0, insertedBeforeFailure(error)).map((doc) => doc._id);
      if (written.length > 0) {
        await target.deleteMany({ _id: { $in: written } }, this.timed({})).catch((undo: unknown) => {
          this.log?.error(
            { collection, ids: written, err: translateMongoError(undo) },
            'mongodb insert: partial batch not withdrawn',
          );
        });
      }
      throw translateMongoError(error);
    }
  }

  async update(
    collection: string,
    filter: Filter,
    update: Update,
    options: UpdateOptions = {},
  ): Promise<UpdateResult> {
    const plan = planUpdate(collection, filter, update, { ...options, newId });
    const target = await this.collection(collection);
    const result = await translated(() =>
      plan.method === 'replaceOne'
        ? target.replaceOne(plan.filter, plan.update, this.timed(plan.options))
        : target[plan.method](plan.filter, plan.update, this.timed(plan.options)),
    );
    const upserted = result.upsertedId === null ? {} : { upsertedId: String(result.upsertedId) };
    return { matched: result.matchedCount, modified: result.modifiedCount, ...upserted };
  }

  async findOneAndUpdate(
    collection: string,
    filter: Filter,
    update: Update,
    options: FindOneAndUpdateOptions = {},
  ): Promise<Doc | null> {
    const plan = planFindOneAndUpdate(collection, filter, update, { ...options, newId });
    const target = await this.collection(collection);
    return translated(() =>
      plan.method === 'findOneAndReplace'
        ? target.findOneAndReplace(plan.filter, plan.update, this.timed(plan.options))
        : target.findOneAndUpdate(plan.filter, plan.update, this.timed(plan.options)),
    );
  }

  async delete(collection: string, filter: Filter): Promise<number> {
    const target = await this.collection(collection);
    const result = await translated(() => target.deleteMany(filter, this.timed({})));
    return result.deletedCount;
  }

  async write(batch: readonly BatchWrite[]): Promise<void> {
    await writeBatch((name) => this.collection(name), batch);
  }

  async aggregate(
    collection: string,
    pipeline: readonly Record<string, unknown>[],
  ): Promise<Record<string, unknown>[]> {
    const plan = planAggregate(collection, pipeline);
    const target = await this.collection(collection);
    return translated(() =>
      target.aggregate<Record<string, unknown>>(plan.pipeline, this.timed(plan.options)).toArray(),
    );
  }

  async close(): Promise<void> {
    await this.connector.close();
  }

  /**
   * Drops this store's whole database. Not part of the port and never called by the API: it is
   * for throwaway databases (the contract suite gives each test its own) and for tooling.
   */
  async dropDatabase(): Promise<void> {
    const db = await this.connector.db();
    await translated(() => db.dropDatabase());
  }

  /** The compiled schema's indexes when the resource was given at open, else the spec's. */
  private indexesOf(spec: CollectionSpec): IndexPlan[] {
    const schema = this.schemas.get(spec.name);
    return schema === undefined ? planIndexes(spec) : schemaIndexPlans(schema);
  }

  /** The driver options with the server-side time limit added. */
  private timed<O extends object>(options: O): O & { maxTimeMS: number } {
    return { ...options, maxTimeMS: this.maxTimeMS };
  }

  private async collection(name: string): Promise<Collection> {
    return (await this.connector.db()).collection<Doc>(name);
  }
}

/** A compiled schema's declared indexes (`schema.indexes()`) as `createIndex` entries. */
export function schemaIndexPlans(schema: mongoose.Schema): IndexPlan[] {
  return schema.indexes().map(([fields, options]) => ({
    key: Object.fromEntries(
      Object.entries(fields).map(([path, dir]) => [path, dir === -1 ? -1 : 1] as const),
    ),
    ...(options.unique === true ? { unique: true as const } : {}),
  }));
}
