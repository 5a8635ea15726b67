/**
 * The six common query parameters (`where`, `sort`, `projection`, `embedded`, `page`,
 * `max_results`), parsed and checked against a compiled resource. Unlike Eve, a malformed value is
 * a 400 naming the parameter, never silently replaced by a default.
 */
import type { CompiledResource } from '../compile/compile';
import { resolvePath } from '../compile/paths';
import { BadRequest } from '../errors';
import type { SortSpec } from '../store/port';
import { assertJsonBounds, FLAT_BOUNDS, MAX_SORT_TERMS } from './bounds';
import { memoized } from './memo';
import { isPlainObject } from '../values';
import { FORBIDDEN_SEGMENTS, parseWhere, secretAncestor } from './where';

export type RawQuery = Readonly<Record<string, unknown>>;

export const COMMON_PARAMS = ['where', 'sort', 'projection', 'embedded', 'page', 'max_results'] as const;

/** What a boolean-like query parameter accepts (`show_soft_deleted`, `mark_as_read`), in any case. */
export const BOOLEAN_PARAM_VALUES = ['true', 'false', '1', '0'] as const;

/**
 * A boolean-like query parameter: absent is false; `true` / `1` and `false` / `0` (any case) say
 * so; anything else is a 400 naming the parameter (a typo must not silently mean "yes").
 */
export function booleanParam(name: string, value: unknown): boolean {
  if (value === undefined) return false;
  const text = typeof value === 'string' ? value.toLowerCase() : undefined;
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw new BadRequest(`${name}: give it once, as true, false, 1 or 0`);
}

export interface Limits {
  readonly defaultMaxResults: number;
  readonly paginationLimit: number;
}

/** One query parameter as a single string; repeated values are a 400. */
export function single(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  throw new BadRequest(`${name}: give the parameter once, as a plain value`);
}

/** `page` / `max_results`: a whole number >= 1. */
export function parsePositiveInt(query: RawQuery, name: string, fallback: number): number {
  const raw = single(query, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new BadRequest(`${name}: must be a whole number >= 1, got "${raw}"`);
  }
  return Number(raw);
}

/** Checks a sort/projection field: declared, not secret. */
function checkField(res: CompiledResource, param: string, path: string, allowSecret: boolean): void {
  if (path.split('.').some((segment) => FORBIDDEN_SEGMENTS.has(segment)))
    throw new BadRequest(`${param}: field "${path}" is not allowed`);
  const info = resolvePath(res.paths, path);
  const isSoftDelete = res.softDelete?.field === path;
  if (info === null && !isSoftDelete) throw new BadRequest(`${param}: unknown field "${path}"`);
  if (info !== null && info !== 'open' && info.secret && !allowSecret) {
    throw new BadRequest(`${param}: field "${path}" is secret and cannot be used`);
  }
  // A path below a secret inside an open object (`vpnsrv_representation.otp_secret.x`) is the secret too.
  const secret = allowSecret ? undefined : secretAncestor(res.paths, path);
  if (secret !== undefined)
    throw new BadRequest(`${param}: field "${path}" lies in the secret field "${secret}" and cannot be used`);
}

/** `sort`: `a,-b` or Eve's `[("a", 1), ("b", -1)]`. */
export function parseSort(res: CompiledResource, raw: string | undefined): SortSpec | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const spec: [string, 1 | -1][] = [];
  const trimmed = raw.trim();
  if (trimmed.startsWith('[')) {
    const pair = /\(\s*["']([^"']+)["']\s*,\s*(-?1)\s*\)/g;
    const body = trimmed.slice(1, -1).trim();
    let m: RegExpExecArray | null;
    while ((m = pair.exec(body)) !== null) spec.push([m[1] ?? '', m[2] === '-1' ? -1 : 1]);
    if (!trimmed.endsWith(']') || spec.length === 0 || body.replace(pair, '').replace(/[\s,]/g, '') !== '') {
      throw new BadRequest('sort: expected "field,-other" or [("field", 1), ("other", -1)]');
    }
  } else {
    for (const part of trimmed.split(',')) {
      const name = part.trim();
      if (name === '' || name === '-') throw new BadRequest('sort: empty field name');
      spec.push(name.startsWith('-') ? [name.slice(1), -1] : [name, 1]);
    }
  }
  if (spec.length > MAX_SORT_TERMS)
    throw new BadRequest(`sort: at most ${MAX_SORT_TERMS} fields, got ${spec.length}`);
  for (const [field] of spec) checkField(res, 'sort', field, false);
  return spec;
}

function parseJsonObject(param: string, raw: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new BadRequest(`${param}: not valid JSON (expected an object like {"field": 1})`);
  }
  if (!isPlainObject(value)) throw new BadRequest(`${param}: must be a JSON object`);
  assertJsonBounds(value, param, FLAT_BOUNDS);
  return value;
}

