/**
 * The store contract on MongoDB, whenever `MONGO_URL` names one (a replica set, a standalone or a
 * sharded cluster): `MONGO_URL=mongodb://127.0.0.1:27017/?replicaSet=rs0 npx pnpm@10 test`.
 * Each test gets its own throwaway database (`fleet_contract_<random>`), dropped when it closes.
 * Without `MONGO_URL` the suite is skipped with one printed line saying so.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Log } from '../../engine/src/definition/define';
import { openMongoStore, type MongoStore } from '../../engine/src/store/mongo';
import type { CollectionSpec, Store } from '../../engine/src/store/port';
import { runStoreContract } from './store-contract';

const MONGO_URL = process.env.MONGO_URL;

/** The URL with its database path replaced (hosts, credentials and options kept). */
export function withDatabase(url: string, database: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/.exec(url);
  if (match === null) throw new Error('MONGO_URL must be a mongodb:// or mongodb+srv:// URL');
  return `${match[1] ?? ''}/${database}${match[2] ?? ''}`;
}

/** A store on a fresh database; closing it drops the database first. */
async function openThrowaway(log?: Log): Promise<{ store: Store; mongo: MongoStore }> {
  const database = `fleet_contract_${randomBytes(6).toString('hex')}`;
  const mongo = await openMongoStore({
    url: withDatabase(MONGO_URL ?? '', database),
    serverSelectionTimeoutMS: 10_000,
    ...(log ? { log } : {}),
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
    media: mongo.media,
    leases: mongo.leases,
    close: async () => {
      await mongo.dropDatabase().catch(() => undefined);
      await mongo.close();
    },
  };
  return { store, mongo };
}

if (MONGO_URL === undefined || MONGO_URL === '') {
  process.stdout.write('MongoDB contract suite skipped: MONGO_URL is not set\n');
  describe.skip('store contract: mongo (skipped: MONGO_URL is not set)', () => {
    test('runs against the MongoDB named by MONGO_URL', () => undefined);
  });
} else {
  runStoreContract('mongo', async () => (await openThrowaway()).store, { atomicBatches: false });

  describe('mongo only', () => {
    const warnings: object[] = [];
    const log: Log = {
      info: () => undefined,
      debug: () => undefined,
      error: () => undefined,
      warn: (obj) => warnings.push(obj),
    };
    let store: Store;
    beforeEach(async () => {
      warnings.length = 0;
      ({ store } = await openThrowaway(log));
    });
    afterEach(async () => {
      await store.close();
    });

    test('an index that exists with other options is logged, not fatal', async () => {
      const unique: CollectionSpec = {
        name: 'things',
        scalarPaths: {},
        datetimePaths: [],
        indexes: [{ fields: [['name', 1]], unique: true }],
      };
      await store.ensureCollection(unique);
      await store.ensureCollection({
        ...unique,
        indexes: [{ fields: [['name', 1]] }, { fields: [['kind', 1]] }],
      });
      expect(warnings).toEqual([expect.objectContaining({ collection: 'things', index: { name: 1 } })]);
      // The existing unique index still holds.
      await store.insert('things', [{ _id: 'a', name: 'n' }]);
      await expect(store.insert('things', [{ _id: 'b', name: 'n' }])).rejects.toMatchObject({
        status: 409,
        field: 'name',
      });
    });

    test('media lives in the media bucket with its content type in the metadata', async () => {
      const info = await store.media.put(Readable.from([Buffer.from('hello')]), {
        filename: 'h.txt',
        contentType: 'text/plain',
      });
      expect(info.id).toMatch(/^[0-9a-f]{24}$/);
      const [file] = await store.find('media.files', {});
      expect(file).toMatchObject({ filename: 'h.txt', length: 5, metadata: { contentType: 'text/plain' } });
      expect(await store.count('media.chunks', {})).toBe(1);
    });

    test('a lease is one document in the leases collection', async () => {
      const lease = await store.leases.acquire('scheduler', 'api-1', 60_000);
      expect(await store.find('leases', {})).toEqual([
        { _id: 'scheduler', holder: 'api-1', expires_at: lease?.expiresAt },
      ]);
    });

    test('an unreachable second database fails fast while this one works', async () => {
      const dead = await openMongoStore({ url: 'mongodb://127.0.0.1:1/x', serverSelectionTimeoutMS: 300 });
      await expect(dead.count('x', {})).rejects.toMatchObject({ status: 503 });
      await dead.close();
      expect(await store.count('x', {})).toBe(0);
    });
  });
}
