/**
 * The embedded store's group commit (engine/src/store/sqlite/group-commit.ts): writes asked for
 * together share one transaction (one commit, one fsync), each failing alone; a write lock held by
 * another connection is waited for off the event loop (a timer fires while the write waits, seen
 * by the order of events, never by time) and only past the store's lock budget is the write a 503;
 * a read of a collection with a write queued sees that write, and the writes the work waiting for
 * it asks next. Another connection to the same file stands for another process: SQLite locks
 * between them alike.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Conflict, PreconditionFailed } from '../../engine/src/errors';
import type { CollectionSpec } from '../../engine/src/store/port';
import { openSqliteStore, type SqliteStore } from '../../engine/src/store/sqlite';
import { SqliteDb } from '../../engine/src/store/sqlite/db';
import { StoreFault } from '../../engine/src/store/sqlite/faults';

const ITEMS: CollectionSpec = {
  name: 'items',
  scalarPaths: { name: 'string', status: 'string' },
  datetimePaths: [],
  indexes: [{ fields: [['name', 1]], unique: true }],
};

let dir: string;
let path: string;
let store: SqliteStore;
/** Another connection to the file: it takes the write lock as another process would. */
let other: SqliteDb;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-group-'));
  path = join(dir, 'fleet.db');
  store = openSqliteStore({ path });
  await store.ensureCollection(ITEMS);
  await store.insert('items', [
    { _id: 'a', name: 'A', status: 'new', _etag: 'a1' },
    { _id: 'b', name: 'B', status: 'new', _etag: 'b1' },
  ]);
  other = new SqliteDb(path);
});
afterEach(async () => {
  if (other.inTransaction) other.control('ROLLBACK');
  other.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Holds the write lock on the other connection until the returned function releases it. */
function holdLock(): () => void {
  other.control('BEGIN IMMEDIATE');
  other.prepare('INSERT INTO c_items (id, doc) VALUES (\'other\', \'{"_id":"other","name":"O"}\')').run();
  return () => other.control('COMMIT');
}

/** The log of events, and a way to note when a promise settles. */
function recorder() {
  const events: string[] = [];
  const note = <T>(name: string, p: Promise<T>): Promise<T> =>
    p.then(
      (value) => (events.push(`${name} ok`), value),
      (err: unknown) => {
        events.push(`${name} ${err instanceof Error ? err.constructor.name : 'failed'}`);
        throw err;
      },
    );
  /** Resolves after a timer of the loop has fired (the loop turned). */
  const timer = () => new Promise<void>((resolve) => setTimeout(() => (events.push('timer'), resolve()), 1));
  return { events, note, timer };
}

describe('a write lock held by another connection', () => {
  test('is waited for off the loop: timers fire while the writes wait, then all of them commit as one group', async () => {
    const release = holdLock();
    const { events, note, timer } = recorder();
    const before = await store.writeStats();
    const writes = [
      note('insert', store.insert('items', [{ _id: 'c', name: 'C' }])),
      note('conflict', store.insert('items', [{ _id: 'd', name: 'A' }])),
      note('update', store.update('items', { _id: 'b' }, { $set: { status: 'done' } })),
      note(
        'stale',
        store.write([{ op: 'replace', collection: 'items', doc: { _id: 'a', name: 'A2' }, ifEtag: 'zz' }]),
      ),
      note('claim', store.findOneAndUpdate('items', { status: 'new' }, { $set: { status: 'claimed' } })),
    ];
    await timer();
    await timer();
    expect(events).toEqual(['timer', 'timer']);
    expect((await store.writeStats()).busy).toBeGreaterThan(before.busy);
    release();
    const settled = await Promise.allSettled(writes);
    expect(events.slice(0, 2)).toEqual(['timer', 'timer']);
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(settled[1]).toMatchObject({ reason: expect.any(Conflict) });
    expect(settled[3]).toMatchObject({ reason: expect.any(PreconditionFailed) });
    const after = await store.writeStats();
    expect(after.commits - before.commits).toBe(1);
    expect(after.writes - before.writes).toBe(5);
    const stored = await store.find('items', {}, { sort: [['_id', 1]] });
    expect(stored.map((d) => [d._id, d.name, d.status])).toEqual([
      ['a', 'A', 'claimed'],
      ['b', 'B', 'done'],
      ['c', 'C', undefined],
      ['other', 'O', undefined],
    ]);
  });

  test('past the lock budget, the write is a 503 with Retry-After and writes nothing; the loop turned meanwhile', async () => {
    const short = openSqliteStore({ path, groupCommit: { lockWaitMs: 30 } });
    await short.ensureCollection(ITEMS);
    const release = holdLock();
    const { events, note, timer } = recorder();
    const write = note('insert', short.insert('items', [{ _id: 'late', name: 'L' }]));
    await timer();
    const err: unknown = await write.catch((e: unknown) => e);
    release();
    expect(events[0]).toBe('timer');
    expect(err).toBeInstanceOf(StoreFault);
    expect(err).toMatchObject({ status: 503, headers: { 'Retry-After': '2' } });
    expect((err as Error).message).toBe('the database is busy: another process holds its write lock');
    expect(await short.find('items', { _id: 'late' })).toEqual([]);
    await short.insert('items', [{ _id: 'later', name: 'L' }]);
    expect(await short.count('items', { _id: 'later' })).toBe(1);
    await short.close();
  });

  test('a read of a collection with writes queued waits for them off the loop and sees them', async () => {
    const release = holdLock();
    const { events, note, timer } = recorder();
    const first = note('update a', store.update('items', { _id: 'a' }, { $set: { status: 'first' } }));
    const readA = note('read a', store.find('items', { _id: 'a' }));
    const second = note('update b', store.update('items', { _id: 'b' }, { $set: { status: 'second' } }));
    const readB = note('read b', store.find('items', { _id: 'b' }));
    await timer();
    expect(events).toEqual(['timer']);
    release();
    const [, [a], , [b]] = await Promise.all([first, readA, second, readB]);
    expect([a?.status, b?.status]).toEqual(['first', 'second']);
    expect(events.indexOf('update a ok')).toBeLessThan(events.indexOf('read a ok'));
  });

  test('a lease and a claim stay exclusive while they wait: one store wins each', async () => {
    const second = openSqliteStore({ path });
    await second.ensureCollection(ITEMS);
    const release = holdLock();
    const leases = [
      store.leases.acquire('sync', 'one', 60_000),
      second.leases.acquire('sync', 'two', 60_000),
    ];
    const claims = [store, second].map((s) =>
      s.findOneAndUpdate('items', { _id: 'a', status: 'new' }, { $set: { status: 'taken' } }),
    );
    await recorder().timer();
    release();
    expect((await Promise.all(leases)).filter((l) => l !== null)).toHaveLength(1);
    expect((await Promise.all(claims)).filter((d) => d !== null)).toHaveLength(1);
    await second.close();
  });
});

describe('groups without a lock held', () => {
  test('writes asked in one turn of the loop share one commit', async () => {
    const before = await store.writeStats();
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.insert('items', [{ _id: `n${i}`, name: `N${i}` }])),
    );
    const after = await store.writeStats();
    expect(after.writes - before.writes).toBe(50);
    expect(after.commits - before.commits).toBe(1);
    expect(await store.count('items', {})).toBe(52);
  });

  test('a read of a collection with a write queued sees the write (and commits it first)', async () => {
    const write = store.update('items', { _id: 'a' }, { $set: { status: 'seen' } });
    const [doc] = await store.find('items', { $and: [{ _id: 'a' }, { name: 'A' }] });
    expect(doc?.status).toBe('seen');
    await write;
    const queued = store.insert('items', [{ _id: 'q', name: 'Q' }]);
    expect(await store.count('items', { name: 'Q' })).toBe(1);
    await queued;
  });

  test('work that writes twice in one go is never seen half done by a read', async () => {
    const work = (async () => {
      await store.insert('items', [{ _id: 'first', name: 'F' }]);
      await store.update('items', { _id: 'b' }, { $set: { status: 'after-first' } });
    })();
    // The read commits the first write; the work goes on and asks for the second before it reads.
    const seen = await store.find('items', { _id: { $in: ['b', 'first'] } }, { sort: [['_id', 1]] });
    expect(seen.map((d) => [d._id, d.status])).toEqual([
      ['b', 'after-first'],
      ['first', undefined],
    ]);
    await work;
  });

  test('close waits for the queued writes, then refuses new ones', async () => {
    const write = store.insert('items', [{ _id: 'last', name: 'Z' }]);
    await store.close();
    await write;
    await expect(store.insert('items', [{ _id: 'after', name: 'Y' }])).rejects.toMatchObject({ status: 503 });
    const reopened = openSqliteStore({ path });
    await reopened.ensureCollection(ITEMS);
    expect(await reopened.count('items', { _id: 'last' })).toBe(1);
    await reopened.close();
    store = openSqliteStore({ path });
  });
});