/** `projection`: all 1 (inclusive) or all 0 (exclusive); meta fields always stay. */
export function parseProjection(
  res: CompiledResource,
  raw: string | undefined,
): Record<string, 0 | 1> | undefined {
  if (raw === undefined) return undefined;
  const value = parseJsonObject('projection', raw);
  const out: Record<string, 0 | 1> = {};
  for (const [field, flag] of Object.entries(value)) {
    if (flag !== 0 && flag !== 1 && flag !== true && flag !== false)
      throw new BadRequest(`projection: "${field}" must be 0 or 1`);
    checkField(res, 'projection', field, true);
    if (['_id', '_created', '_updated', '_etag'].includes(field)) continue;
    out[field] = flag === 1 || flag === true ? 1 : 0;
  }
  const flags = new Set(Object.values(out));
  if (flags.size > 1)
    throw new BadRequest('projection: mix of inclusion (1) and exclusion (0) is not allowed');
  assertNoOverlap(Object.keys(out));
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * A field and a path inside it (`grain` and `grain.os`) are one request made twice with two
 * meanings: the stores refuse them ("path collision"), so it is refused here, naming both.
 */
function assertNoOverlap(paths: readonly string[]): void {
  const sorted = [...paths].sort();
  for (let i = 1; i < sorted.length; i++) {
    const [outer, inner] = [sorted[i - 1] ?? '', sorted[i] ?? ''];
    if (inner.startsWith(`${outer}.`))
      throw new BadRequest(
        `projection: "${outer}" and "${inner}" overlap (one lies inside the other): give one of them`,
      );
  }
}

/**
 * Lists leave some fields out unless a projection asks for them (a host's `grain`): an exclusion
 * of a path inside one cannot be met (its field is not there to take the path out of, and asking
 * for the field as well is a mix of 1 and 0), so it is refused saying what to ask for instead.
 */
function assertReachableInList(res: CompiledResource, projection: Readonly<Record<string, 0 | 1>>): void {
  for (const [path, flag] of Object.entries(projection)) {
    const top = path.split('.', 1)[0] ?? '';
    if (flag === 0 && path !== top && res.hiddenInList.includes(top))
      throw new BadRequest(
        `projection: "${path}" lies in "${top}", which lists leave out unless a projection asks for it, so it cannot be excluded there: name the fields of "${top}" wanted instead ({"${top}.<field>": 1}), or read one item`,
      );
  }
}

/** `embedded`: `{"field": 1}` on declared relations only. */
export function parseEmbedded(res: CompiledResource, raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const value = parseJsonObject('embedded', raw);
  const fields: string[] = [];
  for (const [field, flag] of Object.entries(value)) {
    if (!res.relations.some((r) => r.field === field)) {
      throw new BadRequest(
        `embedded: "${field}" is not a relation of ${res.name} (relations: ${res.relations.map((r) => r.field).join(', ') || 'none'})`,
      );
    }
    if (flag !== 0 && flag !== 1 && flag !== true && flag !== false)
      throw new BadRequest(`embedded: "${field}" must be 0 or 1`);
    if (flag === 1 || flag === true) fields.push(field);
  }
  return fields;
}

/** The parsed list parameters. */
export interface ListParams {
  readonly where?: Record<string, unknown>;
  readonly sort?: SortSpec;
  readonly projection?: Record<string, 0 | 1>;
  readonly embedded: readonly string[];
  readonly page: number;
  readonly maxResults: number;
}

/** The same parse of the same text (memo.ts); `undefined` when the parameter is absent. */
function remembered<T>(
  res: CompiledResource,
  kind: string,
  raw: string | undefined,
  parse: (raw: string) => T,
): T | undefined {
  return raw === undefined ? undefined : memoized(res, kind, raw, () => parse(raw));
}

const NO_EMBEDDED: readonly string[] = Object.freeze([]);

/** Parses every common parameter of a collection GET. */
export function parseListParams(res: CompiledResource, query: RawQuery, limits: Limits): ListParams {
  const rawWhere = single(query, 'where');
  const extraFields = res.softDelete ? [res.softDelete.field] : [];
  const where =
    rawWhere === undefined || rawWhere.trim() === ''
      ? undefined
      : remembered(res, 'where', rawWhere, (raw) => parseWhere(raw, { paths: res.paths, extraFields }));
  const sort = remembered(res, 'sort', single(query, 'sort'), (raw) => parseSort(res, raw));
  const projection = remembered(res, 'projection', single(query, 'projection'), (raw) =>
    parseProjection(res, raw),
  );
  if (projection) assertReachableInList(res, projection);
  const requested = parsePositiveInt(query, 'max_results', limits.defaultMaxResults);
  const maxResults = Math.min(requested, limits.paginationLimit);
  const page = parsePositiveInt(query, 'page', 1);
  // The store skips (page - 1) x max_results items: past 2^53 that is no longer an exact integer.
  if ((page - 1) * maxResults > Number.MAX_SAFE_INTEGER)
    throw new BadRequest(`page: too large for max_results=${maxResults}`);
  return {
    ...(where ? { where } : {}),
    ...(sort ? { sort } : {}),
    ...(projection ? { projection } : {}),
    embedded:
      remembered(res, 'embedded', single(query, 'embedded'), (raw) => parseEmbedded(res, raw)) ?? NO_EMBEDDED,
    page,
    maxResults,
  };
}

/** Parses the parameters an item GET accepts (`projection`, `embedded`). */
export function parseItemParams(
  res: CompiledResource,
  query: RawQuery,
): Pick<ListParams, 'projection' | 'embedded'> {
  const projection = remembered(res, 'projection', single(query, 'projection'), (raw) =>
    parseProjection(res, raw),
  );
  return {
    ...(projection ? { projection } : {}),
    embedded:
      remembered(res, 'embedded', single(query, 'embedded'), (raw) => parseEmbedded(res, raw)) ?? NO_EMBEDDED,
  };
}
