/**
 * The embedded store: the port's methods over one SQLite file, wired from the pieces beside this
 * file (collections, query, writes, media, leases). Every write goes through the group commit
 * (group-commit.ts): writes that arrive together share a transaction and an fsync.
 */
import type { Filter, FindOptions, Store } from '../port';
import type { RowBudgetLimits } from './budget';
import { Collections, type CollectionInfo } from './collections';
import { CountCache } from './count-cache';
import { SqliteDb } from './db';
import { openChecked, withFaults, type StartupCheck } from './faults';
import { sqliteLeases } from './leases';
import { sqliteMedia } from './media';
import { encodeBatch, writeBatch } from './batch';
import {
  DEFAULT_GROUP_COMMIT,
  GroupCommit,
  type GroupCommitOptions,
  type GroupCommitStats,
} from './group-commit';
import { decodeDoc } from './json';
import {
  aggregateDocs,
  countDocs,
  countIsHeavy,
  explainFind,
  findDocs,
  findIsHeavy,
  roughRowCount,
} from './query';
import { DEFAULT_READ_OFFLOAD, ReadPool, type ReadOffload } from './read-pool';
import { parseUpdate } from './update-doc';
import { deleteDocs, encodeDocs, findOneAndUpdateDoc, insertDocs, updateDocs } from './writes';

/** The embedded store, plus a debug helper for tests and benchmarks. */
export interface SqliteStore extends Store {
  /**
   * How a find would run: `mode: sql|stream|memory` (all in SQL, SQL order + mingo filter, mingo
   * filter and sort), then SQLite's `EXPLAIN QUERY PLAN` lines for the SQL it sends.
   */
  explain(collection: string, filter: Filter, options?: FindOptions): Promise<string>;
  /** What the group commit has done so far (group-commit.ts): commits, writes, the longest group and lock wait. */
  writeStats(): Promise<GroupCommitStats>;
}

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /** A file path (its directory is created if missing) or `:memory:`. */
  readonly path: string;
  /** The work budget of one read (budget.ts, docs/limits.md); tests lower it to reach it with few rows. */
  readonly rowBudget?: RowBudgetLimits;
  /** How the file is checked as it opens (faults.ts); default `auto`. */
  readonly check?: StartupCheck;
  /** Which reads run on worker threads (read-pool.ts); default {@link DEFAULT_READ_OFFLOAD}; never for `:memory:`. */
  readonly readOffload?: Partial<ReadOffload>;
  /** How writes wait for a write lock another process holds (group-commit.ts); tests shorten it. */
  readonly groupCommit?: Partial<GroupCommitOptions>;
}

/**
 * Opens (creating if needed) the SQLite store at `path`; a damaged file is refused here
 * (`StoreOpenError`, faults.ts; how it is checked: `check`). Every method rejects a storage fault as a 503 `StoreFault`.
 */
export function openSqliteStore(o: SqliteStoreOptions): SqliteStore {
  const { path, rowBudget, check, readOffload } = o;
  const db = openChecked(path, () => new SqliteDb(path, rowBudget), check);
  const group = new GroupCommit(db, { ...DEFAULT_GROUP_COMMIT, ...o.groupCommit });
  const collections = new Collections(db);
  const counts = new CountCache(db);
  const offload = { ...DEFAULT_READ_OFFLOAD, ...readOffload };
  const pool =
    path === ':memory:' || offload.workers === 0 ? undefined : new ReadPool(path, db.budget.limits, offload);
  /** The pool when this read goes to a worker: heavy, on a collection big enough for it to matter. */
  const poolFor = (info: CollectionInfo, heavy: () => boolean): ReadPool | undefined =>
    pool !== undefined && roughRowCount(db, info) >= offload.minRows && heavy() ? pool : undefined;
  return withFaults<SqliteStore>({
    async ensureCollection(spec) {
      const info = collections.ensure(spec);
      // A store opened on a big collection will soon read it: its first read thread loads now.
      if (pool !== undefined && roughRowCount(db, info) >= offload.minRows) pool.warm();
    },
    async find(collection, filter, options = {}) {
      const info = collections.get(collection);
      const queued = group.beforeRead(collection);
      if (queued !== undefined) await queued;
      const via = poolFor(info, () => findIsHeavy(db, info, filter, options));
      if (via === undefined) return findDocs(db, info, filter, options);
      const { texts = [] } = await via.run({ kind: 'find', info, filter, options });
      return texts.map((text) => decodeDoc(text, info.datetimePaths));
    },
    async count(collection, filter) {
      const info = collections.get(collection);
      const queued = group.beforeRead(collection);
      if (queued !== undefined) await queued;
      const via = poolFor(info, () => countIsHeavy(db, info, filter));
      if (via === undefined) return counts.get(collection, filter, () => countDocs(db, info, filter));
      return counts.getAsync(
        collection,
        filter,
        async () => (await via.run({ kind: 'count', info, filter })).n ?? 0,
      );
    },
    async insert(collection, docs) {
      const info = collections.get(collection);
      const encoded = encodeDocs(docs);
      await group.run(() => insertDocs(db, info, encoded), [collection]);
    },
    async update(collection, filter, update, options) {
      const info = collections.get(collection);
      const parsed = parseUpdate(update);
      return group.run(() => updateDocs(db, info, filter, parsed, options), [collection]);
    },
    async findOneAndUpdate(collection, filter, update, options) {
      const info = collections.get(collection);
      const parsed = parseUpdate(update);
      return group.run(() => findOneAndUpdateDoc(db, info, filter, parsed, options), [collection]);
    },
    async delete(collection, filter) {
      const info = collections.get(collection);
      return group.run(() => deleteDocs(db, info, filter), [collection]);
    },
    async write(batch) {
      if (batch.length === 0) return;
      const encoded = encodeBatch(collections, batch);
      await group.run(
        () => writeBatch(db, encoded),
        batch.map((w) => w.collection),
      );
    },
    async aggregate(collection, pipeline) {
      // A pipeline may read other collections ($lookup): every queued write first.
      const queued = group.beforeRead();
      if (queued !== undefined) await queued;
      return aggregateDocs(db, collections.get(collection), pipeline);
    },
    media: withFaults(sqliteMedia(db, group)),
    leases: withFaults(sqliteLeases(db, group)),
    async close() {
      await group.close();
      await pool?.close();
      db.close();
    },
    async explain(collection, filter, options) {
      return explainFind(db, collections.get(collection), filter, options);
    },
    async writeStats() {
      return { ...group.stats };
    },
  });
}
