/**
 * MongoDB filter -> SQL push-down. Translates what an expression index can serve (comparisons on
 * `_id` and on declared scalar paths whose value has the declared type) and reports whether the
 * translation is complete. An incomplete one is still a superset of the matches: the caller runs
 * the whole filter through mingo on what SQL returns.
 */
import { isPrefixOnly, literalPrefix } from '../../query/pattern';
import type { Filter, ScalarType, SortSpec } from '../port';
import { isPlainObject } from '../../values';

/** The SQL function that runs a pattern (registered in db.ts). */
export const REGEXP_FUNCTION = 'fleet_regexp';

/** A value bound to a `?`: JSON scalars as `json_extract` returns them. */
export type SqlValue = string | number | null;

/** A translated condition; `sql` undefined means "no constraint" (TRUE). */
export interface SqlCondition {
  readonly sql: string | undefined;
  readonly params: readonly SqlValue[];
  /** `true` when `sql` is exactly the filter, `false` when it is a superset. */
  readonly complete: boolean;
  /**
   * The filter is one condition on an indexed list: the matching ids are the list index's own
   * (`SELECT DISTINCT id FROM <table> WHERE value IN (...)`), no row of the collection is needed.
   */
  readonly listIds?: { readonly table: string; readonly values: readonly SqlValue[] };
}

/** The pushable fields of one collection: `_id` plus its declared scalar paths. */
export type PushableFields = ReadonlyMap<string, ScalarType>;

/**
 * Scalar paths whose stored value is never JSON null (validated on every write): there, a NULL
 * from `json_extract` can only mean "missing", so `$exists` is a test the path's index answers.
 */
export type NotNullPaths = ReadonlySet<string>;

const NONE: NotNullPaths = new Set();
const NO_LISTS: IndexedLists = new Map();

const RESIDUAL: SqlCondition = { sql: undefined, params: [], complete: false };
const TRUE: SqlCondition = { sql: undefined, params: [], complete: true };

/** Dotted paths safe to splice into `'$.path'` (checked when a collection is declared). */
export const SAFE_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * The SQL expression of a field. The index DDL uses this very text: SQLite matches expression
 * indexes by their text, so any difference (spaces, quotes) would lose the index.
 */
export function fieldExpr(path: string): string {
  return path === '_id' ? 'id' : `json_extract(doc,'$.${path}')`;
}

/** One list's element index (kept by multikey.ts). */
export interface Multikey {
  /** `mk_<collection>_<path>`: safe to splice (collection names and paths are validated). */
  readonly table: string;
  /** The declared type of the elements: only elements of that JSON type are indexed. */
  readonly type: ScalarType;
}

/** Lists of scalars with an element index: path -> its side table (multikey.ts). */
export type IndexedLists = ReadonlyMap<string, Multikey>;

/** What the translation knows of a collection's paths. */
interface Paths {
  readonly fields: PushableFields;
  readonly notNull: NotNullPaths;
  readonly lists: IndexedLists;
}

/**
 * Translates a whole filter (an implicit `$and` of its entries). Without `notNull`, any path may
 * hold null and `$exists` reads the value's JSON type; without `lists`, conditions on lists are
 * left to mingo.
 */
export function translateFilter(
  filter: Filter,
  fields: PushableFields,
  more: { readonly notNull?: NotNullPaths; readonly lists?: IndexedLists } = NO_MORE,
): SqlCondition {
  const translate = () =>
    translateAll(filter, { fields, notNull: more.notNull ?? NONE, lists: more.lists ?? NO_LISTS });
  if (!Object.isFrozen(filter)) return translate();
  // A frozen filter is a request's `where` (parsed once per text) and its scope: the same object
  // every time, so its translation for these paths is too.
  let byPaths = translations.get(filter);
  if (byPaths === undefined) {
    byPaths = new WeakMap();
    translations.set(filter, byPaths);
  }
  const key = more === NO_MORE ? fields : more;
  const known = byPaths.get(key);
  if (known !== undefined) return known;
  const out = translate();
  byPaths.set(key, out);
  return out;
}

const NO_MORE = {};
const translations = new WeakMap<Filter, WeakMap<object, SqlCondition>>();

function translateAll(filter: Filter, paths: Paths): SqlCondition {
  return and(Object.entries(filter).map(([key, value]) => translateEntry(key, value, paths)));
}

/** `ORDER BY` text when every key is pushable, with `id` as the last tie-breaker; else undefined. */
export function orderBy(sort: SortSpec, fields: PushableFields): string | undefined {
  if (!sort.every(([path]) => fields.has(path))) return undefined;
  const keys = sort.map(([path, dir]) => `${fieldExpr(path)}${dir === -1 ? ' DESC' : ''}`);
  if (!sort.some(([path]) => path === '_id')) keys.push('id');
  return keys.join(', ');
}

