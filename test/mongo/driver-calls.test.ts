/**
 * No server: the exact driver calls the mongo adapter makes. API queries go through the real
 * query parser and resource operations into a `MongoStore` whose database is a recording fake,
 * so what reaches "the driver" here is what would reach MongoDB.
 */
import { compileResource } from '../../engine/src/compile/compile';
import { createRegistry } from '../../engine/src/compile/registry';
import { defineResource } from '../../engine/src/definition/define';
import { type Runtime } from '../../engine/src/definition/local-api';
import { type Log } from '../../engine/src/log';
import { f } from '../../engine/src/definition/fields';
import { BadRequest, Conflict } from '../../engine/src/errors';
import { SYSTEM } from '../../engine/src/engine';
import { createLocalApi } from '../../engine/src/ops/collection';
import { createSecretBox } from '../../engine/src/secrets';
import { parseListParams } from '../../engine/src/query/params';
import { compileMongooseSchema, DEFAULT_MAX_TIME_MS, MongoStore } from '../../engine/src/store/mongo';
import type { Store } from '../../engine/src/store/port';
import { recordingDb, type Call } from './helpers/recording-db';

const hosts = compileResource(
  defineResource({
    name: 'hosts',
    description: 'synthetic hosts',
    id: 'natural',
    fields: {
      name: f.string({ required: true, unique: true }),
      status: f.string({ enum: ['up', 'down'] }),
      grain: f.object({}, { open: true, hiddenInList: true }),
      groups: f.array(f.ref('groups')),
      last_seen: f.datetime(),
    },
    methods: { list: 'viewer', get: 'viewer' },
    softDelete: { field: '_deleted', param: 'show_soft_deleted' },
    indexes: [
      {
        fields: [
          ['status', 1],
          ['_updated', -1],
        ],
      },
    ],
  }),
);

const silent: Log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};

/** `GET /api/hosts?<query>` as the API runs it: parse, scope, list. */
async function listCalls(query: Record<string, string>): Promise<Call[]> {
  const { source, calls } = recordingDb();
  const store: Store = new MongoStore(source);
  const params = parseListParams(hosts, query, { defaultMaxResults: 25, paginationLimit: 1000 });
  const groups = defineResource({
    name: 'groups',
    description: 'referenced by hosts',
    fields: {},
    methods: {},
  });
  const runtime: Runtime = {
    resources: createLocalApi({
      registry: createRegistry([hosts.def, groups]),
      store,
      secrets: createSecretBox('k'),
    }),
    media: store.media,
    leases: store.leases,
    log: silent,
    services: {},
    config: {},
  };
  const args = {
    ...(params.where ? { where: params.where } : {}),
    ...(params.sort ? { sort: params.sort } : {}),
    ...(params.projection ? { projection: params.projection } : {}),
  };
  await runtime.resources
    .get('hosts')
    .list(
      { ...args, page: params.page, maxResults: params.maxResults },
      { principal: SYSTEM, now: new Date(), runtime },
    );
  return calls;
}

const live = { _deleted: false };
/** List-hidden fields are left out of list queries unless projected (what GET sends, not only what it renders). */
const HIDDEN = { grain: 0 };

/** Every query carries the server-side time limit (docs/limits.md). */
const timed = (options: unknown): unknown => ({ ...(options as object), maxTimeMS: DEFAULT_MAX_TIME_MS });
/** Finds also let a sort no index serves spill to disk rather than fail at 100 MB (4.4, 5.0). */
const findOptions = (options: unknown): unknown => timed({ ...(options as object), allowDiskUse: true });

