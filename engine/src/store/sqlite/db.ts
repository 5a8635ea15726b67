/**
 * The SQLite connection: opening with the durability pragmas, a statement cache keyed by SQL
 * text, IMMEDIATE transactions, and the closed guard every store method goes through.
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
    // Other processes on the same file (a second instance, the CLI) may hold the write lock briefly.
    this.raw.pragma('busy_timeout = 5000');
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
   * Runs `fn` in a `BEGIN IMMEDIATE` transaction: the write lock is taken before the first read, so
   * a read-modify-write (a claim, a lease) can never interleave with another writer's.
   */
  immediate<T>(fn: () => T): T {
    this.assertOpen();
    this.writes += 1;
    return this.raw.transaction(fn).immediate();
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
