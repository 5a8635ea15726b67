/**
 * No server: the start does not wait for index builds or the soft-delete backfill. The engine's
 * start over a MongoStore whose index builds never finish (a large collection, a secondary down)
 * resolves, the store reports the work under way, and the backfill walks the collection in bounded
 * batches. The queue waits out an unreachable database and reports a refused task. The live
 * counterpart (200,000 documents without the flag) is test/contract/mongo-startup.contract.test.ts.
 */
import { createEngine } from '../../engine/src/engine';
import { defineResource } from '../../engine/src/definition/define';
import { type Log } from '../../engine/src/log';
import { f } from '../../engine/src/definition/fields';
import { BadRequest, ServiceUnavailable } from '../../engine/src/errors';
import { createSecretBox } from '../../engine/src/secrets';
import { BACKFILL_BATCH, BackgroundTasks, MongoStore } from '../../engine/src/store/mongo';
import { recordingDb } from './helpers/recording-db';

const silent: Log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};

const machines = defineResource({
  name: 'machines',
  description: 'soft-deleted items with an index',
  id: 'natural',
  fields: { status: f.string() },
  methods: { list: 'viewer' },
  softDelete: { field: '_soft_deleted', param: 'show_soft_deleted' },
  indexes: [{ fields: [['status', 1]] }],
});

describe('the start over MongoDB', () => {
  test('resolves while index builds run; the backfill walks the collection a batch at a time', async () => {
    let release: () => void = () => undefined;
    const built = new Promise<string>((resolve) => {
      release = () => resolve('built');
    });
    /** Documents without the flag: 2.5 batches' worth, handed out in `_id` order. */
    let unflagged = Math.floor(BACKFILL_BATCH * 2.5);
    const { source, calls } = recordingDb({
      createIndex: () => built,
      find: (filter, options) => {
        const batch = (options as { limit?: number }).limit === BACKFILL_BATCH;
        const n = batch ? Math.min(BACKFILL_BATCH, unflagged) : 0;
        const docs = Array.from({ length: n }, (_, i) => ({ _id: `m${i}` }));
        return { toArray: async () => docs };
      },
      updateMany: async (filter) => {
        const ids = (filter as { $and: [unknown, { _id: { $in: string[] } }] }).$and[1]._id.$in;
        unflagged -= ids.length;
        return { matchedCount: ids.length, modifiedCount: ids.length, upsertedId: null };
      },
    });
    // Builds wait 50 ms for this test (2 s by default) before they go on in the background.
    const store = new MongoStore(source, { log: silent, indexWaitMS: 50 });
    const engine = createEngine({
      definitions: [machines],
      store,
      secrets: createSecretBox('k'),
      log: silent,
    });

    await engine.ensureCollections();
    const during = store.status();
    expect(during.state).toBe('working');
    expect(during.tasks.map((t) => [t.kind, t.name, t.state])).toEqual([
      ['index', 'machines {"_soft_deleted":1,"_id":1}', 'running'],
      ['index', 'machines {"_soft_deleted":1,"status":1,"_id":1}', 'pending'],
      ['backfill', 'machines {"_soft_deleted":null}', 'pending'],
    ]);

    release();
    await store.backgroundSettled();
    expect(store.status()).toMatchObject({
      state: 'ready',
      tasks: [{ state: 'done' }, { state: 'done' }, { state: 'done' }],
    });
    const updates = calls.filter((c) => c.method === 'updateMany');
    expect(
      updates.map(
        (c) => (c.args[0] as { $and: [unknown, { _id: { $in: string[] } }] }).$and[1]._id.$in.length,
      ),
    ).toEqual([BACKFILL_BATCH, BACKFILL_BATCH, BACKFILL_BATCH / 2]);
    expect(updates[0]?.args.slice(1)).toEqual([
      { $set: { _soft_deleted: false } },
      expect.objectContaining({ maxTimeMS: expect.any(Number) }),
    ]);
    expect(unflagged).toBe(0);
    await store.close();
  });
});

