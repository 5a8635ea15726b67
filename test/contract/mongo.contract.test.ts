/**
 * The store contract on MongoDB, whenever `MONGO_URL` names one (a replica set, a standalone or a
 * sharded cluster): `MONGO_URL=mongodb://127.0.0.1:27017/?replicaSet=rs0 npx pnpm@10 test`.
 * Each test gets its own throwaway database (`fleet_contract_<random>`), dropped when it closes.
 * Without `MONGO_URL` the suite is skipped with one printed line saying so.
 */
import { Readable } from 'node:stream';
import type { Log } from '../../engine/src/log';
import { openMongoStore, type MongoStore } from '../../engine/src/store/mongo';
import type { CollectionSpec, Store } from '../../engine/src/store/port';
import { MONGO_URL, openThrowaway } from './mongo-live';
import { runStoreContract } from './store-contract';

if (MONGO_URL === '') {
  process.stdout.write('MongoDB contract suite skipped: MONGO_URL is not set\n');
  describe.skip('store contract: mongo (skipped: MONGO_URL is not set)', () => {
    test('runs against the MongoDB named by MONGO_URL', () => undefined);
  });
} else {
  // All or nothing on both topologies (a transaction, or the undo log); patterns are bounded (PCRE).
  runStoreContract('mongo', async () => (await openThrowaway()).store, {
    atomicBatches: true,
    boundedPatterns: true,
  });

  describe('mongo only', () => {
    const warnings: object[] = [];
    const log: Log = {
      info: () => undefined,
      debug: () => undefined,
      error: () => undefined,
      warn: (obj) => warnings.push(obj),
    };
    let store: Store;
    let mongo: MongoStore;
    beforeEach(async () => {
      warnings.length = 0;
      ({ store, mongo } = await openThrowaway({ log }));
    });
    afterEach(async () => {
      await store.close();
    });

    test('an index that exists with other options is logged and skipped, not fatal', async () => {
      // The same keys as the declaration will have (`_id` appended), but unique.
      const unique: CollectionSpec = {
        name: 'things',
        scalarPaths: {},
        datetimePaths: [],
        indexes: [
          {
            fields: [
              ['name', 1],
              ['_id', 1],
            ],
            unique: true,
          },
        ],
      };
      await store.ensureCollection(unique);
      await store.ensureCollection({
        ...unique,
        indexes: [{ fields: [['name', 1]] }, { fields: [['kind', 1]] }],
      });
      await mongo.backgroundSettled();
      expect(warnings).toEqual([
        expect.objectContaining({ collection: 'things', index: { name: 1, _id: 1 } }),
      ]);
      expect(store.status?.()).toMatchObject({
        state: 'ready',
        tasks: [{ state: 'done' }, { state: 'skipped' }, { state: 'done' }],
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