function translateEntry(key: string, value: unknown, paths: Paths): SqlCondition {
  if (key === '$and') return Array.isArray(value) ? and(value.map((f) => subFilter(f, paths))) : RESIDUAL;
  if (key === '$or')
    return Array.isArray(value) && value.length > 0 ? or(value.map((f) => subFilter(f, paths))) : RESIDUAL;
  const list = paths.lists.get(key);
  if (list !== undefined) return listCondition(list, value);
  const type = key.startsWith('$') ? undefined : paths.fields.get(key);
  if (type === undefined) return RESIDUAL;
  const expr = fieldExpr(key);
  if (value instanceof RegExp) return pattern(expr, type, value, undefined);
  if (!isOperatorObject(value)) return equals(expr, type, value);
  return and(
    Object.entries(value).map(([op, arg]) => {
      if (op === '$regex' || op === '$options') return patternOp(expr, type, op, value);
      if (op === '$exists') return exists(key, paths.notNull.has(key), arg);
      return translateOperator(expr, type, op, arg);
    }),
  );
}

function subFilter(filter: unknown, paths: Paths): SqlCondition {
  return isPlainObject(filter) ? translateAll(filter, paths) : RESIDUAL;
}

/**
 * A condition on an indexed list, as MongoDB matches lists: `{groups: "g"}` and `$in` hold when an
 * element (or the value itself, when it is not a list) is one of the values; `$ne` and `$nin` when
 * none is (a missing list included). Elements of the declared type only are indexed, so a value
 * of another type, null, a pattern, a whole list or any other operator is left to mingo.
 */
function listCondition(list: Multikey, value: unknown): SqlCondition {
  const sub = (values: readonly SqlValue[], negate: boolean): SqlCondition => {
    if (values.length === 0) return cond(negate ? '1' : '0', []);
    const sql = `id ${negate ? 'NOT IN' : 'IN'} (SELECT id FROM ${list.table} WHERE value IN (${values.map(() => '?').join(', ')}))`;
    return negate ? cond(sql, values) : { ...cond(sql, values), listIds: { table: list.table, values } };
  };
  const one = (v: unknown) => toSqlValue(list.type, v);
  const many = (vs: unknown): SqlValue[] | undefined => {
    if (!Array.isArray(vs)) return undefined;
    const out = vs.map(one);
    return out.every((v): v is SqlValue => v !== undefined) ? out : undefined;
  };
  if (!isOperatorObject(value)) {
    const v = one(value);
    return v === undefined ? RESIDUAL : sub([v], false);
  }
  return and(
    Object.entries(value).map(([op, arg]) => {
      const negate = op === '$ne' || op === '$nin';
      const values =
        op === '$eq' || op === '$ne' ? many([arg]) : op === '$in' || op === '$nin' ? many(arg) : undefined;
      return values === undefined ? RESIDUAL : sub(values, negate);
    }),
  );
}

/**
 * `$exists`: whether the path is there at all, JSON null included (MongoDB's meaning). A path
 * never stored as null is there exactly when `json_extract` is not NULL, which its index answers;
 * otherwise `json_type` tells a stored null ('null') from a missing path (NULL). The argument is
 * read by its truth, as MongoDB and mingo read it (`1` exists, `0` and `null` do not).
 */
function exists(path: string, notNull: boolean, arg: unknown): SqlCondition {
  const wanted = Boolean(arg);
  if (path === '_id') return wanted ? TRUE : cond('0', []);
  const expr = notNull ? fieldExpr(path) : `json_type(doc,'$.${path}')`;
  return cond(`${expr} ${wanted ? 'IS NOT NULL' : 'IS NULL'}`, []);
}

function translateOperator(expr: string, type: ScalarType, op: string, arg: unknown): SqlCondition {
  switch (op) {
    case '$eq':
      return equals(expr, type, arg);
    case '$ne':
      if (arg === null) return cond(`${expr} IS NOT NULL`, []);
      // IS NOT (not <>): a missing field is NULL and MongoDB's $ne matches it.
      return withValue(type, arg, (v) => cond(`${expr} IS NOT ?`, [v]));
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return range(expr, type, op, arg);
    case '$in':
      return Array.isArray(arg) ? inList(expr, type, arg, false) : RESIDUAL;
    case '$nin':
      return Array.isArray(arg) ? inList(expr, type, arg, true) : RESIDUAL;
    default:
      return RESIDUAL;
  }
}

/** `$options` is consumed with its `$regex`; alone it would be MongoDB's error, left to mingo. */
function patternOp(
  expr: string,
  type: ScalarType,
  op: '$regex' | '$options',
  operators: Record<string, unknown>,
): SqlCondition {
  if (op === '$regex') return pattern(expr, type, operators.$regex, operators.$options);
  return '$regex' in operators ? TRUE : RESIDUAL;
}

/**
 * `$regex` on a string field runs in SQL through `fleet_regexp(source, flags, value)` (the RE2
 * engine of query/pattern.ts, registered on the connection), so no document is decoded for it.
 * A literal prefix (`^web-0`) also becomes a range the field's index (or the primary key) serves.
 */
