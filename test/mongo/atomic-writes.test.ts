/**
 * No server: multi-document writes are all or nothing on both topologies. On a replica set the
 * adapter runs a batch in one transaction (every call in the same session, committed once, aborted
 * on failure, retried after a transient failure); on a standalone server it runs the batch in
 * order and takes the earlier writes back when one fails. The recording stand-in for the driver
 * plays either topology (helpers/recording-db.ts); the live counterparts are in
 * test/contract/mongo-transactions.contract.test.ts.
 */
import { compileResource } from '../../engine/src/compile/compile';
import { createRegistry } from '../../engine/src/compile/registry';
import { defineResource } from '../../engine/src/definition/define';
import { type Runtime } from '../../engine/src/definition/local-api';
import { type Log } from '../../engine/src/log';
import { f } from '../../engine/src/definition/fields';
import { Conflict, PreconditionFailed } from '../../engine/src/errors';
import { SYSTEM } from '../../engine/src/engine';
import { createLocalApi } from '../../engine/src/ops/collection';
import { createSecretBox } from '../../engine/src/secrets';
import { MongoStore, TRANSACTION_RETRY_MS } from '../../engine/src/store/mongo';
import type { BatchWrite, Doc } from '../../engine/src/store/port';
import { recordingDb } from './helpers/recording-db';

const silent: Log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};

/** A driver error carrying labels, as a `MongoServerError` does. */
function labelled(code: number, labels: string[]): Error {
  return Object.assign(new Error(`code ${code}`), {
    name: 'MongoServerError',
    code,
    errorLabels: labels,
  });
}

const h1: Doc = { _id: 'h1', name: 'one', _etag: 'v2' };
const BATCH: BatchWrite[] = [
  { op: 'insert', collection: 'jobs', doc: { _id: 'j1' } },
  { op: 'insert', collection: 'jobs', doc: { _id: 'j2' } },
  { op: 'replace', collection: 'hosts', doc: h1, ifEtag: 'v1' },
  { op: 'delete', collection: 'hosts', id: 'h2', ifEtag: 'w1' },
];

describe('on a replica set: one transaction', () => {
  test('every write in one session, consecutive inserts as one insertMany, committed once', async () => {
    const { source, calls, sessions } = recordingDb({}, { topology: 'replicaSet' });
    await new MongoStore(source).write(BATCH);
    expect(calls.map((c) => [c.collection, c.method, c.session])).toEqual([
      ['jobs', 'insertMany', 1],
      ['hosts', 'replaceOne', 1],
      ['hosts', 'deleteOne', 1],
    ]);
    expect(calls[0]?.args[0]).toEqual([{ _id: 'j1' }, { _id: 'j2' }]);
    expect(calls[1]?.args.slice(0, 2)).toEqual([{ _id: 'h1', _etag: 'v1' }, h1]);
    expect(sessions).toEqual([
      ['start', 1],
      ['commit', 1],
      ['end', 1],
    ]);
  });

  test('a versioned write that finds another version aborts it all: 412, nothing committed', async () => {
    const { source, sessions } = recordingDb(
      { replaceOne: async () => ({ matchedCount: 0, modifiedCount: 0, upsertedId: null }) },
      { topology: 'replicaSet' },
    );
    await expect(new MongoStore(source).write(BATCH)).rejects.toBeInstanceOf(PreconditionFailed);
    expect(sessions).toEqual([
      ['start', 1],
      ['abort', 1],
      ['end', 1],
    ]);
  });

  test('a duplicate key aborts it all: 409 naming the field', async () => {
    const duplicate = Object.assign(labelled(11000, []), { keyPattern: { name: 1 } });
    const { source, sessions } = recordingDb(
      { insertMany: async () => Promise.reject(duplicate) },
      { topology: 'replicaSet' },
    );
    await expect(new MongoStore(source).insert('hosts', [{ _id: 'a' }, { _id: 'b' }])).rejects.toMatchObject({
      status: 409,
      field: 'name',
    });
    expect(sessions.map(([step]) => step)).toEqual(['start', 'abort', 'end']);
  });

  test('a transient failure (a write conflict) runs the whole transaction again', async () => {
    let attempts = 0;
    const { source, calls, sessions } = recordingDb(
      {
        deleteOne: async () =>
          attempts++ === 0
            ? Promise.reject(labelled(112, ['TransientTransactionError']))
            : { deletedCount: 1 },
      },
      { topology: 'replicaSet' },
    );
    await new MongoStore(source).write(BATCH);
    expect(sessions.map(([step]) => step)).toEqual(['start', 'abort', 'start', 'commit', 'end']);
    expect(calls.map((c) => c.method)).toEqual([
      'insertMany',
      'replaceOne',
      'deleteOne',
      'insertMany',
      'replaceOne',
      'deleteOne',
    ]);
  });

  test('a commit whose outcome is unknown is committed again', async () => {
    let commits = 0;
    const { source, sessions } = recordingDb(
      {
        commitTransaction: () =>
          commits++ === 0 ? labelled(50, ['UnknownTransactionCommitResult']) : undefined,
      },
      { topology: 'replicaSet' },
    );
    await new MongoStore(source).write(BATCH);
    expect(sessions.map(([step]) => step)).toEqual(['start', 'commit', 'end']);
    expect(commits).toBe(2);
  });

  test(`transient failures past ${TRANSACTION_RETRY_MS} ms are a 503 to retry, never a hang`, async () => {
    const { source, sessions } = recordingDb(
      { insertMany: async () => Promise.reject(labelled(112, ['TransientTransactionError'])) },
      { topology: 'replicaSet' },
    );
    await expect(new MongoStore(source).write(BATCH)).rejects.toMatchObject({ status: 503 });
    expect(sessions.filter(([step]) => step === 'commit')).toEqual([]);
    expect(sessions[sessions.length - 1]?.[0]).toBe('end');
  });

  test('a media delete removes the file document and its chunks in one transaction', async () => {
    const { source, calls, sessions } = recordingDb({}, { topology: 'replicaSet' });
    await new MongoStore(source).media.delete('65000000aa00000001000001');
    expect(calls.map((c) => [c.collection, c.method, c.session])).toEqual([
      ['media.files', 'deleteOne', 1],
      ['media.chunks', 'deleteMany', 1],
    ]);
    expect(sessions.map(([step]) => step)).toEqual(['start', 'commit', 'end']);
  });
});

