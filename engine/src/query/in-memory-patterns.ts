/**
 * `$regex` in the embedded store runs on the linear-time engine (query/pattern.ts), never on a
 * JavaScript `RegExp`. mingo would build `new RegExp($regex, $options)` itself (its `normalize`)
 * and backtrack, so before a filter reaches mingo every `{$regex, $options}` becomes
 * `{$patternMatch: {source, flags}}`, an operator registered below that mingo evaluates with the
 * compiled RE2 pattern. A `RegExp` object given by internal code goes the same way.
 */
import type { Context } from 'mingo';
import { $regex as mingoRegex } from 'mingo/operators/query/evaluation';
import type { Options } from 'mingo/types';
import type { Filter } from '../store/port';
import { isPlainObject } from '../values';
import { compilePattern } from './pattern';

/** The operator the rewritten filter uses; never sent to a client or stored. */
const PATTERN_OP = '$patternMatch';

interface PatternSpec {
  readonly source: string;
  readonly flags: string;
}

const LOGICAL = new Set(['$and', '$or', '$nor']);

/** Flags of a JS `RegExp` RE2 honours; `g`, `y`, `u`, `d`, `v` change nothing for a test. */
function regExpSpec(re: RegExp): PatternSpec {
  return { source: re.source, flags: [...re.flags].filter((f) => 'ims'.includes(f)).join('') };
}

/** A copy of `filter` in which every pattern is a {@link PATTERN_OP} operator. */
export function rewritePatterns(filter: Filter): Filter {
  const out: Filter = {};
  for (const [key, value] of Object.entries(filter)) {
    if (LOGICAL.has(key) && Array.isArray(value))
      out[key] = value.map((sub: unknown) => (isPlainObject(sub) ? rewritePatterns(sub) : sub));
    else if (key.startsWith('$')) out[key] = value;
    else out[key] = rewriteCondition(value);
  }
  return out;
}

function rewriteCondition(value: unknown): unknown {
  if (value instanceof RegExp) return { [PATTERN_OP]: regExpSpec(value) };
  if (!isPlainObject(value) || !Object.keys(value).some((k) => k.startsWith('$'))) return value;
  const out: Record<string, unknown> = {};
  for (const [op, arg] of Object.entries(value)) {
    if (op === '$regex') out[PATTERN_OP] = patternSpec(arg, value.$options);
    else if (op === '$options') continue;
    else if (op === '$not') out[op] = rewriteCondition(arg);
    else if (op === '$elemMatch' && isPlainObject(arg))
      out[op] = Object.keys(arg).every((k) => k.startsWith('$') && !LOGICAL.has(k))
        ? rewriteCondition(arg)
        : rewritePatterns(arg);
    else out[op] = arg;
  }
  return out;
}

function patternSpec(regex: unknown, options: unknown): PatternSpec {
  if (regex instanceof RegExp) return regExpSpec(regex);
  return { source: String(regex), flags: typeof options === 'string' ? options : '' };
}

/**
 * mingo's own `$regex` operator resolves the field (arrays included) and calls `exec` on its
 * argument; it is handed the RE2 pattern behind an `exec` of the same meaning.
 */
function patternMatch(
  selector: string,
  value: unknown,
  options: Options,
): (doc: Record<string, unknown>) => boolean {
  const spec = isPlainObject(value) ? value : {};
  const pattern = compilePattern(String(spec.source), typeof spec.flags === 'string' ? spec.flags : '');
  const exec = (input: string): string[] | null => (pattern.test(input) ? [input] : null);
  return mingoRegex(selector, { exec }, options);
}

/** A `RegExp` that reached mingo anyway (its `normalize` builds one) also runs on RE2. */
function regexOnRe2(
  selector: string,
  value: unknown,
  options: Options,
): (doc: Record<string, unknown>) => boolean {
  const spec = value instanceof RegExp ? regExpSpec(value) : { source: String(value), flags: '' };
  return patternMatch(selector, spec, options);
}

/** The query operators the adapter adds to mingo's, typed as `Context.init` takes them. */
export const PATTERN_OPERATORS: NonNullable<NonNullable<Parameters<typeof Context.init>[0]>['query']> = {
  [PATTERN_OP]: patternMatch,
  $regex: regexOnRe2,
};
