/**
 * Live, when `MONGO_URL` is set (any topology): the start on a large collection. 200,000 items
 * written without the soft-delete flag (by hand, or by a version before it) and no indexes: the
 * engine's start returns while the index builds and the backfill run in the background (the old
 * single `updateMany` ran past the 5 s limit and failed the start), the store reports the work, and
 * once it is done every item is visible under the `{flag: false}` scope of every read. Without a
 * server: test/mongo/background.test.ts.
 */
import mongoose from 'mongoose';
import { defineResource } from '../../engine/src/definition/define';
import { type Log } from '../../engine/src/log';
import { f } from '../../engine/src/definition/fields';
import { createEngine, systemContext } from '../../engine/src/engine';
import { createSecretBox } from '../../engine/src/secrets';
import { liveSuite, openThrowaway, throwawayName, withDatabase, MONGO_URL } from './mongo-live';

const ITEMS = 200_000;
const INSERT_BATCH = 10_000;

const machines = defineResource({
  name: 'machines',
  description: 'soft-deleted items with two indexes',
  id: 'natural',
  fields: { status: f.string(), seen: f.datetime() },
  methods: { list: 'viewer' },
  softDelete: { field: '_soft_deleted', param: 'show_soft_deleted' },
  indexes: [{ fields: [['status', 1]] }, { fields: [['seen', -1]] }],
});

const silent: Log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};

liveSuite(
  'the start on 200,000 items without the soft-delete flag',
  'any MongoDB 4.4+; writes 200,000 documents',
  () => {
    const database = throwawayName();

    beforeAll(async () => {
      const client = new mongoose.mongo.MongoClient(withDatabase(MONGO_URL, database));
      try {
        const collection = client.db().collection<{ _id: string; status: string; seen: Date }>('machines');
        const base = Date.UTC(2026, 0, 1);
        for (let i = 0; i < ITEMS; i += INSERT_BATCH) {
          const docs = Array.from({ length: INSERT_BATCH }, (_, k) => ({
            _id: `m${String(i + k).padStart(6, '0')}`,
            status: (i + k) % 3 === 0 ? 'down' : 'up',
            seen: new Date(base + (i + k) * 1000),
          }));
          await collection.insertMany(docs, { ordered: false });
        }
      } finally {
        await client.close();
      }
    }, 300_000);

    test('the start returns while the work runs; afterwards every item is visible, indexes built', async () => {
      const { store, mongo } = await openThrowaway({ database, log: silent });
      try {
        const engine = createEngine({
          definitions: [machines],
          store,
          secrets: createSecretBox('k'),
          log: silent,
        });
        await engine.ensureCollections();
        // The backfill of 200 batches cannot be over yet: the start did not wait for it.
        expect(mongo.status().tasks.find((t) => t.kind === 'backfill')?.state).not.toBe('done');
        await mongo.backgroundSettled();
        expect(mongo.status()).toMatchObject({ state: 'ready' });
        expect(mongo.status().tasks.map((t) => [t.kind, t.state])).toEqual([
          ['index', 'done'],
          ['index', 'done'],
          ['index', 'done'],
          ['backfill', 'done'],
        ]);
        const api = engine.runtime.resources.get('machines');
        const ctx = systemContext(engine.runtime);
        expect(await api.count({}, ctx)).toBe(ITEMS);
        expect(await api.count({ status: 'down' }, ctx)).toBe(Math.ceil(ITEMS / 3));
        expect(await store.count('machines', { _soft_deleted: null })).toBe(0);
      } finally {
        await store.close();
      }
    }, 300_000);
  },
);
