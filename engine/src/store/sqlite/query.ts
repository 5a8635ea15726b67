/**
 * Reads: plans a find as SQL alone (filter and sort pushed down), SQL ordering with a mingo filter
 * streamed on top, or a SQL pre-filter with mingo filtering and sorting in memory.
 */
import { BadRequest } from '../../errors';
import type { Doc, Filter, FindOptions, Projection, SortSpec } from '../port';
import type { CollectionInfo } from './collections';
import type { SqliteDb } from './db';
import { decodeDoc } from './json';
import { aggregateInMemory, compileFilter, findInMemory, project } from './mingo';
import { isPlainObject, orderBy, type SqlValue, translateFilter } from './translate';

/** How a find runs: all in SQL, SQL order + mingo filter streamed, or mingo filter + sort in memory. */
type Mode = 'sql' | 'stream' | 'memory';

interface Plan {
  readonly mode: Mode;
  readonly sql: string;
  readonly params: readonly SqlValue[];
  /** The projection still to apply after reading (undefined: none, or done in SQL). */
  readonly projection: Projection | undefined;
}

interface Page {
  readonly sort: SortSpec;
  readonly skip: number;
  /** 0: no limit (MongoDB's meaning). */
  readonly limit: number;
}

const TOP_LEVEL = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The documents matching `filter`, sorted, paged and projected. */
export function findDocs(db: SqliteDb, info: CollectionInfo, filter: Filter, options: FindOptions = {}): Doc[] {
  const page = toPage(options);
  const plan = planFind(info, filter, page, options.projection);
  const statement = db.prepare(plan.sql);
  let docs: Doc[];
  if (plan.mode === 'sql') {
    docs = statement.all(...plan.params).map((row) => decodeDoc(docColumn(row), info.datetimePaths));
  } else if (plan.mode === 'stream') {
    // Compile first: a filter that throws must not leave an open iterator (the connection stays busy).
    const test = compileFilter(filter);
    docs = streamMatches(statement.iterate(...plan.params), info, test, page);
  } else {
    const candidates = statement.all(...plan.params).map((row) => decodeDoc(docColumn(row), info.datetimePaths));
    docs = findInMemory(candidates, filter, page);
  }
  return plan.projection === undefined ? docs : project(docs, plan.projection);
}

/** The number of matches: `count(*)` when the filter is wholly pushed down. */
export function countDocs(db: SqliteDb, info: CollectionInfo, filter: Filter): number {
  const where = translateFilter(filter, info.fields);
  const clause = where.sql === undefined ? '' : ` WHERE ${where.sql}`;
  if (where.complete) {
    const row = db.prepare(`SELECT count(*) AS n FROM ${info.table}${clause}`).get(...where.params);
    return typeof row === 'object' && row !== null && 'n' in row && typeof row.n === 'number' ? row.n : 0;
  }
  const test = compileFilter(filter);
  let n = 0;
  for (const row of db.prepare(`SELECT doc FROM ${info.table}${clause}`).iterate(...where.params)) {
    if (test(decodeDoc(docColumn(row), info.datetimePaths))) n += 1;
  }
  return n;
}

/** Runs a pipeline; a leading `$match` becomes the (pushed-down where possible) pre-filter. */
export function aggregateDocs(db: SqliteDb, info: CollectionInfo, pipeline: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const first = pipeline[0];
  const match = first !== undefined && Object.keys(first).length === 1 && isPlainObject(first.$match) ? first.$match : undefined;
  // Documents are decoded (datetimes revived) before mingo sees them, so date operators work.
  const docs = findDocs(db, info, match ?? {});
  return aggregateInMemory(docs, match === undefined ? pipeline : pipeline.slice(1));
}

/** SQLite's `EXPLAIN QUERY PLAN` for the SQL a find would run: one line per plan step. */
export function explainFind(db: SqliteDb, info: CollectionInfo, filter: Filter, options: FindOptions = {}): string {
  const plan = planFind(info, filter, toPage(options), options.projection);
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${plan.sql}`).all(...plan.params);
  const details = rows.map((row) => (typeof row === 'object' && row !== null && 'detail' in row ? String(row.detail) : ''));
  return [`mode: ${plan.mode}`, ...details].join('\n');
}

function planFind(info: CollectionInfo, filter: Filter, page: Page, projection: Projection | undefined): Plan {
  const where = translateFilter(filter, info.fields);
  const clause = where.sql === undefined ? '' : ` WHERE ${where.sql}`;
  const order = page.sort.length === 0 ? '' : orderBy(page.sort, info.fields);
  const normalized = normalizeProjection(projection);
  if (order === undefined) {
    return { mode: 'memory', sql: `SELECT doc FROM ${info.table}${clause}`, params: where.params, projection: normalized };
  }
  const orderClause = order === '' ? '' : ` ORDER BY ${order}`;
  if (!where.complete) {
    return { mode: 'stream', sql: `SELECT doc FROM ${info.table}${clause}${orderClause}`, params: where.params, projection: normalized };
  }
  const removed = removableFields(normalized);
  const docExpr = removed === undefined ? 'doc' : `json_remove(doc, ${removed.map((f) => `'$.${f}'`).join(', ')})`;
  return {
    mode: 'sql',
    sql: `SELECT ${docExpr} AS doc FROM ${info.table}${clause}${orderClause} LIMIT ? OFFSET ?`,
    params: [...where.params, page.limit > 0 ? page.limit : -1, page.skip],
    projection: removed === undefined ? normalized : undefined,
  };
}

/** Stops reading as soon as the page is full: the rows already come in the requested order. */
function streamMatches(rows: IterableIterator<unknown>, info: CollectionInfo, test: (doc: Doc) => boolean, page: Page): Doc[] {
  const docs: Doc[] = [];
  let toSkip = page.skip;
  for (const row of rows) {
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
  if (entries.some(([, v]) => (v === 1) !== inclusive)) throw new BadRequest('projection cannot mix inclusion and exclusion');
  return Object.fromEntries(entries.map(([k]) => [k, inclusive ? 1 : 0])) as Projection;
}

/** An exclusion of top-level fields only: SQL can drop them (a host's big `grain`) before parsing. */
function removableFields(projection: Projection | undefined): string[] | undefined {
  if (projection === undefined) return undefined;
  const keys = Object.entries(projection);
  if (keys.some(([key, v]) => v !== 0 || !TOP_LEVEL.test(key))) return undefined;
  return keys.map(([key]) => key);
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