describe('API list queries reach the driver as built', () => {
  const table: { name: string; query: Record<string, string>; filter: unknown; options: unknown }[] = [
    {
      name: 'no parameters',
      query: {},
      filter: live,
      options: { sort: [['_id', 1]], projection: HIDDEN, limit: 25 },
    },
    {
      name: 'where, sort, page',
      query: { where: '{"status":"up"}', sort: '-_updated', page: '3', max_results: '10' },
      filter: { $and: [{ status: 'up' }, live] },
      options: {
        sort: [
          ['_updated', -1],
          ['_id', 1],
        ],
        projection: HIDDEN,
        skip: 20,
        limit: 10,
      },
    },
    {
      name: 'a datetime in RFC 1123 becomes a Date',
      query: { where: '{"last_seen":{"$gte":"Wed, 25 Nov 2026 21:08:02 GMT"}}' },
      filter: { $and: [{ last_seen: { $gte: new Date('2026-11-25T21:08:02Z') } }, live] },
      options: { sort: [['_id', 1]], projection: HIDDEN, limit: 25 },
    },
    {
      name: 'regex, $in and a path into an open object',
      query: {
        where: '{"name":{"$regex":"^web"},"grain.os":{"$in":["Debian","Ubuntu"]}}',
        sort: 'name,-status',
      },
      filter: { $and: [{ name: { $regex: '^web' }, 'grain.os': { $in: ['Debian', 'Ubuntu'] } }, live] },
      options: {
        sort: [
          ['name', 1],
          ['status', -1],
          ['_id', 1],
        ],
        projection: HIDDEN,
        limit: 25,
      },
    },
    {
      name: 'array membership and $or',
      query: { where: '{"$or":[{"groups":"g1"},{"status":"down"}]}' },
      filter: { $and: [{ $or: [{ groups: 'g1' }, { status: 'down' }] }, live] },
      options: { sort: [['_id', 1]], projection: HIDDEN, limit: 25 },
    },
    {
      name: 'exclusive projection, explicit _id sort',
      query: { projection: '{"grain":0}', sort: '-_id' },
      filter: live,
      options: { sort: [['_id', -1]], projection: { grain: 0 }, limit: 25 },
    },
    {
      name: 'naming the soft-delete flag lifts the scope',
      query: { where: '{"_deleted":true}' },
      filter: { _deleted: true },
      options: { sort: [['_id', 1]], projection: HIDDEN, limit: 25 },
    },
  ];

  test.each(table)('$name', async ({ query, filter, options }) => {
    const calls = await listCalls(query);
    const find = calls.find((c) => c.method === 'find');
    const count = calls.find((c) => c.method === 'countDocuments');
    expect(find).toEqual({ collection: 'hosts', method: 'find', args: [filter, findOptions(options)] });
    expect(count).toEqual({ collection: 'hosts', method: 'countDocuments', args: [filter, timed({})] });
    expect(calls).toHaveLength(2);
  });
});

