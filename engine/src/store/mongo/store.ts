/**
 * The mongo adapter of the store port.
 *
 * It writes through the raw driver collections (`Db.collection(name)`), not through Mongoose
 * models, for three reasons: the port's dialect *is* MongoDB's, so filters, updates and pipelines
 * must reach the server exactly as the API built them (a model would cast values by its schema
 * and apply `strictQuery`); the port returns stored documents as they are, secrets included (the
 * operations need a VPN manager's sealed password; masking is the serializer's job), while a
 * model hides `select: false` paths; and plain objects skip hydration on every read. Each call is
 * first planned by the pure functions of plan.ts, which the no-server tests assert; its patterns
 * are checked and rewritten for the server's engine (patterns.ts). Multi-document writes are all
 * or nothing (batch.ts, atomic.ts); index builds and backfills run in the background (tasks.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import mongoose from 'mongoose';
import type { Log } from '../../log';
import { BadRequest } from '../../errors';
import type {
  BatchWrite,
  CollectionSpec,
  Doc,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  SortSpec,
  Store,
  StoreStatus,
  Update,
  UpdateOptions,
  UpdateResult,
} from '../port';
import { writeBatch, type BatchTarget } from './batch';
import type { DbSource } from './connection';
import { translated } from './errors';
import { indexStep, indexTaskName } from './indexes';
import { MongoLeases } from './leases';
import { GridFsMedia } from './media';
import { mongoFilter, mongoPipeline } from './patterns';
import { schemaIndexPlans } from './schema';
import {
  type IndexPlan,
  planAggregate,
  planCount,
  planFind,
  planFindOneAndUpdate,
  planIndexes,
  planUpdate,
  uniqueKeys,
} from './plan';
import type { ServerInfo } from './server';
import { BackgroundTasks } from './tasks';

type Collection = mongoose.mongo.Collection<Doc>;

/** A new string id in ObjectId layout, for upserts that name none. */
const newId = (): string => new mongoose.mongo.ObjectId().toHexString();

/** Documents a backfill step updates: one index range read and one `updateMany`, well within `maxTimeMS`. */
export const BACKFILL_BATCH = 1000;

/** `skip`/`limit` as the embedded store accepts them: non-negative integers, limit 0 = none. */
function checkPage(options: FindOptions): void {
  for (const key of ['skip', 'limit'] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0))
      throw new BadRequest(`${key} must be a non-negative integer`);
  }
}

/** What a `MongoStore` may be given beside its database. */
export interface MongoStoreParts {
  /** Compiled Mongoose schemas by collection: their indexes are the ones `ensureCollection` creates. */
  readonly schemas?: ReadonlyMap<string, mongoose.Schema>;
  /** Index mismatches, failed background work and writes a batch could not take back are reported here. */
  readonly log?: Log;
  /** Server-side time limit of every query, update and delete; default {@link DEFAULT_MAX_TIME_MS}. */
  readonly maxTimeMS?: number;
  /** How long `ensureCollection` waits for its index builds; default {@link DEFAULT_INDEX_WAIT_MS}. */
  readonly indexWaitMS?: number;
}

