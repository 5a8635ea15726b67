/**
 * The work budget of one read (docs/limits.md): better-sqlite3 runs on the event loop, so a query
 * that visits a million rows freezes every other request for seconds (`sort=args` on
 * 300,000 actions, 3.2 s). Every find, and every count SQLite cannot answer from an index alone,
 * carries `fleet_budget()` as the *first* term of its WHERE: SQLite evaluates it once per row it
 * visits, before any other condition, so the count is rows visited, not rows matched. Past the
 * budget the statement stops, and the caller explains the refusal with a 400 naming the parameter
 * and the indexed fields. A query an index serves visits about `skip + limit` rows and never gets
 * near the budget; a collection smaller than the budget can never exceed it.
 */
import { BadRequest } from '../../errors';

/**
 * Rows one statement may visit. Measured on 1,000,000 actions (packages/server/bench/stall.ts): a
 * visited row costs 4-10 us (10 us when an index gives the order and each row is then fetched from
 * the table), so 50,000 rows stay under 0.5 s, and a list request (a find and a count) under ~1 s.
 */
export const SQL_ROW_BUDGET = 50_000;

/**
 * Rows one read may decode and match or sort in JavaScript (the mingo paths), where a row costs
 * 10-50 us: 20,000 rows stay well under a second, and every collection up to that size (the
 * 10,000 hosts) keeps its in-memory sorts and filters.
 */
export const MEMORY_ROW_BUDGET = 20_000;

/** The name of the SQL function; `fleet_budget() AND ...` leads the WHERE of a budgeted statement. */
export const BUDGET_FUNCTION = 'fleet_budget';

/** Thrown inside a statement (or a JS loop) once the budget is spent; never reaches a client. */
export class BudgetExceeded extends Error {
  constructor(readonly where: 'sql' | 'memory') {
    super(`row budget exceeded (${where})`);
  }
}

/** The two budgets of one read; tests give small ones to reach them with few rows. */
export interface RowBudgetLimits {
  /** Rows one statement may visit. */
  readonly sqlRows: number;
  /** Rows one read may handle in JavaScript. */
  readonly memoryRows: number;
}

/** The defaults: {@link SQL_ROW_BUDGET} and {@link MEMORY_ROW_BUDGET}. */
export const DEFAULT_ROW_BUDGET: RowBudgetLimits = { sqlRows: SQL_ROW_BUDGET, memoryRows: MEMORY_ROW_BUDGET };

/** The counter behind `fleet_budget()`: unlimited outside {@link RowBudget.run}. */
export class RowBudget {
  private remaining = Number.POSITIVE_INFINITY;

  constructor(readonly limits: RowBudgetLimits = DEFAULT_ROW_BUDGET) {}

  /** One row visited: the SQL function's body. */
  tick(): number {
    this.remaining -= 1;
    if (this.remaining < 0) throw new BudgetExceeded('sql');
    return 1;
  }

  private exempted = false;

  /**
   * Runs `fn` with no budget: the reads of an update or a claim select what they change (the boot
   * backfill of a soft-delete flag over every item, the scheduler's claim), no client asks them.
   */
  exempt<T>(fn: () => T): T {
    const outer = this.exempted;
    this.exempted = true;
    try {
      return fn();
    } finally {
      this.exempted = outer;
    }
  }

  /** Runs `fn` (synchronous: better-sqlite3 is) with the SQL budget; nested runs share the outer one. */
  run<T>(fn: () => T): T {
    if (this.exempted || this.remaining !== Number.POSITIVE_INFINITY) return fn();
    this.remaining = this.limits.sqlRows;
    try {
      return fn();
    } finally {
      this.remaining = Number.POSITIVE_INFINITY;
    }
  }

  /** A counter of rows handled in JavaScript; throws `BudgetExceeded('memory')` past the memory budget. */
  memoryCounter(): () => void {
    const limit = this.exempted ? Number.POSITIVE_INFINITY : this.limits.memoryRows;
    let seen = 0;
    return () => {
      seen += 1;
      if (seen > limit) throw new BudgetExceeded('memory');
    };
  }
}

/** What the refusal names: the parameter at fault, and the fields an index serves. */
export interface Refusal {
  readonly param: 'where' | 'sort' | 'page';
  readonly collection: string;
  readonly indexed: readonly string[];
  readonly sortFields: readonly string[];
}

/** The 400 a refused read answers, in the words of docs/limits.md. */
export function refusalError(r: Refusal): BadRequest {
  const fields = r.indexed.join(', ');
  if (r.param === 'sort') {
    return new BadRequest(
      `sort: ${r.collection} is too large to sort by ${r.sortFields.map((f) => `"${f}"`).join(', ')} without an index; sort by an indexed field (${fields}), or filter on one first`,
    );
  }
  if (r.param === 'page') {
    return new BadRequest(
      `page: ${r.collection} is too large to skip that many items; filter on an indexed field (${fields}) to narrow the list instead`,
    );
  }
  return new BadRequest(
    `where: ${r.collection} is too large to search by this filter without an index; include a condition on an indexed field (${fields}) that narrows it`,
  );
}

/**
 * SQLite's limits on a statement's size (https://sqlite.org/limits.html): bound values, expression
 * depth, ORDER BY terms. The query parser keeps client filters well inside them; a filter built
 * by code that still reaches one is a 400 of ours rather than SQLite's text in a 500.
 */
const STATEMENT_LIMITS =
  /too many SQL variables|Expression tree is too large|too many terms in ORDER BY|too many columns|string or blob too big/i;

/** Our 400 for a statement SQLite refused as too large, or undefined for any other error. */
export function statementLimitError(error: unknown): BadRequest | undefined {
  if (!(error instanceof Error) || error.name !== 'SqliteError' || !STATEMENT_LIMITS.test(error.message))
    return undefined;
  return new BadRequest(
    'where: the filter or sort is too large for the store; use fewer conditions or values',
  );
}
