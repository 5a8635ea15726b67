/**
 * Reads: plans a find as SQL alone (filter and sort pushed down), SQL ordering with a mingo filter
 * streamed on top, or a SQL pre-filter with mingo filtering and sorting in memory. Every read runs
 * within the row budgets of budget.ts.
 */
import { BadRequest } from '../../errors';
import { projector } from '../../query/projection';
import type { Doc, Filter, FindOptions, Projection, SortSpec } from '../port';
import { BUDGET_FUNCTION, BudgetExceeded, refusalError, type RowBudget, statementLimitError } from './budget';
import type { CollectionInfo } from './collections';
import { findNeedsBudget, indexOnly, planDetails, sortsInTempTree } from './plans';
import type { SqliteDb } from './db';
import { decodeDoc } from './json';
import { aggregateInMemory, compileFilter, findInMemory } from '../../query/in-memory';
import { projectionPlan } from './projection';
import { orderBy, type SqlCondition, type SqlValue, translateFilter } from './translate';
import { isPlainObject } from '../../values';

/** How a find runs: all in SQL, SQL order + mingo filter streamed, or mingo filter + sort in memory. */
type Mode = 'sql' | 'stream' | 'memory';

interface Plan {
  readonly mode: Mode;
  /** The statement, with `fleet_budget()` leading its WHERE. */
  readonly sql: string;
  /** Mode `sql` only: the same statement without the budget term, and its WHERE alone. */
  readonly unbudgeted?: {
    readonly sql: string;
    readonly where: string | undefined;
    readonly whereParams: readonly SqlValue[];
    /** The table `where` is on, when not the collection's own (a list's index). */
    readonly table?: string;
  };
  readonly params: readonly SqlValue[];
  /** The projection still to apply after reading (undefined: none, or done in SQL). */
  readonly projection: Projection | undefined;
  /** Mode `sql`: the top-level projection SQL left to JavaScript (short documents: projection.ts). */
  readonly finish?: (doc: Doc) => Doc;
  /** The projection keeps `_id` alone: mode `sql` selects the `id` column, no document is read. */
  readonly idOnly: boolean;
  /** Mode `sql`, `idOnly`: the statement may give an id more than once (a list's index); keep each once. */
  readonly distinct?: boolean;
}

interface Page {
  readonly sort: SortSpec;
  readonly skip: number;
  /** 0: no limit (MongoDB's meaning). */
  readonly limit: number;
}

/** The documents matching `filter`, sorted, paged and projected, within the work budget (budget.ts). */
export function findDocs(
  db: SqliteDb,
  info: CollectionInfo,
  filter: Filter,
  options: FindOptions = {},
): Doc[] {
  const page = toPage(options);
  const plan = cachedPlan(info, filter, page, options.projection);
  const docs = withinBudget(
    db,
    () => runFind(db, info, filter, { plan, page }),
    () => refusalOf(db, info, plan, page),
  );
  if (plan.idOnly) return plan.mode === 'sql' ? docs : docs.map((doc) => ({ _id: doc._id }));
  return plan.projection === undefined ? docs : docs.map(projector(plan.projection));
}

function runFind(
  db: SqliteDb,
  info: CollectionInfo,
  filter: Filter,
  { plan, page }: { plan: Plan; page: Page },
): Doc[] {
  if (plan.mode === 'sql') {
    const plain = plan.unbudgeted;
    const cheap =
      plain !== undefined &&
      !findNeedsBudget(
        db,
        { sql: plain.sql, params: plan.params },
        { sql: plain.where, params: plain.whereParams, table: plain.table ?? info.table },
      );
    const statement = db.prepare(cheap ? plain.sql : plan.sql);
    // The `id` column alone: plucked, no row object per id (a membership reads tens of thousands).
    if (plan.idOnly) return idDocs(statement.pluck().all(...plan.params), plan.distinct === true);
    const rows = statement.all(...plan.params);
    const docs: Doc[] = [];
    for (const row of rows) {
      const doc = decodeDoc(docColumn(row), info.datetimePaths);
      docs.push(plan.finish === undefined ? doc : plan.finish(doc));
    }
    return docs;
  }
  const statement = db.prepare(plan.sql);
  // Compile first: a filter that throws must not leave an open iterator (the connection stays busy).
  const test = compileFilter(filter);
  if (plan.mode === 'stream')
    return streamMatches(statement.iterate(...plan.params), info, test, { page, budget: db.budget });
  const spend = db.budget.memoryCounter();
  const candidates: Doc[] = [];
  for (const row of statement.iterate(...plan.params)) {
    spend();
    candidates.push(decodeDoc(docColumn(row), info.datetimePaths));
  }
  return findInMemory(candidates, filter, page);
}