/** `ensureCollection` waits this long for its index builds before leaving them to the background. */
export const DEFAULT_INDEX_WAIT_MS = 2000;

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
  private readonly tasks: BackgroundTasks;
  /** Per collection, the keys of its unique indexes: sorts starting with them need no tie-breaker. */
  private readonly uniques = new Map<string, SortSpec[]>();
  private readonly indexWaitMS: number;
  private indexWaitExpired = false;

  constructor(
    private readonly connector: DbSource,
    parts: MongoStoreParts = {},
  ) {
    this.schemas = parts.schemas ?? new Map();
    this.log = parts.log;
    this.maxTimeMS = parts.maxTimeMS ?? DEFAULT_MAX_TIME_MS;
    this.media = new GridFsMedia(connector);
    this.leases = new MongoLeases(connector);
    this.tasks = new BackgroundTasks(parts.log);
    this.indexWaitMS = parts.indexWaitMS ?? DEFAULT_INDEX_WAIT_MS;
  }

  /**
   * Checks the server (reachable, a version the driver speaks) and queues the collection's index
   * builds (indexes.ts); waits for them at most `indexWaitMS` (once): what is not built by then
   * goes on in the background, and `status()` reports it.
   */
  async ensureCollection(spec: CollectionSpec): Promise<void> {
    await this.connector.server();
    this.uniques.set(spec.name, uniqueKeys(spec));
    const builds = this.indexesOf(spec).map((plan) =>
      this.tasks.run(
        'index',
        indexTaskName(spec.name, plan),
        indexStep(() => this.collection(spec.name), plan, this.log),
      ),
    );
    // A build of a small or new collection takes milliseconds: waiting for it keeps the unique
    // indexes in force from the first request. Once one wait ran out, the queue is busy (a large
    // build, a secondary down): later collections do not wait again.
    if (this.indexWaitExpired || builds.length === 0) return;
    const timer = new AbortController();
    const built = await Promise.race([
      Promise.all(builds).then(() => true),
      sleep(this.indexWaitMS, false, { signal: timer.signal, ref: false }).catch(() => true),
    ]);
    timer.abort();
    if (!built) this.indexWaitExpired = true;
  }

  /** Queues a backfill: `update` on {@link BACKFILL_BATCH} matches at a time, until none is left. */
  async backfill(collection: string, filter: Filter, update: Update): Promise<void> {
    await this.connector.server();
    void this.tasks.run('backfill', `${collection} ${JSON.stringify(filter)}`, async () => {
      const target = await this.collection(collection);
      const page = await translated(() =>
        target.find(filter, this.timed({ projection: { _id: 1 }, limit: BACKFILL_BATCH })).toArray(),
      );
      if (page.length === 0) return 'done';
      const ids = page.map((doc) => doc._id);
      await translated(() =>
        target.updateMany({ $and: [filter, { _id: { $in: ids } }] }, update, this.timed({})),
      );
      return page.length < BACKFILL_BATCH ? 'done' : 'again';
    });
  }

  /** The background work (index builds, backfills) and its state. */
  status(): StoreStatus {
    return this.tasks.status();
  }

  /** Resolves once every queued index build and backfill has settled (tests and tooling). */
  async backgroundSettled(): Promise<void> {
    await this.tasks.settled();
  }

  /** The server's version and topology (server.ts). */
  async server(): Promise<ServerInfo> {
    return this.connector.server();
  }

  async find(collection: string, filter: Filter, options: FindOptions = {}): Promise<Doc[]> {
    checkPage(options);
    const plan = planFind(collection, mongoFilter(filter), options, this.uniques.get(collection));
    const target = await this.collection(collection);
    return translated(() => target.find(plan.filter, this.timed(plan.options)).toArray());
  }

  async count(collection: string, filter: Filter): Promise<number> {
    const plan = planCount(collection, mongoFilter(filter));
    const target = await this.collection(collection);
    if (plan.method === 'estimatedDocumentCount')
      return translated(() => target.estimatedDocumentCount(this.timed({})));
    return translated(() => target.countDocuments(plan.filter, this.timed({})));
  }

  /** All or nothing (batch.ts): one transaction on a replica set, taken back on a standalone server. */
  async insert(collection: string, docs: readonly Doc[]): Promise<void> {
    await writeBatch(
      this.batchTarget(),
      docs.map((doc) => ({ op: 'insert', collection, doc })),
      { maxTimeMS: this.maxTimeMS },
    );
  }

  async update(
    collection: string,
    filter: Filter,
    update: Update,
    options: UpdateOptions = {},
  ): Promise<UpdateResult> {
    const plan = planUpdate(collection, mongoFilter(filter), update, { ...options, newId });
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
    const uniques = this.uniques.get(collection);
    const plan = planFindOneAndUpdate(
      collection,
      mongoFilter(filter),
      update,
      { ...options, newId },
      uniques,
    );
    const target = await this.collection(collection);
    return translated(() =>
      plan.method === 'findOneAndReplace'
        ? target.findOneAndReplace(plan.filter, plan.update, this.timed(plan.options))
        : target.findOneAndUpdate(plan.filter, plan.update, this.timed(plan.options)),
    );
  }

  async delete(collection: string, filter: Filter): Promise<number> {
    const target = await this.collection(collection);
    const checked = mongoFilter(filter);
    const result = await translated(() => target.deleteMany(checked, this.timed({})));
    return result.deletedCount;
  }

  async write(batch: readonly BatchWrite[]): Promise<void> {
    await writeBatch(this.batchTarget(), batch);
  }

  async aggregate(
    collection: string,
    pipeline: readonly Record<string, unknown>[],
  ): Promise<Record<string, unknown>[]> {
    const plan = planAggregate(collection, mongoPipeline(pipeline));
    const target = await this.collection(collection);
    return translated(() =>
      target.aggregate<Record<string, unknown>>(plan.pipeline, this.timed(plan.options)).toArray(),
    );
  }

  async close(): Promise<void> {
    this.tasks.close();
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

  private batchTarget(): BatchTarget {
    return {
      collection: (name) => this.collection(name),
      server: () => this.connector.server(),
      client: async () => (await this.connector.db()).client,
      log: this.log,
    };
  }

  private async collection(name: string): Promise<Collection> {
    return (await this.connector.db()).collection<Doc>(name);
  }
}
