/**
 * The check of the SQLite file as the store opens (engine/src/store/sqlite/faults.ts): the full
 * `PRAGMA quick_check` when the previous use did not end cleanly (its write-ahead log still holds
 * frames: a process killed mid-work), a probe of the schema and of every table's root otherwise
 * (a clean close empties the log), none for a cluster worker. Damage deeper in a cleanly closed
 * file is answered as a 503 by the read that reaches it. Real files, real damage.
 */
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  closeSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../../engine/src/store/sqlite';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-startup-check-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const SPEC = { name: 'things', scalarPaths: {}, datetimePaths: [], indexes: [] };

/** A file of 400 documents of ~1 KB (a tree of many pages), closed cleanly. */
async function cleanFile(): Promise<string> {
  const path = join(dir, 'fleet.db');
  const store = openSqliteStore({ path });
  await store.ensureCollection(SPEC);
  await store.insert(
    'things',
    Array.from({ length: 400 }, (_, i) => ({
      _id: `t-${String(i).padStart(4, '0')}`,
      text: 'x'.repeat(1000),
    })),
  );
  await store.close();
  return path;
}

/** Overwrites a page in the middle of the file: a leaf far from every root, from the first rows and from the last (where a new row goes). */
function damageMiddlePage(path: string): void {
  const pages = statSync(path).size / 4096;
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(4096, 0xee), 0, 4096, Math.floor(pages / 2) * 4096);
  closeSync(fd);
}

describe('the check as the SQLite store opens', () => {
  it('after a clean close, probes: damage deep in a tree opens, and the read reaching it is a 503', async () => {
    const path = await cleanFile();
    expect(existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0).toBe(false);
    damageMiddlePage(path);
    const store = openSqliteStore({ path });
    try {
      await expect(store.find('things', {}, { limit: 1 })).resolves.toHaveLength(1);
      await expect(store.find('things', {})).rejects.toMatchObject({
        status: 503,
        message: expect.stringMatching(/damaged/),
      });
    } finally {
      await store.close().catch(() => undefined);
    }
    // Asked for, the full check finds it at once.
    expect(() => openSqliteStore({ path, check: 'full' })).toThrow(/is damaged \(PRAGMA quick_check: /);
  });

  it('after an unclean end (frames left in the log), runs the full check and refuses the damaged file', async () => {
    const path = await cleanFile();
    // A writer that never closes: its log keeps the frames, as after kill -9.
    const writer = new Database(path);
    writer.pragma('journal_mode = WAL');
    writer.prepare('INSERT INTO c_things (id, doc) VALUES (?, ?)').run('late', '{"_id":"late"}');
    const copy = join(dir, 'copy.db');
    for (const suffix of ['', '-wal']) copyFileSync(`${path}${suffix}`, `${copy}${suffix}`);
    writer.close();
    expect(statSync(`${copy}-wal`).size).toBeGreaterThan(0);
    damageMiddlePage(copy);
    expect(() => openSqliteStore({ path: copy })).toThrow(
      /^the database .*copy\.db is damaged \(PRAGMA quick_check: .+\): restore it from a backup/,
    );
  });

  it('refuses a file whose table roots are overwritten, after a clean close too', async () => {
    const path = await cleanFile();
    const peek = new Database(path, { readonly: true });
    const root = peek
      .prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'c_things'")
      .pluck()
      .get() as number;
    peek.close();
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(16, 0xff), 0, 16, (root - 1) * 4096);
    closeSync(fd);
    expect(() => openSqliteStore({ path })).toThrow(/is damaged \(PRAGMA quick_check: .*page \d+/);
    // A cluster worker opens without a check (its primary checked the file first).
    const unchecked = openSqliteStore({ path, check: 'none' });
    await unchecked.close().catch(() => undefined);
  });
});