/** A skip from which a find is heavy even where an index gives the order (~2 ms of skipping). */
const HEAVY_SKIP = 20_000;
/** A page from which a find is heavy: reading and decoding 1,000 hosts is ~30-60 ms. */
const HEAVY_PAGE = 250;
/** A collection from which counting all of it is heavy. */
const HEAVY_COUNT_ROWS = 100_000;

/**
 * Whether a find may take a while: it visits rows no index narrows (a filter or sort in memory or
 * streamed through mingo, or a statement that needs the row budget), so it is worth running off
 * the event loop (read-pool.ts). A find an index serves costs less than the trip to a worker.
 */
export function findIsHeavy(
  db: SqliteDb,
  info: CollectionInfo,
  filter: Filter,
  options: FindOptions = {},
): boolean {
  const page = toPage(options);
  const plan = planFind(info, filter, page, options.projection);
  const plain = plan.unbudgeted;
  // Skipping index entries costs ~0.1 us each: a page 40,000 deep in 1,000,000 actions is ~90 ms.
  if (plan.mode !== 'sql' || plain === undefined || page.skip >= HEAVY_SKIP || page.limit > HEAVY_PAGE)
    return true;
  return findNeedsBudget(
    db,
    { sql: plain.sql, params: plan.params },
    { sql: plain.where, params: plain.whereParams, table: plain.table ?? info.table },
  );
}

/** Whether a count may take a while: it is not answered by an index alone. */
export function countIsHeavy(db: SqliteDb, info: CollectionInfo, filter: Filter): boolean {
  const where = translateFilter(filter, info.fields, info);
  if (!where.complete) return true;
  // Counting every entry of a large collection (~30-80 ms for 1,000,000) is a scan all the same.
  if (where.sql === undefined) return roughRowCount(db, info) >= HEAVY_COUNT_ROWS;
  return !indexOnly(db, `SELECT count(*) AS n FROM ${info.table} WHERE ${where.sql}`, where.params);
}

/** About how many rows the collection holds (its largest rowid: no scan), for deciding where a read runs. */
export function roughRowCount(db: SqliteDb, info: CollectionInfo): number {
  const n = db.prepare(`SELECT max(rowid) FROM ${info.table}`).pluck().get();
  return typeof n === 'number' ? n : 0;
}

/** The number of matches: `count(*)` when the filter is wholly pushed down. */
export function countDocs(db: SqliteDb, info: CollectionInfo, filter: Filter): number {
  const where = translateFilter(filter, info.fields, info);
  const clause = where.sql === undefined ? '' : ` WHERE ${where.sql}`;
  if (where.complete) {
    const plain = `SELECT count(*) AS n FROM ${info.table}${clause}`;
    // An index-only count (a covering index, or none at all) is cheap at any size: no budget.
    const sql = (): string =>
      clause === '' || indexOnly(db, plain, where.params)
        ? plain
        : `SELECT count(*) AS n FROM ${info.table}${budgeted(where.sql)}`;
    const row = withinBudget(
      db,
      () => db.prepare(sql()).get(...where.params),
      () => refusalError({ param: 'where', collection: info.name, indexed: info.indexed, sortFields: [] }),
    );
    return typeof row === 'object' && row !== null && 'n' in row && typeof row.n === 'number' ? row.n : 0;
  }
  const test = compileFilter(filter);
  const count = (): number => {
    const spend = db.budget.memoryCounter();
    let n = 0;
    for (const row of db
      .prepare(`SELECT doc FROM ${info.table}${budgeted(where.sql)}`)
      .iterate(...where.params)) {
      spend();
      if (test(decodeDoc(docColumn(row), info.datetimePaths))) n += 1;
    }
    return n;
  };
  return withinBudget(db, count, () =>
    refusalError({ param: 'where', collection: info.name, indexed: info.indexed, sortFields: [] }),
  );
}

/** Runs `fn` within the row budgets; a spent budget becomes the 400 `refusal` builds. */
function withinBudget<T>(db: SqliteDb, fn: () => T, refusal: () => Error): T {
  try {
    return db.budget.run(fn);
  } catch (error) {
    if (error instanceof BudgetExceeded) throw refusal();
    throw statementLimitError(error) ?? error;
  }
}

/**
 * Which parameter a refused find names: the sort when no index can give the order (sorted in
 * memory, or by a temporary B-tree over the whole filter), the page when only the skip is large,
 * else the filter.
 */
