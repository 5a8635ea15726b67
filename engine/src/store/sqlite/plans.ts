/**
 * What SQLite's `EXPLAIN QUERY PLAN` (https://sqlite.org/eqp.html) says about a statement, for the
 * work budget (budget.ts): whether it can visit many rows at a real cost per row. Plans depend on
 * the SQL text and the schema, not on bound values (no ANALYZE statistics), so each answer is
 * remembered per connection and SQL text.
 */
import type { SqliteDb } from './db';
import type { SqlValue } from './translate';

const PLAN_CACHE_SIZE = 500;
const cache = new WeakMap<SqliteDb, Map<string, readonly string[]>>();

/** The plan's detail lines (`SEARCH c_actions USING INDEX ix_... (<expr>=?)`, `USE TEMP B-TREE FOR ORDER BY`). */
export function planDetails(db: SqliteDb, sql: string, params: readonly SqlValue[]): readonly string[] {
  const known = cache.get(db) ?? new Map<string, readonly string[]>();
  cache.set(db, known);
  const hit = known.get(sql);
  if (hit !== undefined) return hit;
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params);
  const details = rows.map((row) =>
    typeof row === 'object' && row !== null && 'detail' in row ? String(row.detail) : '',
  );
  if (known.size >= PLAN_CACHE_SIZE) known.clear();
  known.set(sql, details);
  return details;
}

/**
 * A plan step that reads an index alone: a covering index, the primary key of a WITHOUT ROWID
 * table (a list's element index, multikey.ts), or the header of the `IN (SELECT ...)` list whose
 * own steps follow.
 */
const INDEX_ONLY_STEP = /USING COVERING INDEX|USING PRIMARY KEY|^LIST SUBQUERY \d+$/;

/** SQLite answers it from indexes alone: no table row is read. */
export function indexOnly(db: SqliteDb, sql: string, params: readonly SqlValue[]): boolean {
  const details = planDetails(db, sql, params);
  return details.length > 0 && details.every((d) => INDEX_ONLY_STEP.test(d));
}

/** A sort pass: SQLite orders rows in a temporary B-tree, after reading every one it sorts. */
export function sortsInTempTree(details: readonly string[]): boolean {
  return details.some((d) => /USE TEMP B-TREE FOR .*ORDER BY/.test(d));
}

/**
 * Whether a wholly pushed-down find needs the row budget. Not when SQLite reads the rows in the
 * requested order and tests nothing per row that an index does not hold: with no condition at
 * all, or with conditions an index answers alone (its count plan is covering) and a SEARCH of
 * that index. Skipping rows there costs ~0.1 us each (a page 40,000 deep: 84 ms on 1M actions),
 * as before the budget existed.
 */
export function findNeedsBudget(
  db: SqliteDb,
  find: { sql: string; params: readonly SqlValue[] },
  count: { sql: string | undefined; params: readonly SqlValue[]; table: string },
): boolean {
  const details = planDetails(db, find.sql, find.params);
  if (sortsInTempTree(details)) return true;
  if (count.sql === undefined) return false;
  if (details.some((d) => /^SCAN /.test(d))) return true;
  return !indexOnly(db, `SELECT count(*) AS n FROM ${count.table} WHERE ${count.sql}`, count.params);
}