describe('on a standalone server: in order, taken back on a failure', () => {
  const before = { h1: { _id: 'h1', name: 'old', _etag: 'v1' }, h2: { _id: 'h2', _etag: 'w1' } };

  test('a failure takes back every earlier write, newest first, each only if still the version written', async () => {
    const { source, calls, sessions } = recordingDb({
      findOneAndReplace: async (filter) => ((filter as { _id: string })._id === 'h1' ? before.h1 : null),
      findOneAndDelete: async () => before.h2,
    });
    const batch: BatchWrite[] = [
      ...BATCH,
      { op: 'replace', collection: 'hosts', doc: { _id: 'h3', _etag: 'x2' }, ifEtag: 'x1' },
    ];
    await expect(new MongoStore(source).write(batch)).rejects.toBeInstanceOf(PreconditionFailed);
    expect(sessions).toEqual([]);
    expect(calls.map((c) => [c.collection, c.method, c.args[0]])).toEqual([
      ['jobs', 'insertMany', [{ _id: 'j1' }, { _id: 'j2' }]],
      ['hosts', 'findOneAndReplace', { _id: 'h1', _etag: 'v1' }],
      ['hosts', 'findOneAndDelete', { _id: 'h2', _etag: 'w1' }],
      ['hosts', 'findOneAndReplace', { _id: 'h3', _etag: 'x1' }],
      // Taken back, newest first.
      ['hosts', 'insertOne', before.h2],
      ['hosts', 'replaceOne', { _id: 'h1', _etag: 'v2' }],
      ['jobs', 'deleteOne', { _id: 'j2' }],
      ['jobs', 'deleteOne', { _id: 'j1' }],
    ]);
    expect(calls[5]?.args[1]).toEqual(before.h1);
  });

  test('a write another writer changed in between is left, and the log names it', async () => {
    const errors: object[] = [];
    const { source } = recordingDb({
      findOneAndReplace: async (filter) => ((filter as { _id: string })._id === 'h1' ? before.h1 : null),
      findOneAndDelete: async () => null,
      replaceOne: async () => ({ matchedCount: 0, modifiedCount: 0, upsertedId: null }),
    });
    const store = new MongoStore(source, { log: { ...silent, error: (obj) => errors.push(obj) } });
    await expect(store.write(BATCH)).rejects.toBeInstanceOf(PreconditionFailed);
    expect(errors).toEqual([{ writes: ['replace hosts "h1"'] }]);
  });

  test('a media delete removes the file document first, then its chunks, without a session', async () => {
    const { source, calls } = recordingDb();
    await new MongoStore(source).media.delete('65000000aa00000001000001');
    expect(calls.map((c) => [c.collection, c.method, c.session])).toEqual([
      ['media.files', 'deleteOne', undefined],
      ['media.chunks', 'deleteMany', undefined],
    ]);
  });
});