function refusalOf(db: SqliteDb, info: CollectionInfo, plan: Plan, page: Page): Error {
  const sortedWithoutIndex =
    plan.mode === 'memory' || sortsInTempTree(planDetails(db, plan.sql, plan.params));
  const param =
    sortedWithoutIndex && page.sort.length > 0
      ? 'sort'
      : page.skip >= db.budget.limits.sqlRows / 2
        ? 'page'
        : 'where';
  return refusalError({
    param,
    collection: info.name,
    indexed: info.indexed,
    sortFields: page.sort.map(([f]) => f),
  });
}

/** Runs a pipeline; a leading `$match` becomes the (pushed-down where possible) pre-filter. */
export function aggregateDocs(
  db: SqliteDb,
  info: CollectionInfo,
  pipeline: readonly Record<string, unknown>[],
): Record<string, unknown>[] {
  const first = pipeline[0];
  const match =
    first !== undefined && Object.keys(first).length === 1 && isPlainObject(first.$match)
      ? first.$match
      : undefined;
  // Documents are decoded (datetimes revived) before mingo sees them, so date operators work.
  const docs = findDocs(db, info, match ?? {});
  return aggregateInMemory(docs, match === undefined ? pipeline : pipeline.slice(1));
}

/** SQLite's `EXPLAIN QUERY PLAN` for the SQL a find would run: one line per plan step. */
export function explainFind(
  db: SqliteDb,
  info: CollectionInfo,
  filter: Filter,
  options: FindOptions = {},
): string {
  const plan = planFind(info, filter, toPage(options), options.projection);
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${plan.sql}`).all(...plan.params);
  const details = rows.map((row) =>
    typeof row === 'object' && row !== null && 'detail' in row ? String(row.detail) : '',
  );
  return [`mode: ${plan.mode}`, ...details].join('\n');
}

/** ` WHERE fleet_budget() AND (<sql>)`: the budget term first, so every row visited spends it. */
function budgeted(sql: string | undefined): string {
  return sql === undefined ? ` WHERE ${BUDGET_FUNCTION}()` : ` WHERE ${BUDGET_FUNCTION}() AND (${sql})`;
}

/**
 * Plans of finds whose filter, sort and projection are frozen (a request's parsed `where`, its
 * scope, a definition's sort: the same objects request after request), by their identity and the
 * page: a list page repeats its SQL text, parameters and all, without building them again.
 */
const plans = new WeakMap<Filter, WeakMap<CollectionInfo, Map<string, Plan>>>();
const identities = new WeakMap<object, number>();
let nextIdentity = 0;
const PLANS_PER_FILTER = 64;

function identity(value: object | undefined): number | undefined {
  if (value === undefined) return 0;
  if (!Object.isFrozen(value)) return undefined;
  let id = identities.get(value);
  if (id === undefined) {
    nextIdentity += 1;
    id = nextIdentity;
    identities.set(value, id);
  }
  return id;
}

function cachedPlan(
  info: CollectionInfo,
  filter: Filter,
  page: Page,
  projection: Projection | undefined,
): Plan {
  const sortId = page.sort.length === 0 ? 0 : identity(page.sort);
  const projectionId = identity(projection);
  if (!Object.isFrozen(filter) || sortId === undefined || projectionId === undefined)
    return planFind(info, filter, page, projection);
  let byInfo = plans.get(filter);
  if (byInfo === undefined) {
    byInfo = new WeakMap();
    plans.set(filter, byInfo);
  }
  let byPage = byInfo.get(info);
  if (byPage === undefined) {
    byPage = new Map();
    byInfo.set(info, byPage);
  }
  const key = `${page.skip}:${page.limit}:${sortId}:${projectionId}`;
  const known = byPage.get(key);
  if (known !== undefined) return known;
  const plan = planFind(info, filter, page, projection);
  if (byPage.size >= PLANS_PER_FILTER) byPage.clear();
  byPage.set(key, plan);
  return plan;
}

function planFind(
  info: CollectionInfo,
  filter: Filter,
  page: Page,
  projection: Projection | undefined,
): Plan {
  const where = translateFilter(filter, info.fields, info);
  const clause = budgeted(where.sql);
  const order = page.sort.length === 0 ? '' : orderBy(page.sort, info.fields);
  const normalized = normalizeProjection(projection);
  const idOnly = isIdOnly(projection);
  if (order === undefined) {
    return {
      mode: 'memory',
      sql: `SELECT doc FROM ${info.table}${clause}`,
      params: where.params,
      projection: normalized,
      idOnly,
    };
  }
  const orderClause = order === '' ? '' : ` ORDER BY ${order}`;
  if (!where.complete) {
    return {
      mode: 'stream',
      sql: `SELECT doc FROM ${info.table}${clause}${orderClause}`,
      params: where.params,
      projection: normalized,
      idOnly,
    };
  }
  // A page (skip, limit) of them needs the ids distinct first: the usual plan, then.
  if (idOnly && where.listIds !== undefined && order === '' && page.skip === 0 && page.limit === 0)
    return listIdsPlan(where.listIds);
  const projected = idOnly ? { docExpr: 'id' } : projectionPlan(normalized);
  const docExpr = projected.docExpr;
  const tail = `${orderClause} LIMIT ? OFFSET ?`;
  return {
    mode: 'sql',
    sql: `SELECT ${docExpr} AS doc FROM ${info.table}${clause}${tail}`,
    unbudgeted: {
      sql: `SELECT ${docExpr} AS doc FROM ${info.table}${where.sql === undefined ? '' : ` WHERE ${where.sql}`}${tail}`,
      where: where.sql,
      whereParams: where.params,
    },
    params: [...where.params, page.limit > 0 ? page.limit : -1, page.skip],
    projection: 'rest' in projected ? projected.rest : undefined,
    ...('finish' in projected && projected.finish ? { finish: projected.finish } : {}),
    idOnly,
  };
}

/**
 * The ids of one condition on an indexed list, from the list's index alone: an id comes once per
 * matching element, kept once in JavaScript (cheaper than SQLite's DISTINCT, a temporary B-tree).
 */
function listIdsPlan(list: NonNullable<SqlCondition['listIds']>): Plan {
  const where = `value IN (${list.values.map(() => '?').join(', ')})`;
  return {
    mode: 'sql',
    distinct: true,
    sql: `SELECT id AS doc FROM ${list.table} WHERE ${BUDGET_FUNCTION}() AND ${where}`,
    unbudgeted: {
      sql: `SELECT id AS doc FROM ${list.table} WHERE ${where}`,
      where,
      whereParams: list.values,
      table: list.table,
    },
    params: list.values,
    projection: undefined,
    idOnly: true,
  };
}

/** `{_id}` documents of plucked ids, each once when `distinct`. */
function idDocs(ids: readonly unknown[], distinct: boolean): Doc[] {
  const docs: Doc[] = [];
  for (const id of distinct ? new Set(ids) : ids) docs.push({ _id: String(id) });
  return docs;
}

/** `{_id: 1}` and nothing else: MongoDB answers `{_id}` documents, an index alone can give them. */
function isIdOnly(projection: Projection | undefined): boolean {
  return projection !== undefined && Object.keys(projection).length === 1 && projection._id === 1;
}

/** Stops reading as soon as the page is full: the rows already come in the requested order. */
function streamMatches(
  rows: IterableIterator<unknown>,
  info: CollectionInfo,
  test: (doc: Doc) => boolean,
  { page, budget }: { page: Page; budget: RowBudget },
): Doc[] {
  const docs: Doc[] = [];
  const spend = budget.memoryCounter();
  let toSkip = page.skip;
  for (const row of rows) {
    spend();
    const doc = decodeDoc(docColumn(row), info.datetimePaths);
    if (!test(doc)) continue;
    if (toSkip > 0) toSkip -= 1;
    else docs.push(doc);
    if (page.limit > 0 && docs.length >= page.limit) break;
  }
  return docs;
}

/** `_id` is always kept, so it is dropped from the projection; mixing 1 and 0 is a 400 as in MongoDB. */
function normalizeProjection(projection: Projection | undefined): Projection | undefined {
  if (projection === undefined) return undefined;
  const entries = Object.entries(projection).filter(([key]) => key !== '_id');
  if (entries.length === 0) return undefined;
  const inclusive = entries[0]?.[1] === 1;
  if (entries.some(([, v]) => (v === 1) !== inclusive))
    throw new BadRequest('projection cannot mix inclusion and exclusion');
  return Object.fromEntries<0 | 1>(entries.map(([k]) => [k, inclusive ? 1 : 0]));
}

function toPage(options: FindOptions): Page {
  const skip = options.skip ?? 0;
  const limit = options.limit ?? 0;
  if (!Number.isSafeInteger(skip) || skip < 0) throw new BadRequest('skip must be a non-negative integer');
  if (!Number.isSafeInteger(limit) || limit < 0) throw new BadRequest('limit must be a non-negative integer');
  return { sort: options.sort ?? [], skip, limit };
}

/** The `doc` column of a row. */
export function docColumn(row: unknown): string {
  if (typeof row === 'object' && row !== null && 'doc' in row && typeof row.doc === 'string') return row.doc;
  throw new Error('unexpected row shape');
}
