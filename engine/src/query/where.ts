/**
 * `where`: a MongoDB JSON filter, checked against the definition before it reaches a store.
 * Field names must be declared (dotted paths into sub-documents allowed), secret fields are refused,
 * operators come from an allow-list (`$where`, `$function`, `$accumulator`, `$expr` never run),
 * `$regex` runs on a linear-time engine (pattern.ts, regex-guard.ts), the JSON is size-bounded before
 * any recursion (bounds.ts), and string values of datetime fields become Dates.
 */
import type { PathIndex } from '../compile/paths';
import { resolvePath } from '../compile/paths';
import { BadRequest } from '../errors';
import { parseDate } from '../http/dates';
import { assertJsonBounds, WHERE_BOUNDS } from './bounds';
import { unsafeRegexReason } from './regex-guard';
import { isPlainObject } from '../values';

/** Operators on a field's value, and what each one takes. */
const FIELD_OPERATORS = {
  $eq: 'value',
  $ne: 'value',
  $gt: 'value',
  $gte: 'value',
  $lt: 'value',
  $lte: 'value',
  $in: 'values',
  $nin: 'values',
  $all: 'values',
  $exists: 'boolean',
  $regex: 'regex',
  $options: 'options',
  $not: 'operators',
  $elemMatch: 'filter',
  $size: 'integer',
  $type: 'type',
  $mod: 'mod',
} as const;
type OperandKind = (typeof FIELD_OPERATORS)[keyof typeof FIELD_OPERATORS];

const LOGICAL_OPERATORS = new Set(['$and', '$or', '$nor']);
const REFUSED = new Set(['$where', '$function', '$accumulator', '$expr', '$jsonSchema', '$text']);

/**
 * Path segments that name JavaScript's object machinery rather than data: an open sub-document
 * would otherwise let `grain.__proto__` through to the in-memory matcher, which rejects it with
 * its own text. Also used by `sort` and `projection` (params.ts).
 */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

type Json = unknown;

/** `$type` operands: MongoDB's aliases and numbers (https://www.mongodb.com/docs/manual/reference/operator/query/type/). */
const BSON_TYPES: ReadonlySet<string | number> = new Set<string | number>([
  ...[
    'double',
    'string',
    'object',
    'array',
    'binData',
    'undefined',
    'objectId',
    'bool',
    'date',
    'null',
    'regex',
  ],
  ...[
    'dbPointer',
    'javascript',
    'symbol',
    'javascriptWithScope',
    'int',
    'timestamp',
    'long',
    'decimal',
    'minKey',
    'maxKey',
    'number',
  ],
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, -1, 127],
]);

/** Options of the check: the path index of the resource and the soft-delete field, if any. */
export interface WhereContext {
  readonly paths: PathIndex;
  readonly extraFields?: readonly string[];
}

/** Parses and checks a `where` string; returns the filter ready for a store. */
export function parseWhere(raw: string, ctx: WhereContext): Record<string, unknown> {
  let parsed: Json;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new BadRequest('where: not valid JSON (expected a MongoDB filter object)');
  }
  if (!isPlainObject(parsed)) throw new BadRequest('where: must be a JSON object');
  assertJsonBounds(parsed, 'where', WHERE_BOUNDS);
  return checkFilter(parsed, ctx, 0);
}

/** Checks a filter document (top level or inside `$and`/`$or`/`$nor`/`$elemMatch`). */
export function checkFilter(
  filter: Record<string, Json>,
  ctx: WhereContext,
  depth: number,
  prefix = '',
): Record<string, unknown> {
  if (depth > 16) throw new BadRequest('where: nested too deeply');
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key.startsWith('$')) {
      if (REFUSED.has(key)) throw new BadRequest(`where: operator ${key} is not allowed`);
      if (!LOGICAL_OPERATORS.has(key)) throw new BadRequest(`where: unknown or unsupported operator ${key}`);
      if (!Array.isArray(value) || value.length === 0 || !value.every(isPlainObject)) {
        throw new BadRequest(`where: ${key} expects a non-empty list of filter objects`);
      }
      out[key] = value.map((sub) => checkFilter(sub, ctx, depth + 1, prefix));
      continue;
    }
    const path = prefix + key;
    const kind = fieldKindOf(path, ctx);
    out[key] = checkCondition(path, kind, value, ctx, depth);
  }
  return out;
}

/** The declared kind of a path; throws 400 for unknown or secret paths. */
function fieldKindOf(path: string, ctx: WhereContext): string {
  if (ctx.extraFields?.includes(path)) return 'boolean';
  if (path.split('.').some((segment) => FORBIDDEN_SEGMENTS.has(segment)))
    throw new BadRequest(`where: field "${path}" is not allowed`);
  const info = resolvePath(ctx.paths, path);
  if (info === null) throw new BadRequest(`where: unknown field "${path}"`);
  if (info === 'open') {
    const secret = secretAncestor(ctx.paths, path);
    if (secret !== undefined)
      throw new BadRequest(
        `where: field "${path}" is inside the secret field "${secret}" and cannot be queried`,
      );
    return 'open';
  }
  if (info.secret) throw new BadRequest(`where: field "${path}" is secret and cannot be queried`);
  if (info.field.kind === 'array') return `array:${info.field.of.kind}`;
  return info.field.kind;
}

