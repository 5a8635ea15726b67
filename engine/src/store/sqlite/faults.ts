/**
 * Storage faults of the embedded store, translated at the adapter's edge: a full disk, a
 * read-only or damaged file, an I/O error or a write lock held too long by another process is a
 * 503 with `Retry-After` and a sentence saying what is wrong, not a bare 500. And a
 * damaged file is refused when the store opens, in one line ({@link StartupCheck}).
 *
 * Codes are SQLite's result codes as better-sqlite3 names them, extended ones included
 * (`SQLITE_IOERR_WRITE`, `SQLITE_READONLY_DBMOVED`): https://sqlite.org/rescode.html.
 */
import { statSync } from 'node:fs';
import { ServiceUnavailable } from '../../errors';
import type { SqliteDb } from './db';

/** A 503 of the store, with the seconds after which trying again may help. */
export class StoreFault extends ServiceUnavailable {}

/** Primary result code -> our sentence and `Retry-After` (seconds). */
const FAULTS: Readonly<Record<string, readonly [message: string, retryAfterS: number]>> = {
  // ENOSPC, or the file reached its size limit (https://sqlite.org/rescode.html#full).
  SQLITE_FULL: ['the database cannot be written: the disk holding it is full; free space on it', 60],
  SQLITE_READONLY: [
    'the database cannot be written: its file or directory is read-only; reads still answer',
    60,
  ],
  SQLITE_CORRUPT: ['the database file is damaged: restore it from a backup', 300],
  SQLITE_NOTADB: ['the database file is damaged (not an SQLite database): restore it from a backup', 300],
  // EIO, EFBIG (a file size limit), a failed fsync: the disk or the filesystem under the store.
  SQLITE_IOERR: ['the database could not read or write its file (an I/O error of the disk)', 30],
  SQLITE_CANTOPEN: ['the database cannot open one of its files (the journal or the WAL index)', 30],
  // A write waited 5 s for the write lock (group-commit.ts), or a blocking statement its busy_timeout (db.ts).
  SQLITE_BUSY: ['the database is busy: another process holds its write lock', 2],
  SQLITE_LOCKED: ['the database is busy: another process holds its write lock', 2],
};

/** The primary code of an error thrown by better-sqlite3 (`SQLITE_IOERR_WRITE` -> `SQLITE_IOERR`). */
function primaryCode(err: unknown): string | undefined {
  // By code, not `instanceof SqliteError`: Jest loads a copy of the addon per test file (see writes.ts).
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? /^SQLITE_[A-Z]+/.exec(code)?.[0] : undefined;
}

/** The 503 of a storage fault, or null when `err` is not one. */
export function storageFault(err: unknown): StoreFault | null {
  const code = primaryCode(err);
  const fault = code === undefined ? undefined : FAULTS[code];
  if (fault === undefined) return null;
  const translated = new StoreFault(fault[0], fault[1]);
  // The driver's text stays with the error for the log, never for a client.
  Object.defineProperty(translated, 'cause', { value: err, enumerable: false });
  return translated;
}

/** The same async methods, each rejecting with a `StoreFault` instead of SQLite's storage errors. */
export function withFaults<T extends object>(methods: T): T {
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(methods)) {
    if (typeof member !== 'function') {
      out[name] = member;
      continue;
    }
    const method = member as (...args: unknown[]) => unknown;
    out[name] = async (...args: unknown[]): Promise<unknown> => {
      try {
        return await method.apply(methods, args);
      } catch (err) {
        throw storageFault(err) ?? err;
      }
    };
  }
  return out as T;
}

/** Thrown when the store cannot be opened: its message is the one line to print. */
export class StoreOpenError extends Error {}

/**
 * How the file is checked when the store opens:
 * - `full`: `PRAGMA quick_check` (https://sqlite.org/pragma.html#pragma_quick_check: every page,
 *   b-tree and record format, without the index contents; ~0.9 s per GB warm, ~6 s cold);
 * - `auto` (the default): the full check when the previous use of the file did not end cleanly,
 *   that is when its write-ahead log holds frames as the store opens (a clean close checkpoints
 *   the log into the file and empties it: SqliteDb.close; a process killed, a power loss or
 *   another process writing leaves it with content); otherwise a probe that reads the schema and
 *   the root of every table (gross damage: a file that is not a database, zeroed or overwritten
 *   pages at the top of a tree), with the full check run to name the damage when the probe finds
 *   some. Damage deeper in a tree of a cleanly closed file is reported when a read reaches it
 *   (a 503 naming it, see {@link storageFault});
 * - `none`: no check (a cluster worker, once the primary has checked the file).
 */
export type StartupCheck = 'full' | 'auto' | 'none';

/** Whether the write-ahead log of `path` holds anything: the previous use did not end with a clean close. */
export function walHasFrames(path: string): boolean {
  try {
    return statSync(`${path}-wal`).size > 0;
  } catch {
    return false;
  }
}

function fullCheck(db: SqliteDb): unknown[] {
  try {
    return db.prepare('PRAGMA quick_check(3)').pluck().all();
  } catch (err) {
    return [primaryCode(err) ?? 'unreadable'];
  }
}

/** Reads the schema and the first row of every table: throws SQLite's error when a root is damaged. */
function probe(db: SqliteDb): void {
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all();
  // NOT INDEXED: the table's own tree, never a smaller index SQLite would rather scan for one row.
  for (const name of tables)
    db.prepare(`SELECT * FROM "${String(name).replace(/"/g, '""')}" NOT INDEXED LIMIT 1`).all();
}

/** The problems `check` finds (`['ok']` when none). */
function problemsOf(db: SqliteDb, check: StartupCheck, unclean: boolean): unknown[] {
  if (check === 'none') return ['ok'];
  if (check === 'full' || unclean) return fullCheck(db);
  try {
    probe(db);
    return ['ok'];
  } catch {
    return fullCheck(db);
  }
}

/** Opens the database and checks it (see {@link StartupCheck}); a damaged file is refused with a `StoreOpenError`. */
export function openChecked(path: string, open: () => SqliteDb, check: StartupCheck = 'auto'): SqliteDb {
  const unclean = path !== ':memory:' && walHasFrames(path);
  let db: SqliteDb;
  try {
    db = open();
  } catch (err) {
    const fault = storageFault(err);
    if (fault === null) throw err;
    throw new StoreOpenError(`cannot open the database ${path}: ${fault.message}`);
  }
  const problems = problemsOf(db, check, unclean);
  if (problems.length === 1 && problems[0] === 'ok') return db;
  try {
    db.close();
  } catch {
    // Closing checkpoints the WAL, which a damaged file may refuse; the start stops either way.
  }
  // quick_check answers one text per problem, the first headed `*** in database main ***`.
  const first =
    String(problems[0])
      .replace(/^\*\*\* in database \w+ \*\*\*\s*/, '')
      .split('\n')[0]
      ?.slice(0, 200) ?? '';
  throw new StoreOpenError(
    `the database ${path} is damaged (PRAGMA quick_check: ${first}): restore it from a backup, or move it aside to start on an empty store`,
  );
}
