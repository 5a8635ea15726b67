/**
 * The store contract on the embedded adapter (a real file and ':memory:'), plus what only SQLite
 * has: durability across kill -9, push-down visible in EXPLAIN QUERY PLAN, several processes on
 * one file.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { BadRequest, ServiceUnavailable } from '../../engine/src/errors';
import type { CollectionSpec } from '../../engine/src/store/port';
import { newObjectId, openSqliteStore, type SqliteStore } from '../../engine/src/store/sqlite';
// The adapter's own connection class: the test package has no better-sqlite3 typings of its own.
import { SqliteDb } from '../../engine/src/store/sqlite/db';
import { runStoreContract } from './store-contract';

const dirs: string[] = [];
/** A fresh temp directory, removed after all tests. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-sqlite-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

runStoreContract('sqlite file', async () => openSqliteStore({ path: join(tempDir(), 'fleet.db') }), {
  atomicBatches: true,
});
// Every read no index serves on a read worker (read-pool.ts), whatever the collection's size.
runStoreContract(
  'sqlite file, heavy reads on worker threads',
  async () => openSqliteStore({ path: join(tempDir(), 'fleet.db'), readOffload: { minRows: 0 } }),
  {
    atomicBatches: true,
  },
);
runStoreContract('sqlite :memory:', async () => openSqliteStore({ path: ':memory:' }), {
  atomicBatches: true,
});

const REPO = resolve(__dirname, '../..');
const ADAPTER = resolve(REPO, 'engine/src/store/sqlite/index.ts');
const ACTIONS: CollectionSpec = {
  name: 'actions',
  scalarPaths: { host: 'string', status: 'string', _created: 'datetime' },
  datetimePaths: ['_created'],
  indexes: [
    {
      fields: [
        ['host', 1],
        ['_created', -1],
      ],
    },
    { fields: [['status', 1]] },
  ],
};

/**
 * Runs a TypeScript snippet in a child `node --import tsx` with `store` opened on `path` and the
 * `actions` collection declared. Resolves the child and a promise of its stdout lines.
 */
