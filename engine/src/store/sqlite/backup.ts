/**
 * The store file as a whole: an online copy while servers write to it, the checks a copy passes
 * before it may replace a store, and the files that make up a store (the WAL beside the main
 * file holds the latest writes: copying `fleet.db` alone loses them).
 *
 * The copy is SQLite's online backup (https://sqlite.org/backup.html) in a single step: the step
 * reads every page inside one read transaction, so the copy is the store as it was at one
 * instant, and in WAL mode the servers' writes go on meanwhile. (Stepping a few pages at a time
 * would restart from the first page at every write of another connection, and never end under a
 * steady load.) The media (uploads) are rows of the same file, so they are in the copy.
 */
import { chmodSync, closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';

/** What a copy took. */
export interface SqliteCopy {
  readonly bytes: number;
  /** The whole run, and of it the copy itself and the check of the copy. */
  readonly ms: number;
  readonly copyMs: number;
  readonly checkMs: number;
}

/** Every page in one backup step (better-sqlite3 clamps the count to this). */
const ALL_PAGES = 0x7fffffff;

/** The files of the store at `path`: the main file, its write-ahead log and its shared-memory index. */
export function sqliteStoreFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`].filter((file) => existsSync(file));
}

/** A copy that must not replace a store, or a copy that could not be made: one line saying why. */
export class UnusableCopy extends Error {
  override readonly name = 'UnusableCopy';
}

/** Opens a file of ours (the live store, a staged or partial copy): read-write, so a WAL copy opens too. */
function openFile(path: string): Database.Database {
  try {
    const db = new Database(path, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    return db;
  } catch (err) {
    throw new UnusableCopy(`${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies the store at `source` into `target` (which must not exist) while other connections may
 * write to it: written beside the target first, checked, made a single file (rollback journal, no
 * WAL), then renamed into place, so a file at `target` is always a whole, checked copy.
 */
export async function backupSqliteFile(source: string, target: string): Promise<SqliteCopy> {
  if (!existsSync(source)) throw new UnusableCopy(`there is no store at ${source}`);
  if (existsSync(target)) throw new UnusableCopy(`${target} exists: name a new file`);
  const started = Date.now();
  const partial = `${target}.partial-${process.pid}`;
  const db = openFile(source);
  try {
    await db.backup(partial, { progress: () => ALL_PAGES });
  } catch (err) {
    rmSync(partial, { force: true });
    throw new UnusableCopy(`the copy failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    db.close();
  }
  const copied = Date.now();
  try {
    settleCopy(partial);
    checkSqliteCopy(partial, target);
    // Token digests and sealed secrets: for the owner's eyes only, as the store's key file.
    chmodSync(partial, 0o600);
    syncFile(partial);
    renameSync(partial, target);
  } catch (err) {
    for (const file of [partial, `${partial}-journal`]) rmSync(file, { force: true });
    throw err;
  }
  const ended = Date.now();
  return {
    bytes: statSync(target).size,
    ms: ended - started,
    copyMs: copied - started,
    checkMs: ended - copied,
  };
}

/**
 * Makes the copy at `path` a store of its own: one file (rollback journal, no WAL beside it), and
 * none of the leases of the servers that ran on the source: those processes hold nothing in the
 * copy, and a server started on it must not wait for their leases to expire.
 */
export function settleCopy(path: string): void {
  const copy = openFile(path);
  try {
    copy.pragma('journal_mode = DELETE');
    const leases = copy.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'leases'").get();
    if (leases !== undefined) copy.exec('DELETE FROM leases');
  } finally {
    copy.close();
  }
}

/**
 * Checks that `path` is a whole store: a SQLite database that passes `PRAGMA integrity_check` and
 * holds the tables every store has. Throws {@link UnusableCopy}, naming the file `shownAs` (the
 * file the person gave, when `path` is a staged copy of it).
 */
export function checkSqliteCopy(path: string, shownAs: string = path): void {
  const db = openFile(path);
  try {
    let problems: string[];
    try {
      problems = db.prepare('PRAGMA integrity_check').pluck().all().map(String);
    } catch (err) {
      throw new UnusableCopy(
        `${shownAs} is not a readable store: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (problems.length !== 1 || problems[0] !== 'ok')
      throw new UnusableCopy(`${shownAs} fails the integrity check: ${problems.slice(0, 3).join('; ')}`);
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all());
    if (!tables.has('leases') || !tables.has('media'))
      throw new UnusableCopy(`${shownAs} is a SQLite database but not a Fleet API store`);
  } finally {
    db.close();
  }
}

/** Removes what {@link backupSqliteFile} or a restore left half-done; missing files are fine. */
export function removeStoreFiles(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(file, { force: true });
}
