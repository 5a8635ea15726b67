/**
 * No server: an unreachable database is a 503 within the server selection timeout, on every port
 * method, never a hang; and the store dials again on the next call instead of staying broken.
 */
import { Readable } from 'node:stream';
import { ServiceUnavailable } from '../../engine/src/errors';
import { openMongoStore } from '../../engine/src/store/mongo';
import type { Store } from '../../engine/src/store/port';

/** Port 1 on loopback: nothing listens, the connection is refused at once. */
const UNREACHABLE = 'mongodb://127.0.0.1:1/fleet';
const SELECTION_MS = 500;

describe('an unreachable MongoDB', () => {
  let store: Store;

  beforeAll(async () => {
    store = await openMongoStore({
      url: UNREACHABLE,
      serverSelectionTimeoutMS: SELECTION_MS,
      socketTimeoutMS: 1000,
    });
  });
  afterAll(async () => {
    await store.close();
  });

  const calls: [string, (s: Store) => Promise<unknown>][] = [
    [
      'ensureCollection',
      (s) =>
        s.ensureCollection({
          name: 'hosts',
          scalarPaths: {},
          datetimePaths: [],
          indexes: [{ fields: [['name', 1]], unique: true }],
        }),
    ],
    ['find', (s) => s.find('hosts', { status: 'up' }, { sort: [['name', 1]], limit: 10 })],
    ['count (filtered)', (s) => s.count('hosts', { status: 'up' })],
    ['count (estimated)', (s) => s.count('hosts', {})],
    ['insert', (s) => s.insert('hosts', [{ _id: 'h1' }, { _id: 'h2' }])],
    ['update', (s) => s.update('hosts', { _id: 'h1' }, { $set: { status: 'down' } })],
    [
      'findOneAndUpdate',
      (s) => s.findOneAndUpdate('tasks', { status: 'scheduled' }, { $set: { status: 'running' } }),
    ],
    ['delete', (s) => s.delete('hosts', { _id: 'h1' })],
    ['aggregate', (s) => s.aggregate('hosts', [{ $group: { _id: '$status' } }])],
    [
      'media.put',
      (s) =>
        s.media.put(Readable.from([Buffer.from('bytes')]), { filename: 'a.txt', contentType: 'text/plain' }),
    ],
    ['media.open', (s) => s.media.open('0123456789abcdef01234567')],
    ['media.delete', (s) => s.media.delete('0123456789abcdef01234567')],
    ['leases.acquire', (s) => s.leases.acquire('scheduler', 'api-1', 10_000)],
    ['leases.renew', (s) => s.leases.renew('scheduler', 'api-1', 10_000)],
    ['leases.release', (s) => s.leases.release('scheduler', 'api-1')],
  ];

  test.each(calls)('%s rejects with ServiceUnavailable once selection gives up', async (_name, call) => {
    const rejection = call(store);
    await expect(rejection).rejects.toBeInstanceOf(ServiceUnavailable);
    await expect(rejection).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/^database unreachable: /),
    });
  });

  test('each call dials again (the failed first client is not reused as "Topology is closed")', async () => {
    // The driver's reason is kept (for the log) as the cause of our 503.
    const first = store.count('hosts', { a: 1 });
    await expect(first).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/ECONNREFUSED|Server selection timed out/) },
    });
    const second = store.count('hosts', { a: 1 });
    await expect(second).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/ECONNREFUSED|Server selection timed out/) },
    });
    await expect(second).rejects.not.toMatchObject({
      cause: { message: expect.stringMatching(/Topology is closed/) },
    });
  });

  test('an unknown media id is null without asking the database', async () => {
    await expect(store.media.open('not-an-object-id')).resolves.toBeNull();
    await expect(store.media.delete('zz')).resolves.toBe(false);
  });
});

describe('opening and closing', () => {
  test('opening resolves against an unreachable database: its calls fail one by one later', async () => {
    const store = await openMongoStore({ url: UNREACHABLE, serverSelectionTimeoutMS: SELECTION_MS });
    await expect(store.count('hosts', {})).rejects.toBeInstanceOf(ServiceUnavailable);
    await store.close();
  });

  test('after close, every call rejects with ServiceUnavailable', async () => {
    const store = await openMongoStore({ url: UNREACHABLE, serverSelectionTimeoutMS: SELECTION_MS });
    await store.close();
    await expect(store.find('hosts', {})).rejects.toBeInstanceOf(ServiceUnavailable);
    await expect(store.find('hosts', {})).rejects.toThrow('store is closed');
    await expect(store.leases.acquire('sync', 'a', 1000)).rejects.toThrow('store is closed');
  });

  test('a malformed URL is refused at open, naming DATABASE_URL and hiding the password', async () => {
    await expect(openMongoStore({ url: 'postgres://localhost/x' })).rejects.toThrow(/^DATABASE_URL: /);
    const bad = openMongoStore({ url: 'mongodb://admin:s3cret@host:notaport/db' });
    await expect(bad).rejects.toThrow(/^DATABASE_URL: /);
    await expect(bad).rejects.not.toThrow(/s3cret/);
  });
});