describe('ensureCollection waits a little', () => {
  test('for the quick builds of a new collection: unique indexes hold from the first request', async () => {
    const { source, calls } = recordingDb();
    const store = new MongoStore(source);
    await store.ensureCollection({
      name: 'tokens',
      scalarPaths: {},
      datetimePaths: [],
      indexes: [{ fields: [['digest', 1]], unique: true }],
    });
    // No backgroundSettled(): the build was done when ensureCollection resolved.
    expect(store.status()).toMatchObject({ state: 'ready', tasks: [{ state: 'done' }] });
    expect(calls.filter((c) => c.method === 'createIndex').map((c) => c.args)).toEqual([
      [{ digest: 1 }, { unique: true }],
    ]);
  });

  test('once only: after one wait ran out, later collections do not wait again', async () => {
    const { source } = recordingDb({ createIndex: () => new Promise(() => undefined) });
    const store = new MongoStore(source, { indexWaitMS: 300 });
    const spec = (name: string) => ({
      name,
      scalarPaths: {},
      datetimePaths: [],
      indexes: [{ fields: [['a', 1] as const] }],
    });
    await store.ensureCollection(spec('one'));
    // A collection that waited would still be waiting at the next turn of the loop (its wait is a
    // timer); one that does not wait is done within the current turn (the builds are stubs).
    for (const name of ['two', 'three', 'four', 'five']) {
      const nextTurn = new Promise<'waited'>((resolve) => setImmediate(() => resolve('waited')));
      const done = store.ensureCollection(spec(name)).then(() => 'done' as const);
      expect({ name, outcome: await Promise.race([done, nextTurn]) }).toEqual({ name, outcome: 'done' });
    }
    expect(store.status().state).toBe('working');
    await store.close();
  });
});

describe('the background queue', () => {
  test('an unreachable database is waited out; the task then finishes', async () => {
    const tasks = new BackgroundTasks();
    let calls = 0;
    void tasks.run('index', 'x', async () => {
      calls++;
      if (calls < 3) throw new ServiceUnavailable('database unreachable');
      return 'done';
    });
    expect(tasks.status().state).toBe('working');
    await tasks.settled();
    expect(calls).toBe(3);
    expect(tasks.status()).toMatchObject({
      state: 'ready',
      tasks: [{ kind: 'index', name: 'x', state: 'done' }],
    });
  });

  test('a refusal fails the task: degraded, with the reason; the next task still runs', async () => {
    const errors: object[] = [];
    const tasks = new BackgroundTasks({ ...silent, error: (obj) => errors.push(obj) });
    void tasks.run('index', 'bad', async () => {
      throw new BadRequest('invalid query or update: an operator got a value it does not accept');
    });
    void tasks.run('index', 'next', async () => 'done');
    await tasks.settled();
    expect(tasks.status()).toMatchObject({
      state: 'degraded',
      tasks: [
        {
          name: 'bad',
          state: 'failed',
          detail: 'invalid query or update: an operator got a value it does not accept',
        },
        { name: 'next', state: 'done' },
      ],
    });
    expect(errors).toHaveLength(1);
  });

  test('a driver error that is not ours is reported without its text', async () => {
    const tasks = new BackgroundTasks();
    void tasks.run('index', 'x', async () => {
      throw Object.assign(new Error('secret host db1:27017 said no'), { code: 13 });
    });
    await tasks.settled();
    expect(tasks.status().tasks[0]).toMatchObject({
      state: 'failed',
      detail: 'the database refused it (see the log)',
    });
  });

  test('close stops a task that would run again for ever', async () => {
    const tasks = new BackgroundTasks();
    let steps = 0;
    void tasks.run('backfill', 'endless', async () => {
      steps++;
      if (steps === 3) tasks.close();
      return 'again';
    });
    await tasks.settled();
    expect(steps).toBe(3);
    expect(tasks.status().tasks[0]?.state).toBe('running');
  });
});
