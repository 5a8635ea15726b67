/**
 * `$regex` on MongoDB. The query layer checks every pattern on RE2 (engine/src/query/pattern.ts),
 * but the server runs it on PCRE, a backtracking engine: a pattern RE2 runs in one pass can cost
 * PCRE steps that grow with a power of the value's length. PCRE gives up at its match limit
 * (10,000,000 steps by default) and MongoDB then counts the value as *not matching*, silently
 * (`RegexMatchExpression::matchesSingleElement` returns the match's success only): a wrong answer,
 * after seconds of work per document. So, on this store only:
 *
 * - a pattern with more than {@link MAX_OPEN_REPEATS} open-ended repetitions (`*`, `+`, `{n,}`,
 *   or `{n,m}` with a wide range) in one alternative is refused with a 400 naming `where`: each one
 *   can hand characters to the next, and the work grows with the value's length to their number
 *   (`.*.*.*.*.*.*.*e$`: seven);
 * - the escapes and anchors whose meaning differs are rewritten to what RE2 means: `$` (without
 *   `m`) is the very end of the value (`\z`; PCRE's `$` also matches before a final line break),
 *   `\s` is `[\t\n\f\r ]` (PCRE's also takes the vertical tab), `\v` is the vertical tab alone
 *   (PCRE's is every vertical space).
 *
 * What still differs is documented in docs/mongodb.md ("Patterns").
 */
import mongoose from 'mongoose';
import { BadRequest } from '../../errors';
import type { Filter } from '../port';
import { isPlainObject } from '../../values';

/** Open-ended repetitions one alternative of a pattern may have on MongoDB. */
export const MAX_OPEN_REPEATS = 3;
/** A bounded repetition `{n,m}` whose range is wider than this counts as open-ended. */
const WIDE_RANGE = 10;

const { BSONRegExp } = mongoose.mongo.BSON;

/** Group nesting while counting: the best finished alternative, and the one being read. */
interface Level {
  best: number;
  current: number;
}

/** The length of a `{n}`, `{n,}` or `{n,m}` at `i`, and whether it is open-ended; undefined when it is a literal `{`. */
function braceRepeat(source: string, i: number): { length: number; open: boolean } | undefined {
  const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
  if (!match) return undefined;
  const low = Number(match[1]);
  const open = match[2] !== undefined && (match[3] === '' || Number(match[3]) - low > WIDE_RANGE);
  return { length: match[0].length, open };
}

/** The index after a character class starting at `i` (`[...]`, `]` first is literal, escapes skipped). */
function classEnd(source: string, i: number): number {
  let j = i + 1;
  if (source[j] === '^') j++;
  if (source[j] === ']') j++;
  for (; j < source.length && source[j] !== ']'; j++) if (source[j] === '\\') j++;
  return j + 1;
}

/**
 * The most open-ended repetitions any one way through the pattern meets: alternatives count
 * apart (the largest wins), a repeated group counts once more than its content.
 */
export function openRepeats(source: string): number {
  const stack: Level[] = [{ best: 0, current: 0 }];
  const top = (): Level => stack[stack.length - 1] ?? { best: 0, current: 0 };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const quoteEnd = source[i + 1] === 'Q' ? source.indexOf('\\E', i + 2) : i + 1;
      i = quoteEnd < 0 ? source.length : quoteEnd + (source[i + 1] === 'Q' ? 1 : 0);
    } else if (c === '[') i = classEnd(source, i) - 1;
    else if (c === '(') stack.push({ best: 0, current: 0 });
    else if (c === '|') {
      const level = top();
      level.best = Math.max(level.best, level.current);
      level.current = 0;
    } else if (c === ')' && stack.length > 1) {
      const group = stack.pop() ?? { best: 0, current: 0 };
      // A quantifier right after the group adds one more, read as the next character.
      top().current += Math.max(group.best, group.current);
    } else {
      const brace = c === '{' ? braceRepeat(source, i) : undefined;
      if (c === '*' || c === '+' || brace?.open === true) top().current += 1;
      if (brace) i += brace.length - 1;
      if (source[i + 1] === '?' && (c === '*' || c === '+' || c === '?' || brace)) i++;
    }
  }
  const root = top();
  return Math.max(root.best, root.current);
}

/** Rewrites one escape (`\s`, `\S`, `\v`) for PCRE; undefined when it means the same on both. */
function escapeFor(letter: string, inClass: boolean): string | undefined {
  if (letter === 'v') return '\\x0b';
  if (letter === 's') return inClass ? '\\t\\n\\f\\r ' : '[\\t\\n\\f\\r ]';
  if (letter === 'S' && !inClass) return '[^\\t\\n\\f\\r ]';
  return undefined;
}

/** The pattern as PCRE must see it to mean what RE2 means (see above). `multiline`: the `m` flag. */
export function pcreSource(source: string, multiline: boolean): string {
  const dollarIsEnd = !multiline && !/\(\?[a-zA-Z]*m/.test(source);
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] ?? '';
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (next === 'Q') {
        const end = source.indexOf('\\E', i + 2);
        const stop = end < 0 ? source.length : end + 2;
        out += source.slice(i, stop);
        i = stop - 1;
        continue;
      }
      out += escapeFor(next, inClass) ?? `\\${next}`;
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      // The opener, a negation and a leading `]` (a literal there) verbatim; the rest escape by escape.
      inClass = true;
      out += c;
      if (source[i + 1] === '^') out += source[++i];
      if (source[i + 1] === ']') out += source[++i];
    } else out += c === '$' && dollarIsEnd ? '\\z' : c;
  }
  return out;
}

/** A pattern checked for MongoDB: refused (400 naming `where` and the field) or rewritten. */
function checked(path: string, source: string, options: string): string {
  const repeats = openRepeats(source);
  if (repeats > MAX_OPEN_REPEATS)
    throw new BadRequest(
      `where: the pattern on "${path}" has ${repeats} open-ended repetitions (*, +, {n,}) in a row of alternatives; MongoDB runs patterns on a backtracking engine, so at most ${MAX_OPEN_REPEATS} are accepted there`,
    );
  return pcreSource(source, options.includes('m'));
}

/** A JavaScript RegExp as the BSON regex PCRE gets: its source rewritten, only the flags MongoDB knows. */
function bsonRegex(path: string, re: RegExp): InstanceType<typeof BSONRegExp> {
  const flags = [...re.flags].filter((f) => 'ims'.includes(f)).join('');
  return new BSONRegExp(checked(path, re.source, flags), flags);
}

/** The value with every pattern in it checked and rewritten; the same object when nothing changed. */
function walk(value: unknown, path: string): unknown {
  if (value instanceof RegExp) return bsonRegex(path, value);
  if (Array.isArray(value)) {
    const out = value.map((item) => walk(item, path));
    return out.some((item, i) => item !== value[i]) ? out : value;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = key.startsWith('$') ? path : path === '' ? key : `${path}.${key}`;
    const options = typeof value.$options === 'string' ? value.$options : '';
    const next = key === '$regex' && typeof item === 'string' ? checked(at, item, options) : walk(item, at);
    if (next !== item) (out ??= { ...value })[key] = next;
  }
  return out ?? value;
}

/** The filter with its patterns checked and rewritten for PCRE (a 400 naming `where` when refused). */
export function mongoFilter(filter: Filter): Filter {
  return walk(filter, '') as Filter;
}

/** A pipeline whose `$match` stages went through {@link mongoFilter}. */
export function mongoPipeline(pipeline: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return pipeline.map((stage) =>
    isPlainObject(stage.$match) ? { ...stage, $match: mongoFilter(stage.$match) } : stage,
  );
}
