/**
 * What the live MongoDB tests share: the server named by `MONGO_URL` (a replica set, a standalone
 * or a sharded cluster; the tests say which they need), a throwaway database per store
 * (`fleet_contract_<random>`, dropped when the store closes), and the one printed line that says a
 * suite was skipped because `MONGO_URL` is not set.
 */
import { randomBytes } from 'node:crypto';
import type { Log } from '../../engine/src/log';
import { openMongoStore, type MongoStore, type MongoStoreParts } from '../../engine/src/store/mongo';
import type { Store } from '../../engine/src/store/port';

/** The server of the live tests, if any. */
export const MONGO_URL = process.env.MONGO_URL ?? '';

/** The URL with its database path replaced (hosts, credentials and options kept). */
export function withDatabase(url: string, database: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/.exec(url);
  if (match === null) throw new Error('MONGO_URL must be a mongodb:// or mongodb+srv:// URL');
  return `${match[1] ?? ''}/${database}${match[2] ?? ''}`;
}

/** A fresh database name. */
export function throwawayName(): string {
  return `fleet_contract_${randomBytes(6).toString('hex')}`;
}

/**
 * A store on a fresh database (or `database`); its `close` drops the database first. It waits up
 * to 30 s for each collection's index builds (the service waits 2 s, then builds in the background).
 */
export async function openThrowaway(
  o: { log?: Log; database?: string } & Pick<MongoStoreParts, 'indexWaitMS' | 'maxTimeMS'> = {},
): Promise<{ store: Store; mongo: MongoStore; url: string }> {
  const url = withDatabase(MONGO_URL, o.database ?? throwawayName());
  const mongo = await openMongoStore({
    url,
    serverSelectionTimeoutMS: 10_000,
    ...(o.log ? { log: o.log } : {}),
    // The suites expect declared indexes (unique ones above all) in force once declared.
    indexWaitMS: o.indexWaitMS ?? 30_000,
    ...(o.maxTimeMS === undefined ? {} : { maxTimeMS: o.maxTimeMS }),
  });
  const store: Store = {
    ensureCollection: (spec) => mongo.ensureCollection(spec),
    find: (collection, filter, options) => mongo.find(collection, filter, options),
    count: (collection, filter) => mongo.count(collection, filter),
    insert: (collection, docs) => mongo.insert(collection, docs),
    update: (collection, filter, update, options) => mongo.update(collection, filter, update, options),
    findOneAndUpdate: (collection, filter, update, options) =>
      mongo.findOneAndUpdate(collection, filter, update, options),
    delete: (collection, filter) => mongo.delete(collection, filter),
    write: (batch) => mongo.write(batch),
    aggregate: (collection, pipeline) => mongo.aggregate(collection, pipeline),
    backfill: (collection, filter, update) => mongo.backfill(collection, filter, update),
    status: () => mongo.status(),
    media: mongo.media,
    leases: mongo.leases,
    close: async () => {
      await mongo.dropDatabase().catch(() => undefined);
      await mongo.close();
    },
  };
  return { store, mongo, url };
}

/**
 * Declares a live suite: run when `MONGO_URL` is set, else skipped with one printed line naming the
 * suite and what it needs.
 */
export function liveSuite(name: string, needs: string, body: () => void): void {
  if (MONGO_URL === '') {
    process.stdout.write(`MongoDB ${name} skipped: MONGO_URL is not set (needs ${needs})\n`);
    describe.skip(`${name} (skipped: MONGO_URL is not set)`, () => {
      test(`needs ${needs}`, () => undefined);
    });
    return;
  }
  describe(`${name} (needs ${needs})`, body);
}