function pattern(expr: string, type: ScalarType, regex: unknown, options: unknown): SqlCondition {
  if (type !== 'string') return RESIDUAL;
  const spec =
    regex instanceof RegExp
      ? { source: regex.source, flags: [...regex.flags].filter((f) => 'ims'.includes(f)).join('') }
      : undefined;
  const source = spec?.source ?? (typeof regex === 'string' ? regex : undefined);
  if (source === undefined) return RESIDUAL;
  const flags = spec?.flags ?? (typeof options === 'string' ? options : '');
  const call = `${REGEXP_FUNCTION}(?, ?, ${expr})`;
  const prefix = literalPrefix(source, flags);
  if (prefix === '') return cond(call, [source, flags]);
  const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  // `^db-` alone: the range is the whole condition (an index answers it, counts included).
  if (isPrefixOnly(source, flags)) return cond(`(${expr} >= ? AND ${expr} < ?)`, [prefix, upper]);
  return cond(`(${expr} >= ? AND ${expr} < ? AND ${call})`, [prefix, upper, source, flags]);
}

function equals(expr: string, type: ScalarType, value: unknown): SqlCondition {
  // json_extract gives NULL both for JSON null and a missing field, as MongoDB's {f: null} matches.
  if (value === null) return cond(`${expr} IS NULL`, []);
  return withValue(type, value, (v) => cond(`${expr} = ?`, [v]));
}

const RANGE_SQL = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

/**
 * MongoDB compares only within a type ("type bracketing"); SQLite orders every number before
 * every text. The extra bound against '' (the smallest text) keeps a stray value of another type
 * out, and is itself a range bound the index serves.
 */
function range(expr: string, type: ScalarType, op: keyof typeof RANGE_SQL, arg: unknown): SqlCondition {
  if (type === 'boolean') return RESIDUAL;
  return withValue(type, arg, (v) => {
    const base = `${expr} ${RANGE_SQL[op]} ?`;
    const numeric = typeof v === 'number';
    if (expr === 'id' || (!numeric && (op === '$gt' || op === '$gte'))) return cond(base, [v]);
    return cond(`(${base} AND ${expr} ${numeric ? "< ''" : ">= ''"})`, [v]);
  });
}

function inList(expr: string, type: ScalarType, values: readonly unknown[], negate: boolean): SqlCondition {
  const bound: SqlValue[] = [];
  let hasNull = false;
  for (const value of values) {
    if (value === null) hasNull = true;
    else {
      const v = toSqlValue(type, value);
      if (v === undefined) return RESIDUAL;
      bound.push(v);
    }
  }
  const list =
    bound.length > 0 ? `${expr} ${negate ? 'NOT IN' : 'IN'} (${bound.map(() => '?').join(', ')})` : undefined;
  if (!negate) {
    const parts = [list, hasNull ? `${expr} IS NULL` : undefined].filter((p) => p !== undefined);
    return cond(parts.length === 0 ? '0' : `(${parts.join(' OR ')})`, bound);
  }
  // NOT IN is NULL (not true) for a NULL field, yet MongoDB's $nin matches a missing field.
  if (hasNull)
    return cond(list === undefined ? `${expr} IS NOT NULL` : `(${expr} IS NOT NULL AND ${list})`, bound);
  return list === undefined ? TRUE : cond(`(${expr} IS NULL OR ${list})`, bound);
}

/** Binds a value of the declared type; anything else (a regex, an array, a mismatched type) is residual. */
function withValue(type: ScalarType, value: unknown, build: (v: SqlValue) => SqlCondition): SqlCondition {
  const v = toSqlValue(type, value);
  return v === undefined ? RESIDUAL : build(v);
}

function toSqlValue(type: ScalarType, value: unknown): SqlValue | undefined {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'integer':
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'boolean':
      // json_extract yields 1/0 for JSON true/false.
      return typeof value === 'boolean' ? (value ? 1 : 0) : undefined;
    case 'datetime':
      return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : undefined;
  }
}

function cond(sql: string, params: readonly SqlValue[]): SqlCondition {
  return { sql, params, complete: true };
}

function and(parts: readonly SqlCondition[]): SqlCondition {
  const only = parts.filter((p) => p.sql !== undefined || !p.complete);
  if (only.length === 1 && only[0]?.listIds !== undefined) return only[0];
  const sqls = parts.map((p) => p.sql).filter((s): s is string => s !== undefined);
  return {
    sql: sqls.length === 0 ? undefined : sqls.join(' AND '),
    params: parts.flatMap((p) => p.params),
    complete: parts.every((p) => p.complete),
  };
}

/** A disjunction of supersets is a superset; a branch with no constraint makes the whole TRUE. */
function or(branches: readonly SqlCondition[]): SqlCondition {
  if (branches.some((b) => b.sql === undefined && b.complete)) return TRUE;
  if (branches.some((b) => b.sql === undefined)) return RESIDUAL;
  return {
    sql: `(${branches.map((b) => `(${b.sql ?? ''})`).join(' OR ')})`,
    params: branches.flatMap((b) => b.params),
    complete: branches.every((b) => b.complete),
  };
}

/** `{$gt: 1, $lt: 5}` rather than an embedded document to compare whole. */
function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}