/** A resource with a media field and delete hooks, through the real operations. */
function filesApi(store: MongoStore, deleted: string[]): Runtime {
  const def = defineResource({
    name: 'files',
    description: 'files',
    fields: { name: f.string(), data: f.media() },
    methods: { delete: 'admin', list: 'viewer' },
    hooks: {
      async afterDelete({ doc }) {
        deleted.push(doc._id);
      },
    },
  });
  compileResource(def);
  return {
    resources: createLocalApi({ registry: createRegistry([def]), store, secrets: createSecretBox('k') }),
    media: store.media,
    leases: store.leases,
    log: silent,
    services: {},
    config: {},
  };
}

describe('a deleteMany that loses a race half-way, on a standalone server', () => {
  test('takes its deletes back and runs again: every item deleted once, its media removed, its hook run', async () => {
    const stored = ['a', 'b', 'c'].map((id, i) => ({
      _id: id,
      name: id,
      data: `6500000000000000000000${i}0`,
      _etag: `e-${id}`,
    }));
    let race = true;
    const { source, calls } = recordingDb({
      find: () => ({ toArray: async () => stored }),
      findOneAndDelete: async (filter) => {
        const id = (filter as { _id: string })._id;
        // Another writer changes "c" between the read and the delete, once.
        if (id === 'c' && race) {
          race = false;
          return null;
        }
        return stored.find((d) => d._id === id) ?? null;
      },
    });
    const deleted: string[] = [];
    const runtime = filesApi(new MongoStore(source), deleted);
    const n = await runtime.resources
      .get('files')
      .deleteMany({ name: { $in: ['a', 'b', 'c'] } }, { principal: SYSTEM, now: new Date(), runtime });
    expect(n).toBe(3);
    expect(deleted).toEqual(['a', 'b', 'c']);
    const writes = calls.filter((c) => c.collection === 'files' && c.method !== 'find');
    expect(writes.map((c) => [c.method, (c.args[0] as { _id: string })._id])).toEqual([
      ['findOneAndDelete', 'a'],
      ['findOneAndDelete', 'b'],
      ['findOneAndDelete', 'c'],
      // The lost race takes "a" and "b" back (newest first) before the second attempt.
      ['insertOne', 'b'],
      ['insertOne', 'a'],
      ['findOneAndDelete', 'a'],
      ['findOneAndDelete', 'b'],
      ['findOneAndDelete', 'c'],
    ]);
    // Each item's media is removed once, after the batch that deleted it succeeded.
    expect(calls.filter((c) => c.collection === 'media.files').map((c) => String(c.args[0]))).toHaveLength(3);
  });

  test('a bulk create of three items is one insertMany in one transaction', async () => {
    const { source, calls } = recordingDb({}, { topology: 'replicaSet' });
    const deleted: string[] = [];
    const runtime = filesApi(new MongoStore(source), deleted);
    await runtime.resources.get('files').createMany(
      [
        { name: 'x', data: '650000000000000000000001' },
        { name: 'y', data: '650000000000000000000002' },
        { name: 'z', data: '650000000000000000000003' },
      ],
      { principal: SYSTEM, now: new Date(), runtime },
    );
    const inserts = calls.filter((c) => c.method === 'insertMany');
    expect(inserts).toHaveLength(1);
    expect(inserts[0]?.session).toBe(1);
    expect((inserts[0]?.args[0] as Doc[]).map((d) => d.name)).toEqual(['x', 'y', 'z']);
  });
});

test('a Conflict from a transaction keeps its field', async () => {
  const duplicate = Object.assign(labelled(11000, []), { keyValue: { digest: 'x' } });
  const { source } = recordingDb(
    { insertMany: async () => Promise.reject(duplicate) },
    { topology: 'sharded' },
  );
  const rejection = new MongoStore(source).write([
    { op: 'insert', collection: 'api_tokens', doc: { _id: 't' } },
  ]);
  await expect(rejection).rejects.toBeInstanceOf(Conflict);
  await expect(rejection).rejects.toMatchObject({ field: 'digest' });
});
