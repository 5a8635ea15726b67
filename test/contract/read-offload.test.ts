/**
 * Heavy reads run off the event loop (engine/src/store/sqlite/read-pool.ts): a find or count that
 * visits rows no index narrows, on a collection of at least `minRows` rows, runs on a worker
 * thread with its own read-only connection, so the loop keeps turning while it runs; reads an
 * index serves, and reads of small collections, stay on the store's connection. Answers are the
 * same either way, errors keep their status and message, and a read sees every write resolved
 * before it. (Whether a read left the loop is seen by order, not by time: on the store's
 * connection the read is done before the loop turns once.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpError } from '../../engine/src/errors';
import type { CollectionSpec, Doc, Filter, FindOptions } from '../../engine/src/store/port';
import { openSqliteStore, type SqliteStore } from '../../engine/src/store/sqlite';

const HOSTS: CollectionSpec = {
  name: 'hosts',
  scalarPaths: { status: 'string' },
  datetimePaths: ['seen'],
  indexes: [{ fields: [['status', 1]] }],
};
const SMALL: CollectionSpec = { name: 'small', scalarPaths: {}, datetimePaths: [], indexes: [] };
const N = 6000;

let dir: string;
let store: SqliteStore;
/** The same file with every read on the store's connection: the reference. */
let reference: SqliteStore;

function hostDoc(i: number): Doc {
  return {
    _id: `h${String(i).padStart(5, '0')}`,
    status: i % 2 === 0 ? 'up' : 'down',
    grain: { os: i % 3 === 0 ? 'Rocky' : 'Debian' },
    seen: new Date(1.7e12 + i * 1000),
  };
}

/** Runs `read` and counts the loop's turns before it settles: 0 when it ran on the loop itself. */
async function turnsDuring<T>(read: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let settled = false;
  const spin = (): void => {
    if (settled) return;
    turns += 1;
    setImmediate(spin);
  };
  setImmediate(spin);
  try {
    return { value: await read(), turns };
  } finally {
    settled = true;
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-offload-'));
  const path = join(dir, 'fleet.db');
  store = openSqliteStore({
    path,
    readOffload: { minRows: 1000 },
    rowBudget: { sqlRows: 50_000, memoryRows: 20_000 },
  });
  await store.ensureCollection(HOSTS);
  await store.ensureCollection(SMALL);
  await store.insert(
    'hosts',
    Array.from({ length: N }, (_, i) => hostDoc(i)),
  );
  await store.insert('small', [{ _id: 'a', grain: { os: 'Rocky' } }]);
  reference = openSqliteStore({ path, readOffload: { workers: 0 } });
  await reference.ensureCollection(HOSTS);
  await reference.ensureCollection(SMALL);
}, 30_000);

afterAll(async () => {
  await store.close();
  await reference.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('where a read runs', () => {
  const heavy: Array<[string, Filter, FindOptions]> = [
    [
      'a filter on an undeclared path, paged in _id order',
      { 'grain.os': 'Rocky' },
      { sort: [['_id', 1]], skip: 10, limit: 25 },
    ],
    [
      'a sort no index gives',
      { status: 'up' },
      {
        sort: [
          ['grain.os', -1],
          ['_id', 1],
        ],
        limit: 50,
      },
    ],
    ['an unanchored $regex on _id', { _id: { $regex: '[0-4]7$' } }, { limit: 1000 }],
  ];

  it.each(heavy)(
    '%s: on a worker thread (the loop turns meanwhile), answering as the store connection does',
    async (_name, filter, options) => {
      const { value, turns } = await turnsDuring(() => store.find('hosts', filter, options));
      expect(turns).toBeGreaterThan(0);
      expect(value).toEqual(await reference.find('hosts', filter, options));
      expect(value.length).toBeGreaterThan(0);
      expect(value[0]?.['seen']).toBeInstanceOf(Date);
    },
    30_000,
  );

  it('counts that no index answers alone run there too, and count what the connection counts', async () => {
    const filter = { 'grain.os': 'Debian' };
    const { value, turns } = await turnsDuring(() => store.count('hosts', filter));
    expect(turns).toBeGreaterThan(0);
    expect(value).toBe(await reference.count('hosts', filter));
  }, 30_000);

  it('reads an index serves stay on the connection', async () => {
    const page = await turnsDuring(() =>
      store.find('hosts', { status: 'up' }, { sort: [['_id', 1]], limit: 25 }),
    );
    expect(page.turns).toBe(0);
    expect(page.value).toHaveLength(25);
    const one = await turnsDuring(() => store.find('hosts', { _id: 'h00042' }));
    expect(one.turns).toBe(0);
    expect(one.value).toEqual([hostDoc(42)]);
  });

  it('heavy reads of a collection smaller than minRows stay on the connection', async () => {
    const { value, turns } = await turnsDuring(() => store.find('small', { 'grain.os': 'Rocky' }));
    expect(turns).toBe(0);
    expect(value).toEqual([{ _id: 'a', grain: { os: 'Rocky' } }]);
  });
});

describe('what a worker answers', () => {
  it('sees every write resolved before the read', async () => {
    await store.insert('hosts', [{ ...hostDoc(N), grain: { os: 'Plan9' } }]);
    const { value, turns } = await turnsDuring(() => store.find('hosts', { 'grain.os': 'Plan9' }));
    expect(turns).toBeGreaterThan(0);
    expect(value.map((d) => d._id)).toEqual([hostDoc(N)._id]);
    await store.update('hosts', { _id: hostDoc(N)._id }, { $set: { 'grain.os': 'Plan10' } });
    expect(await store.find('hosts', { 'grain.os': 'Plan9' })).toEqual([]);
    expect(await store.count('hosts', { 'grain.os': 'Plan10' })).toBe(1);
  }, 30_000);

  it('a refusal keeps its status and message (here the row budget, 400 naming the parameter)', async () => {
    const tight = openSqliteStore({
      path: join(dir, 'fleet.db'),
      readOffload: { minRows: 1000 },
      rowBudget: { sqlRows: 50_000, memoryRows: 500 },
    });
    try {
      await tight.ensureCollection(HOSTS);
      const err: unknown = await tight
        .find('hosts', { 'grain.os': 'Rocky' }, { sort: [['grain.os', 1]] })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(HttpError);
      expect(err).toMatchObject({ status: 400 });
      expect(String((err as Error).message)).toMatch(
        /^sort: hosts is too large to sort by "grain.os" without an index/,
      );
    } finally {
      await tight.close();
    }
  }, 30_000);

  it('a bad filter is refused as on the connection', async () => {
    const filter = { _id: { $regex: '(a' } };
    const offloaded: unknown = await store.find('hosts', filter).then(
      () => undefined,
      (e: unknown) => e,
    );
    const local: unknown = await reference.find('hosts', filter).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(offloaded).toBeInstanceOf(HttpError);
    expect(offloaded).toMatchObject({
      status: (local as HttpError).status,
      message: (local as HttpError).message,
    });
  }, 30_000);

  it('after close, reads are refused with 503 and the threads are gone', async () => {
    const other = openSqliteStore({ path: join(dir, 'fleet.db'), readOffload: { minRows: 1000 } });
    await other.ensureCollection(HOSTS);
    expect(await other.count('hosts', { 'grain.os': 'Rocky' })).toBe(
      await reference.count('hosts', { 'grain.os': 'Rocky' }),
    );
    await other.close();
    await expect(other.find('hosts', { 'grain.os': 'Rocky' })).rejects.toMatchObject({ status: 503 });
  }, 30_000);
});
