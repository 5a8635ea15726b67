/**
 * The embedded store: the port's methods over one SQLite file, wired from the pieces beside this
 * file (collections, query, writes, media, leases).
 */
import type { Filter, FindOptions, Store } from '../port';
import type { RowBudgetLimits } from './budget';
import { Collections, type CollectionInfo } from './collections';
import { CountCache } from './count-cache';
import { SqliteDb } from './db';
import { openChecked, withFaults, type StartupCheck } from './faults';
import { sqliteLeases } from './leases';
import { sqliteMedia } from './media';
import { writeBatch } from './batch';
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
import { deleteDocs, findOneAndUpdateDoc, insertDocs, updateDocs } from './writes';

/** The embedded store, plus a debug helper for tests and benchmarks. */
export interface SqliteStore extends Store {
  /**
   * How a find would run: `mode: sql|stream|memory` (all in SQL, SQL order + mingo filter, mingo
   * filter and sort), then SQLite's `EXPLAIN QUERY PLAN` lines for the SQL it sends.
   */
  explain(collection: string, filter: Filter, options?: FindOptions): Promise<string>;
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
}

/**
 * Opens (creating if needed) the SQLite store at `path`; a damaged file is refused here
 * (`StoreOpenError`, faults.ts; how it is checked: `check`). Every method rejects a storage fault as a 503 `StoreFault`.
 */
export function openSqliteStore({ path, rowBudget, check, readOffload }: SqliteStoreOptions): SqliteStore {
  const db = openChecked(path, () => new SqliteDb(path, rowBudget), check);
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
      const via = poolFor(info, () => findIsHeavy(db, info, filter, options));
      if (via === undefined) return findDocs(db, info, filter, options);
      const { texts = [] } = await via.run({ kind: 'find', info, filter, options });
      return texts.map((text) => decodeDoc(text, info.datetimePaths));
    },
    async count(collection, filter) {
      const info = collections.get(collection);
      const via = poolFor(info, () => countIsHeavy(db, info, filter));
      if (via === undefined) return counts.get(collection, filter, () => countDocs(db, info, filter));
      return counts.getAsync(
        collection,
        filter,
        async () => (await via.run({ kind: 'count', info, filter })).n ?? 0,
      );
    },
    async insert(collection, docs) {
      insertDocs(db, collections.get(collection), docs);
    },
    async update(collection, filter, update, options) {
      return updateDocs(db, collections.get(collection), filter, update, options);
    },
    async findOneAndUpdate(collection, filter, update, options) {
      return findOneAndUpdateDoc(db, collections.get(collection), filter, update, options);
    },
    async delete(collection, filter) {
      return deleteDocs(db, collections.get(collection), filter);
    },
    async write(batch) {
      writeBatch(db, collections, batch);
    },
    async aggregate(collection, pipeline) {
      return aggregateDocs(db, collections.get(collection), pipeline);
    },
    media: withFaults(sqliteMedia(db)),
    leases: withFaults(sqliteLeases(db)),
    async close() {
      await pool?.close();
      db.close();
    },
    async explain(collection, filter, options) {
      return explainFind(db, collections.get(collection), filter, options);
    },
  });
}
