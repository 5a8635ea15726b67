/**
 * Storage faults on real files: a full disk and a read-only database file answer 503
 * with `Retry-After` and a sentence saying what is wrong (they were bare 500s), reads keep
 * answering, and `/api/health` answers 503 while the store cannot write, 200 again once it can.
 *
 * The full disk is a 3 MB tmpfs, the read-only file a read-only bind mount of it (root) or its
 * mode (anyone else: root writes through a mode). Both need `mount` when running as root; a
 * machine that refuses it skips these tests and prints why.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statfsSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceUnavailable } from '../../engine/src';
import { openSqliteStore } from '../../engine/src/store/sqlite';
import { storageFault } from '../../engine/src/store/sqlite/faults';
import { version as VERSION } from '../../package.json';
import { auth, expectEveError, insertHosts, startTestServer, type TestServer } from '../helpers';

const root = process.getuid?.() === 0;

/** Why `mount` cannot be used here, or null when it can (tried once, on a throwaway tmpfs). */
function mountRefusal(): string | null {
  if (!root) return null;
  const dir = mkdtempSync(join(tmpdir(), 'fleet-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `mount is refused on this machine (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const refusal = mountRefusal();
if (refusal !== null) process.stdout.write(`storage-faults: skipped, ${refusal}\n`);
const describeIfMount = refusal === null ? describe : describe.skip;

async function health(s: TestServer) {
  return s.request.get('/api/health');
}

describeIfMount('a full disk', () => {
  let dir: string;
  let s: TestServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fleet-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dir]);
    s = await startTestServer({ env: { DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}` } });
  });
  afterAll(async () => {
    await s.close();
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  const FULL = 'the database cannot be written: the disk holding it is full; free space on it';

  test('with no space left: writes are a 503 with Retry-After, health says why, reads answer; freeing space heals it', async () => {
    const free = statfsSync(dir);
    writeFileSync(join(dir, 'filler'), Buffer.alloc(Number(free.bavail) * Number(free.bsize)));
    const res = await s.request.post('/api/alerts').set(auth('operator')).send({ type: 'small' });
    expect(expectEveError(res, 503)._error.message).toBe(FULL);
    expect(res.headers['retry-after']).toBe('60');
    const sick = await health(s);
    expect(sick.status).toBe(503);
    expect(sick.headers['retry-after']).toBe('10');
    expect(sick.body).toEqual({
      status: 'unavailable',
      store: 'sqlite',
      version: VERSION,
      readable: true,
      writable: false,
      problem: FULL,
    });
    expect((await s.request.get('/api/alerts?max_results=1').set(auth('viewer'))).status).toBe(200);

    unlinkSync(join(dir, 'filler'));
    expect((await health(s)).status).toBe(200);
    expect((await s.request.post('/api/alerts').set(auth('operator')).send({ type: 'after' })).status).toBe(
      201,
    );
  });

  test('a write larger than the space left is a 503 and leaves nothing half-written', async () => {
    const fill = () =>
      s.request
        .post('/api/alerts')
        .set(auth('operator'))
        .send({ type: 'fill', payload: { blob: 'x'.repeat(200_000) } });
    let stored = 0;
    let res = await fill();
    for (; res.status === 201 && stored < 100; res = await fill()) stored += 1;
    expect(expectEveError(res, 503)._error.message).toBe(FULL);
    expect(await s.store.count('alerts', { type: 'fill' })).toBe(stored);
  });
});

describeIfMount('a full disk under a group of writes (the store itself)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fleet-full-group-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dir]);
  });
  afterAll(() => {
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  test('a commit the disk refuses fails every write of its group with the 503; nothing acknowledged is lost', async () => {
    const path = join(dir, 'fleet.db');
    const spec = { name: 'notes', scalarPaths: {}, datetimePaths: [], indexes: [] };
    const store = openSqliteStore({ path });
    await store.ensureCollection(spec);
    const acknowledged = Array.from({ length: 20 }, (_, i) => ({ _id: `ok${i}`, text: 'x'.repeat(1000) }));
    await Promise.all(acknowledged.map((doc) => store.insert('notes', [doc])));
    const before = await store.writeStats();
    const free = statfsSync(dir);
    writeFileSync(join(dir, 'filler'), Buffer.alloc(Number(free.bavail) * Number(free.bsize)));
    // Asked together: one group, whose pages do not fit on the disk.
    const group = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        store.insert('notes', [{ _id: `lost${i}`, text: 'y'.repeat(20_000) }]),
      ),
    );
    // One group of the ten, and its commit refused (the WAL frames did not fit).
    const after = await store.writeStats();
    expect([after.writes - before.writes, after.commits - before.commits]).toEqual([10, 0]);
    for (const outcome of group) {
      expect(outcome.status).toBe('rejected');
      const err = outcome.status === 'rejected' ? (outcome.reason as unknown) : undefined;
      expect(err).toBeInstanceOf(ServiceUnavailable);
      expect(err).toMatchObject({
        status: 503,
        message: 'the database cannot be written: the disk holding it is full; free space on it',
        headers: { 'Retry-After': '60' },
      });
    }
    unlinkSync(join(dir, 'filler'));
    await store.insert('notes', [{ _id: 'after', text: 'z' }]);
    await store.close();
    const reopened = openSqliteStore({ path });
    await reopened.ensureCollection(spec);
    const ids = (await reopened.find('notes', {}, { projection: { _id: 1 } })).map((d) => d._id).sort();
    expect(ids).toEqual([...acknowledged.map((d) => d._id), 'after'].sort());
    await reopened.close();
  });
});

describeIfMount('a read-only database file', () => {
  let dir: string;
  let db: string;
  let s: TestServer;
  beforeAll(async () => {
    const first = await startTestServer();
    await insertHosts(first.store, 3, { prefix: 'ro' });
    await first.server.close();
    ({ dir, dbPath: db } = first);
    if (root) {
      execFileSync('mount', ['--bind', db, db]);
      execFileSync('mount', ['-o', 'remount,ro,bind', db]);
    } else chmodSync(db, 0o444);
    s = await startTestServer({ env: { DATABASE_URL: `sqlite:${db}` } });
  });
  afterAll(async () => {
    await s.close();
    if (root) execFileSync('umount', [db]);
    rmSync(dir, { recursive: true, force: true });
  });

  test('starts and serves reads', async () => {
    const res = await s.request.get('/api/hosts').set(auth('viewer'));
    expect(res.status).toBe(200);
    expect((res.body as { _meta: { total: number } })._meta.total).toBe(3);
  });

  test('every write is a 503 with Retry-After saying the file is read-only', async () => {
    for (const res of [
      await s.request.post('/api/groups').set(auth('admin')).send({ name: 'ro-group' }),
      await s.request
        .patch('/api/hosts/ro-00.fleet.test')
        .set(auth('admin'))
        .send({ identification_number: 'x' }),
      await s.request.delete('/api/hosts/ro-01.fleet.test').set(auth('admin')),
      await s.request.post('/api/files').set(auth('operator')).attach('data', Buffer.from('bytes'), 'a.bin'),
    ]) {
      expect(expectEveError(res, 503)._error.message).toBe(
        'the database cannot be written: its file or directory is read-only; reads still answer',
      );
      expect(res.headers['retry-after']).toBe('60');
    }
  });

  test('/api/health answers 503: readable, not writable', async () => {
    const res = await health(s);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      status: 'unavailable',
      readable: true,
      writable: false,
      problem: expect.stringMatching(/read-only/),
    });
  });
});

describe('every storage fault code of SQLite is a 503 with Retry-After (engine/src/store/sqlite/faults.ts)', () => {
  test.each([
    ['SQLITE_FULL', 'the disk holding it is full', '60'],
    ['SQLITE_READONLY_DBMOVED', 'read-only', '60'],
    ['SQLITE_CORRUPT', 'damaged: restore it from a backup', '300'],
    ['SQLITE_CORRUPT_INDEX', 'damaged: restore it from a backup', '300'],
    ['SQLITE_NOTADB', 'not an SQLite database', '300'],
    ['SQLITE_IOERR_WRITE', 'I/O error', '30'],
    ['SQLITE_IOERR_FSYNC', 'I/O error', '30'],
    ['SQLITE_CANTOPEN', 'cannot open one of its files', '30'],
    ['SQLITE_BUSY', 'another process holds its write lock', '2'],
  ])('%s', (code, message, retryAfter) => {
    const fault = storageFault(Object.assign(new Error('driver text'), { code }));
    expect(fault).toBeInstanceOf(ServiceUnavailable);
    expect(fault?.status).toBe(503);
    expect(fault?.message).toContain(message);
    expect(fault?.message).not.toContain('driver text');
    expect(fault?.headers).toEqual({ 'Retry-After': retryAfter });
  });

  test('other errors are not storage faults', () => {
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', undefined])
      expect(storageFault(Object.assign(new Error('x'), { code }))).toBeNull();
  });
});