function spawnWithStore(dir: string, path: string, body: string): ChildProcessByStdio<null, Readable, null> {
  const script = join(dir, `child-${randomUUID()}.ts`);
  writeFileSync(
    script,
    `import { openSqliteStore } from ${JSON.stringify(ADAPTER)};
const store = openSqliteStore({ path: ${JSON.stringify(path)} });
void (async () => {
  await store.ensureCollection(${JSON.stringify(ACTIONS)});
  ${body}
})();
`,
  );
  return spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Resolves on the first stdout line equal to `line`; rejects if the child exits first. */
async function waitForLine(child: ChildProcessByStdio<null, Readable, null>, line: string): Promise<void> {
  const lines = createInterface({ input: child.stdout });
  for await (const got of lines) if (got === line) return;
  throw new Error(`child exited before printing ${line}`);
}

describe('sqlite only', () => {
  let dir: string;
  let path: string;
  let store: SqliteStore;
  beforeEach(async () => {
    dir = tempDir();
    path = join(dir, 'data', 'fleet.db');
    store = openSqliteStore({ path });
    await store.ensureCollection(ACTIONS);
  });
  afterEach(async () => {
    await store.close();
  });

  test('a write that resolved survives kill -9 (and the WAL is replayed on open)', async () => {
    const child = spawnWithStore(
      dir,
      path,
      `await store.insert('actions', [{ _id: 'a1', host: 'h1', _created: new Date(0) }]);
  await store.update('actions', { _id: 'a1' }, { $set: { status: 'done' } });
  process.stdout.write('written\\n');
  setInterval(() => undefined, 1000);`,
    );
    await waitForLine(child, 'written');
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(child.signalCode).toBe('SIGKILL');
    expect(existsSync(`${path}-wal`)).toBe(true);
    const reopened = openSqliteStore({ path });
    await reopened.ensureCollection(ACTIONS);
    expect(await reopened.find('actions', {})).toEqual([
      { _id: 'a1', host: 'h1', _created: new Date(0), status: 'done' },
    ]);
    await reopened.close();
  }, 30_000);

  test('claims from several processes on one file never overlap', async () => {
    await store.insert(
      'actions',
      Array.from({ length: 60 }, (_, i) => ({ _id: `a${String(i).padStart(2, '0')}`, status: 'queued' })),
    );
    const go = join(dir, 'go');
    // Each child waits at a barrier (the 'go' file) so that all of them claim at the same time.
    const claimer = `process.stdout.write('ready\\n');
  while (!require('node:fs').existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 5));
  const mine: string[] = [];
  for (;;) {
    const doc = await store.findOneAndUpdate('actions', { status: 'queued' }, { $set: { status: 'running' } }, { sort: [['_id', 1]] });
    if (doc === null) break;
    mine.push(doc._id);
    // A worker works between claims; without a pause one process re-takes the lock every time.
    await new Promise((r) => setTimeout(r, 5));
  }
  process.stdout.write(JSON.stringify(mine) + '\\n');
  await store.close();`;
    const children = [1, 2, 3].map(() =>
      createInterface({ input: spawnWithStore(dir, path, claimer).stdout })[Symbol.asyncIterator](),
    );
    for (const lines of children) expect((await lines.next()).value).toBe('ready');
    writeFileSync(go, '');
    const perChild = await Promise.all(
      children.map(async (lines) => JSON.parse(String((await lines.next()).value)) as string[]),
    );
    const claimed = perChild.flat();
    expect(claimed).toHaveLength(60);
    expect(new Set(claimed).size).toBe(60);
    // Contention really happened: more than one process won some claims.
    expect(perChild.filter((mine) => mine.length > 0).length).toBeGreaterThan(1);
  }, 60_000);

  test('two stores on one file: one claim wins, one lease holder', async () => {
    const other = openSqliteStore({ path });
    await store.insert('actions', [{ _id: 'j', status: 'queued' }]);
    const claim = (s: SqliteStore): Promise<unknown> =>
      s.findOneAndUpdate('actions', { status: 'queued' }, { $set: { status: 'running' } });
    expect((await Promise.all([claim(store), claim(other)])).filter((r) => r !== null)).toHaveLength(1);
    expect(await store.leases.acquire('scheduler', 'a', 60_000)).not.toBeNull();
    expect(await other.leases.acquire('scheduler', 'b', 60_000)).toBeNull();
    await other.close();
  });

  test("counts are remembered only while nothing changed: own writes and other processes' writes both count", async () => {
    const other = openSqliteStore({ path });
    const since = new Date('2026-01-01T00:00:00Z');
    await store.insert('actions', [{ _id: 'c1', status: 'counted', _created: since }]);
    const filter = { status: 'counted' };
    expect(await store.count('actions', filter)).toBe(1);
    await store.insert('actions', [{ _id: 'c2', status: 'counted', _created: since }]);
    expect(await store.count('actions', filter)).toBe(2);
    await other.insert('actions', [{ _id: 'c3', status: 'counted', _created: since }]);
    expect(await store.count('actions', filter)).toBe(3);
    await other.delete('actions', { _id: 'c1' });
    expect(await store.count('actions', filter)).toBe(2);
    // A Date and its ISO text are different filters, never one cache entry.
    expect(await store.count('actions', { _created: since })).toBe(2);
    expect(await store.count('actions', { _created: since.toISOString() })).toBe(0);
    await other.close();
  });

  describe('push-down in EXPLAIN QUERY PLAN', () => {
    test('filter by an indexed field, sorted on the index: index search, no sort step', async () => {
      const plan = await store.explain(
        'actions',
        { host: 'h1' },
        { sort: [['_created', -1]], skip: 50, limit: 25 },
      );
      expect(plan).toMatch(/^mode: sql/);
      expect(plan).toMatch(/SEARCH c_actions USING INDEX ix_actions_host__created_desc/);
      expect(plan).not.toMatch(/SCAN|TEMP B-TREE/);
    });
    test('a residual filter still reads in index order and stops early', async () => {
      const plan = await store.explain(
        'actions',
        { host: 'h1', args: /x/ },
        { sort: [['_created', -1]], limit: 25 },
      );
      expect(plan).toMatch(/^mode: stream/);
      expect(plan).toMatch(/USING INDEX ix_actions_host__created_desc/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    });
    test('datetime ranges and _id use their indexes', async () => {
      expect(await store.explain('actions', { status: 'done' }, {})).toMatch(/USING INDEX ix_actions_status/);
      expect(await store.explain('actions', { _id: { $gte: 'a', $lt: 'b' } }, {})).toMatch(
        /USING INDEX sqlite_autoindex_c_actions_1 \(id>\? AND id<\?\)/,
      );
    });
    test('a sort on an undeclared path falls back to mingo', async () => {
      expect(await store.explain('actions', { host: 'h1' }, { sort: [['args.x', 1]] })).toMatch(
        /^mode: memory/,
      );
    });
  });

  test('storage format: c_<name> tables, ISO datetimes, WAL; close checkpoints', async () => {
    await store.insert('actions', [{ _id: 'a1', host: 'h', _created: new Date(Date.UTC(2024, 0, 2)) }]);
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    await store.close();
    expect(statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    const raw = new SqliteDb(path);
    const rows = raw.prepare("SELECT id, json_extract(doc,'$._created') AS created FROM c_actions").all();
    expect(rows).toEqual([{ id: 'a1', created: '2024-01-02T00:00:00.000Z' }]);
    raw.close();
    store = openSqliteStore({ path });
  });

  test('a failed upload leaves no chunks behind', async () => {
    async function* failing(): AsyncGenerator<Buffer> {
      yield Buffer.alloc(5 * 1024 * 1024, 7); // more than one batch of chunks is written before the error
      throw new Error('client went away');
    }
    await expect(
      store.media.put(Readable.from(failing()), { filename: 'x', contentType: 'text/plain' }),
    ).rejects.toThrow('client went away');
    const raw = new SqliteDb(path);
    expect(raw.prepare('SELECT count(*) AS n FROM media_chunks').get()).toEqual({ n: 0 });
    raw.close();
  });

  test('malformed input is a BadRequest', async () => {
    await expect(store.find('Bad-Name', {})).rejects.toBeInstanceOf(BadRequest);
    await expect(store.find('actions', { host: { $foo: 1 } })).rejects.toBeInstanceOf(BadRequest);
    await expect(store.find('actions', { $where: 'this.host' })).rejects.toBeInstanceOf(BadRequest);
    await expect(store.find('actions', {}, { projection: { host: 1, status: 0 } })).rejects.toBeInstanceOf(
      BadRequest,
    );
    await expect(store.find('actions', {}, { skip: -1 })).rejects.toBeInstanceOf(BadRequest);
    await expect(store.update('actions', {}, { $set: { a: 1 }, b: 2 })).rejects.toBeInstanceOf(BadRequest);
    await expect(store.update('actions', {}, { $bogus: { a: 1 } }, { upsert: true })).rejects.toBeInstanceOf(
      BadRequest,
    );
  });

  test('close is idempotent; later calls reject with ServiceUnavailable', async () => {
    await store.close();
    await store.close();
    await expect(store.media.open('x')).rejects.toBeInstanceOf(ServiceUnavailable);
    await expect(store.leases.acquire('x', 'a', 1000)).rejects.toBeInstanceOf(ServiceUnavailable);
    await expect(store.explain('actions', {})).rejects.toBeInstanceOf(ServiceUnavailable);
    store = openSqliteStore({ path });
  });

  test('newObjectId: 24 hex, creation time first, unique', () => {
    const before = Math.floor(Date.now() / 1000);
    const ids = Array.from({ length: 1000 }, () => newObjectId());
    expect(ids.every((id) => /^[0-9a-f]{24}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(1000);
    expect(parseInt(ids[0]?.slice(0, 8) ?? '', 16)).toBeGreaterThanOrEqual(before);
  });
});
