/**
 * The SQLite connection: opening with the durability pragmas, a statement cache keyed by SQL
 * text, the transaction statements of the group commit (group-commit.ts), and the closed guard
 * every store method goes through.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ServiceUnavailable } from '../../errors';
import { compilePattern } from '../../query/pattern';
import { BUDGET_FUNCTION, DEFAULT_ROW_BUDGET, RowBudget, type RowBudgetLimits } from './budget';
import { REGEXP_FUNCTION } from './translate';

/** A prepared statement as better-sqlite3 types it (positional parameters). */
export type Statement = Database.Statement<unknown[], unknown>;

/** Prepared statements kept per connection; query shapes are few, values are bound. */
const STATEMENT_CACHE_SIZE = 400;

/**
 * How long a statement other than the group commit's BEGIN waits for a lock another process
 * holds, blocking: schema statements at start-up, the checkpoint at close, a read while another
 * process replays the WAL after a crash. The group commit never waits here: it asks for the
 * write lock with no wait at all and comes back later (group-commit.ts).
 */
const BLOCKING_BUSY_TIMEOUT_MS = 5000;

/** One open SQLite database with a small LRU of prepared statements. */
export class SqliteDb {
  private readonly raw: Database.Database;
  private readonly statements = new Map<string, Statement>();
  /** The rows a read may still visit: `fleet_budget()` in its WHERE spends them (budget.ts). */
  readonly budget: RowBudget;
  private closed = false;
  /** Transactions this connection ran: its own writes, which `data_version` does not count. */
  private writes = 0;

  /**
   * `readOnly`: a reader beside the store's own connection (read-pool.ts: a worker thread's), on a
   * file that connection already opened in WAL mode; it never writes, nor checkpoints on close.
   */
  constructor(
    path: string,
    limits: RowBudgetLimits = DEFAULT_ROW_BUDGET,
    private readonly o: { readOnly?: boolean } = {},
  ) {
    this.budget = new RowBudget(limits);
    if (o.readOnly === true) {
      this.raw = new Database(path, { readonly: true, fileMustExist: true });
    } else {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      this.raw = new Database(path);
      // WAL lets readers run beside the one writer; FULL fsyncs the WAL on every commit so a write
      // that resolved survives kill -9 and power loss (https://sqlite.org/pragma.html#pragma_synchronous).
      this.raw.pragma('journal_mode = WAL');
      this.raw.pragma('synchronous = FULL');
    }
    this.raw.pragma('foreign_keys = OFF');
    this.raw.pragma(`busy_timeout = ${BLOCKING_BUSY_TIMEOUT_MS}`);
    this.raw.function(BUDGET_FUNCTION, { deterministic: false }, () => this.budget.tick());
    // `$regex` pushed down (translate.ts): the linear-time engine, never a backtracking RegExp.
    this.raw.function(
      REGEXP_FUNCTION,
      { deterministic: true },
      (source: unknown, flags: unknown, value: unknown) =>
        typeof value === 'string' && compilePattern(String(source), String(flags)).test(value) ? 1 : 0,
    );
  }

  /** Throws `ServiceUnavailable` once closed: the port says further calls reject. */
  assertOpen(): void {
    if (this.closed) throw new ServiceUnavailable('store is closed');
  }

  /** The cached prepared statement for this SQL text. */
  prepare(sql: string): Statement {
    this.assertOpen();
    const cached = this.statements.get(sql);
    if (cached !== undefined) {
      // Re-insert to mark as most recently used: Map iteration order is insertion order.
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = this.raw.prepare<unknown[], unknown>(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > STATEMENT_CACHE_SIZE) {
      const oldest = this.statements.keys().next();
      if (oldest.done !== true) this.statements.delete(oldest.value);
    }
    return statement;
  }

  /** Runs DDL or several statements at once. */
  exec(sql: string): void {
    this.assertOpen();
    this.raw.exec(sql);
  }

  /**
   * Begins a `BEGIN IMMEDIATE` transaction if the write lock is free, or frees up within `waitMs`
   * (SQLite's busy handler, blocking this thread): `false` when another connection still holds it
   * (SQLITE_BUSY). The lock is taken before the first read, so a read-modify-write (a claim, a
   * lease) never interleaves with another writer's.
   */
  tryBegin(waitMs: number): boolean {
    this.assertOpen();
    this.prepare(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(waitMs))}`).get();
    try {
      this.prepare('BEGIN IMMEDIATE').run();
      return true;
    } catch (err) {
      if (isBusy(err)) return false;
      throw err;
    } finally {
      this.prepare(`PRAGMA busy_timeout = ${BLOCKING_BUSY_TIMEOUT_MS}`).get();
    }
  }

  /**
   * Runs schema work `fn` in a `BEGIN IMMEDIATE` transaction of its own, waiting for the write lock
   * with the blocking busy timeout: for declarations at start-up (an element index created and
   * filled once when two processes declare it at once), never for the writes of requests, which
   * go through the group commit.
   */
  immediate<T>(fn: () => T): T {
    this.assertOpen();
    this.writes += 1;
    return this.raw.transaction(fn).immediate();
  }

  /** Runs a statement that controls the transaction: SAVEPOINT, RELEASE, ROLLBACK [TO], COMMIT. */
  control(sql: string): void {
    this.prepare(sql).run();
    if (sql === 'COMMIT') this.writes += 1;
  }

  /** Whether a transaction is open: SQLite rolls one back by itself on some faults (a full disk, an I/O error). */
  get inTransaction(): boolean {
    return this.raw.inTransaction;
  }

  /**
   * Changes whenever the database may have changed: a transaction of this connection, or a commit
   * of any other connection to the file (`PRAGMA data_version`, https://sqlite.org/pragma.html#pragma_data_version).
   */
  version(): string {
    return `${this.writes}:${String(this.prepare('PRAGMA data_version').pluck().get())}`;
  }

  /**
   * Checkpoints the WAL into the main file and closes; idempotent. A checkpoint the disk refuses
   * (full, read-only) leaves the WAL for the next open to replay, and the connection still closes.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    try {
      if (this.raw.memory === false && this.o.readOnly !== true) this.raw.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Every committed write is in the WAL already (synchronous = FULL); the next open replays it.
    }
    this.raw.close();
  }
}

/** Whether SQLite answered that another connection holds the lock (SQLITE_BUSY and its extended codes). */
export function isBusy(err: unknown): boolean {
  // By code, not `instanceof SqliteError`: Jest loads a copy of the addon per test file (see writes.ts).
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
