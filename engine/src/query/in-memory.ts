/**
 * Filters, sorts, projections, updates and pipelines evaluated in memory, with the embedded
 * store's semantics (it runs them here) and for code that tests a checked `where` on values it
 * holds. The one place mingo is called: shared options (no server-side JavaScript, patterns on
 * the linear-time engine) and the translation of mingo's errors (a malformed filter, update or
 * pipeline) into `BadRequest` with our own words: mingo's text never reaches a client.
 */
import { aggregate as mingoAggregate, Context, find as mingoFind, Query, update as mingoUpdate } from 'mingo';
import type { Options } from 'mingo/types';
import { MingoError } from 'mingo/util';
import { BadRequest } from '../errors';
import type { Doc, Filter, Projection, SortSpec } from '../store/port';
import { isPlainObject } from '../values';
import { PATTERN_OPERATORS, rewritePatterns } from './in-memory-patterns';

/** `$where`, `$function` and `$accumulator` run JavaScript: never from a stored query. */
const OPTIONS: Partial<Options> = {
  scriptEnabled: false,
  context: Context.init({ query: PATTERN_OPERATORS }),
};

/** mingo's messages (matched by their text) in our words; anything else gets the generic one. */
const MINGO_MESSAGES: ReadonlyArray<readonly [RegExp, string]> = [
  [/__proto__|prototype|constructor/, 'a field name may not be __proto__, constructor or prototype'],
  [/unknown (top level |query )?operator/i, 'the filter uses an operator the store does not support'],
  [/\$mod/, '$mod expects [divisor, remainder] with a non-zero divisor'],
];

/** Runs `fn`, turning mingo's own errors (bad operator, bad argument) into a 400 of ours. */
export function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof MingoError) {
      const known = MINGO_MESSAGES.find(([re]) => re.test(error.message));
      throw new BadRequest(
        known?.[1] ??
          'the filter, sort or update could not be evaluated: an operator got a value of the wrong type',
      );
    }
    throw error;
  }
}

/** A compiled filter's predicate. */
export function compileFilter(filter: Filter): (doc: Doc) => boolean {
  const query = guard(() => new Query(rewritePatterns(filter), OPTIONS));
  return (doc) => guard(() => query.test(doc));
}

/** The mingo sort object, with `_id` as the last tie-breaker like the SQL ORDER BY. */
export function sortObject(sort: SortSpec): Record<string, 1 | -1> {
  const spec: Record<string, 1 | -1> = {};
  for (const [path, dir] of sort) spec[path] = dir;
  if (!('_id' in spec)) spec._id = 1;
  return spec;
}

/** Filters, sorts and pages in memory. */
export function findInMemory(
  docs: readonly Doc[],
  filter: Filter,
  page: { sort: SortSpec; skip: number; limit: number },
): Doc[] {
  return guard(() => {
    let cursor = mingoFind<Doc>([...docs], rewritePatterns(filter), undefined, OPTIONS)
      .sort(sortObject(page.sort))
      .skip(page.skip);
    if (page.limit > 0) cursor = cursor.limit(page.limit);
    return cursor.all();
  });
}

/** Applies a projection (already normalised: no `_id` key, all 1 or all 0). */
export function project(docs: readonly Doc[], projection: Projection): Doc[] {
  return guard(() => mingoFind<Doc>([...docs], {}, projection, OPTIONS).all());
}

/** Applies update operators in place; resolves the paths mingo reports as changed. */
export function applyOperators(doc: Doc, modifier: Record<string, unknown>): string[] {
  return guard(() => mingoUpdate(doc, modifier, undefined, undefined, { queryOptions: OPTIONS }));
}

/** Runs an aggregation pipeline over documents already in memory. */
export function aggregateInMemory(
  docs: readonly Doc[],
  pipeline: readonly Record<string, unknown>[],
): Record<string, unknown>[] {
  const stages = pipeline.map((stage) =>
    isPlainObject(stage.$match) ? { ...stage, $match: rewritePatterns(stage.$match) } : stage,
  );
  return guard(() => mingoAggregate([...docs], stages, OPTIONS));
}