describe('store calls reach the driver as planned', () => {
  test('an unfiltered count is the estimated count', async () => {
    const { source, calls } = recordingDb({ estimatedDocumentCount: async () => 7 });
    await expect(new MongoStore(source).count('alerts', {})).resolves.toBe(7);
    expect(calls).toEqual([{ collection: 'alerts', method: 'estimatedDocumentCount', args: [timed({})] }]);
  });

  test('a negative or fractional page is refused before any call, as on the embedded store', async () => {
    const { source, calls } = recordingDb();
    await expect(new MongoStore(source).find('hosts', {}, { limit: -1 })).rejects.toBeInstanceOf(BadRequest);
    await expect(new MongoStore(source).find('hosts', {}, { skip: 1.5 })).rejects.toBeInstanceOf(BadRequest);
    expect(calls).toEqual([]);
  });

  test('limit 0 means no limit (MongoDB meaning) and reaches the driver as such', async () => {
    const { source, calls } = recordingDb();
    await new MongoStore(source).find(
      'hosts',
      { a: 1 },
      { limit: 0, skip: 0, projection: { _id: 0, name: 1 } },
    );
    expect(calls[0]?.args).toEqual([
      { a: 1 },
      findOptions({ sort: [['_id', 1]], projection: { name: 1 }, limit: 0 }),
    ]);
  });

  test('update with operators, multi, upsert with a string id', async () => {
    const { source, calls } = recordingDb({
      updateOne: async () => ({ matchedCount: 0, modifiedCount: 0, upsertedId: 'abc' }),
    });
    const store = new MongoStore(source);
    await expect(
      store.update('tasks', { status: 'scheduled' }, { $inc: { n: 1 } }, { multi: true }),
    ).resolves.toEqual({ matched: 2, modified: 2 });
    await expect(
      store.update('updates', { name: 'p1' }, { $set: { text: 't' } }, { upsert: true }),
    ).resolves.toEqual({
      matched: 0,
      modified: 0,
      upsertedId: 'abc',
    });
    expect(calls[0]).toEqual({
      collection: 'tasks',
      method: 'updateMany',
      args: [{ status: 'scheduled' }, { $inc: { n: 1 } }, timed({ upsert: false })],
    });
    const [filter, update, options] = calls[1]?.args ?? [];
    expect(filter).toEqual({ name: 'p1' });
    expect(update).toEqual({
      $set: { text: 't' },
      $setOnInsert: { _id: expect.stringMatching(/^[0-9a-f]{24}$/) },
    });
    expect(options).toEqual(timed({ upsert: true }));
  });

  test('a replacement document is a replaceOne, the optimistic filter untouched', async () => {
    const { source, calls } = recordingDb();
    const doc = { _id: 'h1', name: 'h1', _etag: 'new' };
    await new MongoStore(source).update('hosts', { _id: 'h1', _etag: 'old' }, doc);
    expect(calls).toEqual([
      {
        collection: 'hosts',
        method: 'replaceOne',
        args: [{ _id: 'h1', _etag: 'old' }, doc, timed({ upsert: false })],
      },
    ]);
  });

  test('a claim is one findOneAndUpdate with sort and the after-image', async () => {
    const claimed = { _id: 't1', status: 'running' };
    const { source, calls } = recordingDb({ findOneAndUpdate: async () => claimed });
    const now = new Date('2026-01-01T00:00:00Z');
    const result = await new MongoStore(source).findOneAndUpdate(
      'tasks',
      { status: 'scheduled', next: { $lte: now } },
      { $set: { status: 'running' } },
      { sort: [['next', 1]] },
    );
    expect(result).toBe(claimed);
    expect(calls[0]?.args).toEqual([
      { status: 'scheduled', next: { $lte: now } },
      { $set: { status: 'running' } },
      timed({
        sort: [
          ['next', 1],
          ['_id', 1],
        ],
        upsert: false,
        returnDocument: 'after',
        includeResultMetadata: false,
      }),
    ]);
  });

  test('aggregate hands the pipeline over as given, allowing disk use', async () => {
    const { source, calls } = recordingDb();
    const pipeline = [
      { $match: { timestamp: { $gte: new Date(0) } } },
      { $unwind: '$hosts' },
      { $group: { _id: '$hosts.version', n: { $sum: 1 } } },
    ];
    await new MongoStore(source).aggregate('hosts_statistic', pipeline);
    expect(calls).toEqual([
      { collection: 'hosts_statistic', method: 'aggregate', args: [pipeline, timed({ allowDiskUse: true })] },
    ]);
  });

  test('delete is deleteMany and resolves the count', async () => {
    const { source, calls } = recordingDb({ deleteMany: async () => ({ deletedCount: 3 }) });
    await expect(new MongoStore(source).delete('alerts', { read: true })).resolves.toBe(3);
    expect(calls[0]?.args).toEqual([{ read: true }, timed({})]);
  });

  test('a failed batch insert on a standalone server takes back what it wrote, newest first', async () => {
    const duplicate = Object.assign(new Error('E11000 duplicate key error'), {
      name: 'MongoBulkWriteError',
      code: 11000,
      writeErrors: [
        {
          index: 2,
          code: 11000,
          err: { index: 2, code: 11000, keyPattern: { name: 1 }, keyValue: { name: 'a' } },
        },
      ],
    });
    const { source, calls } = recordingDb({ insertMany: async () => Promise.reject(duplicate) });
    const docs = [{ _id: 'a1' }, { _id: 'a2' }, { _id: 'a3' }, { _id: 'a4' }];
    const rejection = new MongoStore(source).insert('files', docs);
    await expect(rejection).rejects.toBeInstanceOf(Conflict);
    await expect(rejection).rejects.toMatchObject({ field: 'name', status: 409 });
    expect(calls.map((c) => [c.method, ...c.args])).toEqual([
      ['insertMany', docs, timed({ ordered: true })],
      ['deleteOne', { _id: 'a2' }],
      ['deleteOne', { _id: 'a1' }],
    ]);
  });

  test('a duplicate _id on the first document takes back nothing (the existing one stays)', async () => {
    const duplicate = Object.assign(new Error('E11000'), {
      code: 11000,
      writeErrors: [{ index: 0, code: 11000, err: { keyPattern: { _id: 1 } } }],
    });
    const { source, calls } = recordingDb({ insertMany: async () => Promise.reject(duplicate) });
    await expect(new MongoStore(source).insert('files', [{ _id: 'x' }])).rejects.toMatchObject({
      field: '_id',
    });
    expect(calls.map((c) => c.method)).toEqual(['insertMany']);
  });

  test('ensureCollection queues the index builds; a mismatch is logged and skipped, not fatal', async () => {
    const mismatch = Object.assign(new Error('Index already exists with a different name'), { code: 85 });
    const warnings: unknown[] = [];
    const log: Log = { ...silent, warn: (obj) => warnings.push(obj) };
    let n = 0;
    const { source, calls } = recordingDb({
      createIndex: async () => (n++ === 0 ? Promise.reject(mismatch) : 'ok'),
    });
    const store = new MongoStore(source, { log });
    await store.ensureCollection(hosts.collection);
    await store.backgroundSettled();
    // A soft-delete resource's indexes lead with the flag its reads are scoped by; every
    // non-unique one ends with the _id tie-breaker of the planned sorts.
    expect(calls.filter((c) => c.method === 'createIndex').map((c) => c.args)).toEqual([
      [{ _deleted: 1, _id: 1 }, {}],
      [{ _deleted: 1, status: 1, _updated: -1, _id: 1 }, {}],
      [{ name: 1 }, { unique: true }],
    ]);
    expect(warnings).toEqual([{ collection: 'hosts', index: { _deleted: 1, _id: 1 }, code: 85 }]);
    expect(store.status()).toMatchObject({
      state: 'ready',
      tasks: [
        { kind: 'index', state: 'skipped', detail: 'an index on these keys exists with other options' },
        { kind: 'index', state: 'done' },
        { kind: 'index', state: 'done', name: 'hosts {"name":1} unique' },
      ],
    });
  });

  test('with compiled schemas given, their indexes are the ones created', async () => {
    const { source, calls } = recordingDb();
    const store = new MongoStore(source, { schemas: new Map([['hosts', compileMongooseSchema(hosts)]]) });
    await store.ensureCollection(hosts.collection);
    await store.backgroundSettled();
    expect(calls.filter((c) => c.method === 'createIndex').map((c) => [c.collection, ...c.args])).toEqual([
      ['hosts', { name: 1 }, { unique: true }],
      ['hosts', { _deleted: 1, _id: 1 }, {}],
      ['hosts', { _deleted: 1, status: 1, _updated: -1, _id: 1 }, {}],
    ]);
  });

  test('an index that already exists is not asked for again (a restart sends no createIndexes)', async () => {
    const existing = [
      { key: { _id: 1 }, name: '_id_' },
      { key: { _deleted: 1, _id: 1 }, name: '_deleted_1__id_1' },
      { key: { _deleted: 1, status: 1, _updated: -1, _id: 1 }, name: 'x' },
      { key: { name: 1 }, name: 'name_1', unique: true },
    ];
    const { source, calls } = recordingDb({ listIndexes: () => ({ toArray: async () => existing }) });
    const store = new MongoStore(source);
    await store.ensureCollection(hosts.collection);
    await store.backgroundSettled();
    expect(calls.map((c) => c.method)).toEqual(['listIndexes', 'listIndexes', 'listIndexes']);
    expect(store.status().state).toBe('ready');
  });

  test('a build the server refuses fails its task (logged, reported), and the start goes on', async () => {
    const denied = Object.assign(new Error('not authorized'), { code: 13 });
    const errors: unknown[] = [];
    const { source } = recordingDb({ createIndex: async () => Promise.reject(denied) });
    const store = new MongoStore(source, { log: { ...silent, error: (obj) => errors.push(obj) } });
    await expect(store.ensureCollection(hosts.collection)).resolves.toBeUndefined();
    await store.backgroundSettled();
    expect(store.status()).toMatchObject({ state: 'degraded' });
    expect(store.status().tasks.map((t) => t.state)).toEqual(['failed', 'failed', 'failed']);
    expect(errors).toHaveLength(3);
  });
});
