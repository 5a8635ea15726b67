/**
 * Size bounds on parsed query JSON, checked with an explicit stack before anything recursive
 * (the filter check, the store, mingo, SQLite's parser) sees the value. A `where` nested 2,500
 * deep or an `$in` nested 7,000 deep used to overflow the call stack further on (issue 8);
 * here it is a 400 naming the parameter. The limits are documented in docs/limits.md.
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
}

/**
 * `where`: 32 levels is far beyond any real filter (a few `$and`/`$or` levels over `$elemMatch`);
 * 1,000 items per list matches the largest page; 5,000 values in all keep the SQL a filter becomes
 * under SQLite's limits (32,766 bound values, expression depth 1,000) and mingo's work per document small.
 */
export const WHERE_BOUNDS: JsonBounds = { maxDepth: 32, maxArray: 1000, maxKeys: 200, maxNodes: 5000 };

/** `projection` and `embedded`: a flat object of flags. */
export const FLAT_BOUNDS: JsonBounds = { maxDepth: 2, maxArray: 200, maxKeys: 200, maxNodes: 1000 };

/**
 * Request bodies (JSON, and JSON text parts): the depth only. 32 levels is far beyond any resource
 * (the deepest, a task's `kwarg`, is a few levels), and keeps every recursive walk of a body (the
 * validator, the merge, the stores' JSON: SQLite's json functions stop at 1,000 levels) far from
 * its limit. The size is the body parser's byte limit (1 MB); bulk POSTs have their own cap.
 */
export const BODY_BOUNDS: JsonBounds = {
  maxDepth: 32,
  maxArray: Number.POSITIVE_INFINITY,
  maxKeys: Number.POSITIVE_INFINITY,
  maxNodes: Number.POSITIVE_INFINITY,
};

/** Most `sort` terms: SQLite's ORDER BY allows 2,000 and MongoDB 32 keys; ours is MongoDB's. */
export const MAX_SORT_TERMS = 32;

/** Throws `BadRequest` naming `param` when `value` exceeds `bounds`; never recurses. */
export function assertJsonBounds(value: unknown, param: string, bounds: JsonBounds): void {
  const stack: [unknown, number][] = [[value, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    nodes += 1;
    if (nodes > bounds.maxNodes)
      throw new BadRequest(`${param}: too large (more than ${bounds.maxNodes} values in all)`);
    if (typeof node !== 'object' || node === null) continue;
    if (depth > bounds.maxDepth)
      throw new BadRequest(`${param}: nested deeper than ${bounds.maxDepth} levels`);
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    if (Array.isArray(node) && node.length > bounds.maxArray) {
      throw new BadRequest(
        `${param}: a list has ${node.length} items, more than the ${bounds.maxArray} allowed`,
      );
    }
    if (!Array.isArray(node) && children.length > bounds.maxKeys) {
      throw new BadRequest(
        `${param}: an object has ${children.length} keys, more than the ${bounds.maxKeys} allowed`,
      );
    }
    for (const child of children) stack.push([child, depth + 1]);
  }
}
