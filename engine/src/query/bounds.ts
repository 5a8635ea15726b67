/**
 * Size bounds on parsed JSON (query parameters and request bodies), checked with an explicit stack
 * before anything recursive (the filter check, the validator, the store, mingo, SQLite's parser)
 * sees the value. A `where` nested 2,500 deep or an `$in` nested 7,000 deep used to overflow the
 * call stack further on; here it is a 400 naming the parameter. The limits are documented in
 * docs/limits.md.
 */
import { BadRequest } from '../errors';

/** The bounds of one JSON value. */
export interface JsonBounds {
  /** Deepest nesting of objects and arrays (the value itself is level 1). */
  readonly maxDepth: number;
  /** Longest array (an `$in` list, the branches of an `$or`). */
  readonly maxArray: number;
  /** Most keys in one object. */
  readonly maxKeys: number;
  /** Most values in all (objects, arrays and scalars): bounds the SQL a filter becomes. */
  readonly maxNodes: number;
  /** Longest key of an object, in characters (unbounded when absent). */
  readonly maxKeyLength?: number;
}

/**
 * `where`: 32 levels is far beyond any real filter (a few `$and`/`$or` levels over `$elemMatch`);
 * 1,000 items per list matches the largest page; 5,000 values in all keep the SQL a filter becomes
 * under SQLite's limits (32,766 bound values, expression depth 1,000) and mingo's work per document small.
 */
export const WHERE_BOUNDS: JsonBounds = { maxDepth: 32, maxArray: 1000, maxKeys: 200, maxNodes: 5000 };

/** `projection` and `embedded`: a flat object of flags. */
export const FLAT_BOUNDS: JsonBounds = { maxDepth: 2, maxArray: 200, maxKeys: 200, maxNodes: 1000 };

/** Most fields of one body: keys of a JSON object, fields of a form, text parts of a multipart body. */
export const MAX_BODY_KEYS = 1000;
/** Longest key of a body (a field name, a dotted path, a multipart part's name), in characters. */
export const MAX_BODY_KEY_LENGTH = 256;
/** Most bytes of a JSON or form body, and of all the text parts of a multipart body together. */
export const MAX_BODY_TEXT_BYTES = 1024 * 1024;

/**
 * Request bodies, whatever their media type (JSON, a form, the text parts of a multipart body).
 * 32 levels is far beyond any resource (the deepest, a task's `kwarg`, is a few levels), and keeps
 * every recursive walk of a body (the validator, the merge, the issues of a 422, the stores' JSON:
 * SQLite's json functions stop at 1,000 levels) far from its limit. Arrays and values in all are
 * bounded by the byte size ({@link MAX_BODY_TEXT_BYTES}); bulk POSTs have their own cap.
 */
export const BODY_BOUNDS: JsonBounds = {
  maxDepth: 32,
  maxArray: Number.POSITIVE_INFINITY,
  maxKeys: MAX_BODY_KEYS,
  maxNodes: Number.POSITIVE_INFINITY,
  maxKeyLength: MAX_BODY_KEY_LENGTH,
};

/** Most `sort` terms: SQLite's ORDER BY allows 2,000 and MongoDB 32 keys; ours is MongoDB's. */
export const MAX_SORT_TERMS = 32;

/** One value on the walk's stack: its depth, and whether it is a document (or a list of them) whose dotted keys nest. */
type Entry = readonly [node: unknown, depth: number, document: boolean];

/** A key as it may be quoted back to a client: short, whatever its length. */
function quoted(key: string): string {
  return JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}...` : key);
}

/** Checks the keys of one object against the key bounds; throws naming `param`. */
function checkKeys(keys: readonly string[], param: string, bounds: JsonBounds): void {
  if (keys.length > bounds.maxKeys)
    throw new BadRequest(
      `${param}: an object has ${keys.length} keys, more than the ${bounds.maxKeys} allowed`,
    );
  const limit = bounds.maxKeyLength;
  if (limit === undefined) return;
  const long = keys.find((k) => k.length > limit);
  if (long !== undefined)
    throw new BadRequest(`${param}: a key is longer than ${limit} characters (${quoted(long)})`);
}

/** The entries of an object below it on the walk, once its keys are checked. */
function objectChildren(node: object, at: Entry, param: string, bounds: JsonBounds): Entry[] {
  const [, depth, document] = at;
  const entries = Object.entries(node);
  checkKeys(
    entries.map(([k]) => k),
    param,
    bounds,
  );
  return entries.map(([key, child]): Entry => {
    // A document's dotted key becomes that many levels (`{"spec.volts": 12}` is `{"spec": {"volts": 12}}`).
    const levels = document ? key.split('.').length : 1;
    if (depth + levels - 1 > bounds.maxDepth)
      throw new BadRequest(
        `${param}: nested deeper than ${bounds.maxDepth} levels (the key ${quoted(key)} names ${levels} levels)`,
      );
    return [child, depth + levels, false];
  });
}

/** The walk shared by every bound: an explicit stack, so no input can overflow the call stack. */
function walk(start: readonly Entry[], param: string, bounds: JsonBounds): void {
  const stack: Entry[] = [...start];
  let nodes = 0;
  while (stack.length > 0) {
    const entry = stack.pop() as Entry;
    const [node, depth, document] = entry;
    nodes += 1;
    if (nodes > bounds.maxNodes)
      throw new BadRequest(`${param}: too large (more than ${bounds.maxNodes} values in all)`);
    if (typeof node !== 'object' || node === null) continue;
    if (depth > bounds.maxDepth)
      throw new BadRequest(`${param}: nested deeper than ${bounds.maxDepth} levels`);
    if (!Array.isArray(node)) {
      for (const child of objectChildren(node, entry, param, bounds)) stack.push(child);
      continue;
    }
    if (node.length > bounds.maxArray)
      throw new BadRequest(
        `${param}: a list has ${node.length} items, more than the ${bounds.maxArray} allowed`,
      );
    // The items of a bulk POST's array are documents as the body itself is.
    for (const child of node as unknown[]) stack.push([child, depth + 1, document]);
  }
}

/** Throws `BadRequest` naming `param` when `value` exceeds `bounds`; never recurses. */
export function assertJsonBounds(value: unknown, param: string, bounds: JsonBounds): void {
  walk([[value, 1, false]], param, bounds);
}

/**
 * Bounds a request body (an object, or the array of a bulk POST) by {@link BODY_BOUNDS}, whatever
 * media type it came in. A dotted key of a document counts one level per segment, since the
 * validator nests it (`payload.a.a=1` is `{"payload": {"a": {"a": 1}}}`).
 */
export function assertBodyBounds(body: unknown, param = 'body'): void {
  walk([[body, 1, true]], param, BODY_BOUNDS);
}