/**
 * The declared secret field a path under an open object passes through, if any: in
 * `vpnsrv_representation.auth_token.length` the open object lets any sub-path through, yet it
 * would match on the sealed value of `auth_token` (its length, its characters) like the field itself.
 */
export function secretAncestor(paths: PathIndex, path: string): string | undefined {
  // Numeric segments address array elements and are not part of a declared path (paths.ts).
  const segments = path.split('.').filter((segment) => !/^\d+$/.test(segment));
  for (let i = segments.length - 1; i > 0; i--) {
    const prefix = segments.slice(0, i).join('.');
    if (paths.byPath.get(prefix)?.secret === true) return prefix;
  }
  return undefined;
}

function checkCondition(path: string, kind: string, value: Json, ctx: WhereContext, depth: number): unknown {
  if (!isPlainObject(value) || !Object.keys(value).some((k) => k.startsWith('$')))
    return coerceValue(path, kind, value);
  const out: Record<string, unknown> = {};
  for (const [op, operand] of Object.entries(value)) {
    if (REFUSED.has(op)) throw new BadRequest(`where: operator ${op} is not allowed`);
    const takes: OperandKind | undefined = (FIELD_OPERATORS as Record<string, OperandKind>)[op];
    if (!takes) throw new BadRequest(`where: unknown or unsupported operator ${op} on "${path}"`);
    out[op] = checkOperand({ path, kind, op, takes, operand, siblings: value, ctx, depth });
  }
  return out;
}

interface OperandCheck {
  path: string;
  kind: string;
  op: string;
  takes: OperandKind;
  operand: Json;
  siblings: Record<string, Json>;
  ctx: WhereContext;
  depth: number;
}

function checkOperand(c: OperandCheck): unknown {
  const bad = (why: string): never => {
    throw new BadRequest(`where: ${c.op} on "${c.path}" ${why}`);
  };
  switch (c.takes) {
    case 'value':
      return coerceValue(c.path, c.kind, c.operand);
    case 'values':
      if (!Array.isArray(c.operand)) return bad('expects an array');
      return c.operand.map((v) => coerceValue(c.path, c.kind, v));
    case 'boolean':
      return typeof c.operand === 'boolean'
        ? c.operand
        : c.operand === 1 || c.operand === 0
          ? c.operand === 1
          : bad('expects true or false');
    case 'integer':
      return Number.isInteger(c.operand) ? c.operand : bad('expects an integer');
    case 'type':
      return (typeof c.operand === 'string' || typeof c.operand === 'number') && BSON_TYPES.has(c.operand)
        ? c.operand
        : bad('expects a BSON type name or number (like "string" or 2)');
    case 'mod':
      return Array.isArray(c.operand) &&
        c.operand.length === 2 &&
        c.operand.every(Number.isInteger) &&
        c.operand[0] !== 0
        ? c.operand
        : bad('expects [divisor, remainder] with a non-zero divisor');
    case 'options':
      if (typeof c.operand !== 'string') return bad('expects a string of flags');
      if (c.siblings.$regex === undefined) return bad('needs a $regex beside it');
      return /^[ims]*$/.test(c.operand)
        ? c.operand
        : bad(`accepts only the flags i, m and s, got "${c.operand}"`);
    case 'regex': {
      if (typeof c.operand !== 'string') return bad('expects a string pattern');
      // A bad `$options` is reported by its own case, whichever key comes first.
      const options = c.siblings.$options;
      const why = unsafeRegexReason(
        c.operand,
        typeof options === 'string' && /^[ims]*$/.test(options) ? options : '',
      );
      return why ? bad(`refused: ${why}`) : c.operand;
    }
    case 'operators':
      if (!isPlainObject(c.operand)) return bad('expects an operator object');
      return checkCondition(c.path, c.kind, c.operand, c.ctx, c.depth + 1);
    case 'filter':
      if (!isPlainObject(c.operand)) return bad('expects a filter object');
      return c.kind.startsWith('array:object')
        ? checkFilter(c.operand, c.ctx, c.depth + 1, `${c.path}.`)
        : checkCondition(c.path, c.kind.replace(/^array:/, ''), c.operand, c.ctx, c.depth + 1);
  }
}

/** Datetime fields take RFC 1123 / ISO strings; everything else passes as given. */
function coerceValue(path: string, kind: string, value: Json): unknown {
  if ((kind === 'datetime' || kind === 'array:datetime') && typeof value === 'string') {
    const date = parseDate(value);
    if (!date) throw new BadRequest(`where: "${path}" expects a date (RFC 1123 or ISO 8601), got "${value}"`);
    return date;
  }
  if (isPlainObject(value) && kind.startsWith('array:object')) return value;
  return value;
}
