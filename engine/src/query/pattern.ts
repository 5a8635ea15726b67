/**
 * User-supplied regular expressions run on a linear-time engine with RE2 semantics, never on
 * JavaScript's backtracking `RegExp`: `.*.*.*.*.*.*.*=` took 42 s over 10,000 host names on V8
 * and cannot take more than one pass per character here.
 *
 * Engine: `re2js` (pure JavaScript port of RE2, https://github.com/le0pard/re2js), chosen over
 * `re2-wasm` by measurement (10,000 host names, warm, Node 20, 2 cores): re2js 0.4-4 ms per pattern,
 * re2-wasm 29-57 ms (every call crosses into WebAssembly); compile 0.5-1.5 ms against 1-3 ms.
 * Pure JavaScript also installs everywhere, with no native or wasm build to fail on a new machine.
 *
 * RE2 cannot run back-references or look-around (https://github.com/google/re2/wiki/Syntax): such
 * patterns are refused with a message saying so, never silently matched differently.
 */
import { RE2JS } from 're2js';
import { BadRequest } from '../errors';

/** Longest pattern accepted: enough for any host-name rule, small enough to keep compiling cheap. */
export const MAX_PATTERN_LENGTH = 256;

/**
 * Flags a pattern may carry, MongoDB's `$options` letters RE2 honours exactly: `i` case-insensitive,
 * `m` `^`/`$` at line breaks, `s` `.` matches a line break. `x` (PCRE's extended syntax) is refused:
 * RE2 has no such mode, and stripping whitespace and comments ourselves would not be faithful.
 */
const FLAG_BITS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
};

/** A compiled pattern: `test` answers whether it matches anywhere in the input, in linear time. */
export interface Pattern {
  readonly source: string;
  readonly flags: string;
  test(input: string): boolean;
}

/** RE2's parse error codes (re2js `Parser.ERR_*`) in our words, so its text never reaches a client. */
const SYNTAX_MESSAGES: Readonly<Record<string, string>> = {
  'invalid character class range': 'a character range is reversed or invalid (like [z-a])',
  'invalid escape sequence':
    'it uses an escape RE2 does not know (\\u, \\c, \\Z and back-references like \\1 are not supported)',
  'invalid named capture': 'a named group is malformed (use (?P<name>...) or (?<name>...))',
  'invalid or unsupported Perl syntax': 'it uses a (?...) construct RE2 does not support',
  'invalid nested repetition operator': 'a quantifier follows another one (like a** or the possessive a++)',
  'invalid repeat count': 'a repeat count is invalid or above 1000 (like {2,1} or {1001})',
  'missing closing ]': 'a [ is not closed',
  'missing closing )': 'a ( is not closed',
  'missing argument to repetition operator': 'a quantifier has nothing to repeat',
  'trailing backslash at end of expression': 'it ends with a lone backslash',
  'duplicate capture group name': 'two groups have the same name',
  'unexpected )': 'a ) has no matching (',
  'expression nests too deeply': 'it nests groups too deeply',
  'expression too large': 'it would compile to too large a program (repeat counts multiply)',
};

/** Constructs RE2 rejects that PCRE (MongoDB) and JavaScript accept, each with its own message. */
const UNSUPPORTED: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /^\\[1-9]|^\\k[<{']|^\\g|^\(\?P=/,
    'back-references (\\1, \\k<name>) are not supported: patterns run on a linear-time engine (RE2)',
  ],
  [
    /^\(\?<?[=!]/,
    'look-ahead and look-behind ((?=, (?!, (?<=, (?<!) are not supported: patterns run on a linear-time engine (RE2)',
  ],
  [/^\(\?>/, 'atomic groups (?>...) are not supported: patterns run on a linear-time engine (RE2)'],
];

/** The first unsupported construct outside character classes, escapes skipped; null when none. */
function unsupportedConstruct(source: string): string | null {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\' || (!inClass && c === '(')) {
      const hit = inClass ? undefined : UNSUPPORTED.find(([re]) => re.test(source.slice(i, i + 4)));
      if (hit) return hit[1];
      if (c === '\\') i++;
    } else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
  }
  return null;
}

function flagBits(flags: string): number | string {
  let bits = 0;
  for (const flag of flags) {
    const bit = FLAG_BITS[flag];
    if (bit === undefined) return `options accept only the flags i, m and s (got "${flags}")`;
    bits |= bit;
  }
  return bits;
}

/**
 * Counted repetitions (`x{n,m}`) are unrolled by RE2: `.{0,999}` repeated 28 times compiles for
 * 0.85 s into 56,000 instructions and then takes 1.5 s on one 5,000-character value (measured,
 * re2js 2.10). The counts of a pattern may add up to {@link MAX_REPEAT_TOTAL}, and the compiled
 * program may hold {@link MAX_PROGRAM_SIZE} instructions: a few milliseconds per long value at worst.
 */
export const MAX_REPEAT_TOTAL = 100;
export const MAX_PROGRAM_SIZE = 2000;

/** The sum of the bounds of the counted repetitions outside character classes (`{n}`, `{n,}`, `{n,m}`). */
function repeatTotal(source: string): number {
  let total = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '{' && !inClass) {
      const counts = /^\{(\d+)(?:,(\d*))?\}/.exec(source.slice(i, i + 16));
      if (counts) total += Math.max(Number(counts[1]), Number(counts[2] || 0));
    }
  }
  return total;
}

/** Compiles with re2js, or returns why the pattern is refused (in our words). */
function compileOrExplain(source: string, flags: string): RE2JS | string {
  if (source.length > MAX_PATTERN_LENGTH) return `pattern is longer than ${MAX_PATTERN_LENGTH} characters`;
  const bits = flagBits(flags);
  if (typeof bits === 'string') return bits;
  if (repeatTotal(source) > MAX_REPEAT_TOTAL)
    return `its repeat counts ({n,m}) add up to more than ${MAX_REPEAT_TOTAL}`;
  try {
    const compiled = RE2JS.compile(source, bits);
    return compiled.programSize() > MAX_PROGRAM_SIZE
      ? `it is too complex (more than ${MAX_PROGRAM_SIZE} steps once compiled)`
      : compiled;
  } catch (error) {
    const code =
      typeof error === 'object' && error !== null && 'error' in error && typeof error.error === 'string'
        ? error.error
        : '';
    const why = unsupportedConstruct(source) ?? SYNTAX_MESSAGES[code] ?? 'it is not valid RE2 syntax';
    return `not a valid regular expression: ${why}`;
  }
}

/** Compiled patterns by flags and source: rule groups and dashboards repeat the same few. */
const cache = new Map<string, Pattern>();
const CACHE_SIZE = 500;

/**
 * Why `source` (with MongoDB-style `flags`) cannot be run, in a sentence for a client, or null
 * when {@link compilePattern} will accept it.
 */
export function patternError(source: string, flags = ''): string | null {
  if (cache.has(`${flags}/${source}`)) return null;
  const compiled = compileOrExplain(source, flags);
  return typeof compiled === 'string' ? compiled : null;
}

/**
 * Compiles a user-supplied pattern for linear-time matching. Throws `BadRequest` with the
 * {@link patternError} message when it cannot run; callers that answer otherwise (a 422 on a body
 * field) check `patternError` first.
 */
export function compilePattern(source: string, flags = ''): Pattern {
  const key = `${flags}/${source}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const compiled = compileOrExplain(source, flags);
  if (typeof compiled === 'string') throw new BadRequest(compiled);
  const pattern: Pattern = { source, flags, test: (input) => compiled.test(input) };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value ?? '');
  cache.set(key, pattern);
  return pattern;
}

/**
 * The literal text every match must start with, for a pattern anchored by `^` without the `i` or
 * `m` flag (`^web-0[13]` -> `web-0`), ASCII only; '' when there is none. A store turns it into an
 * index range (`id >= 'web-0' AND id < 'web-1'`) and runs the pattern only on that range.
 */
export function literalPrefix(source: string, flags = ''): string {
  return literalStart(source, flags).prefix;
}

/**
 * Whether the pattern is its literal prefix and nothing more (`^db-`, `^web\.0`): every string
 * starting with the prefix matches, so a range on the field says it all, without RE2.
 */
export function isPrefixOnly(source: string, flags = ''): boolean {
  const start = literalStart(source, flags);
  return start.prefix !== '' && start.whole;
}

function literalStart(source: string, flags: string): { prefix: string; whole: boolean } {
  // Any `|` could be a top-level alternation (`^a|b`), whose other branch starts anywhere.
  if (!source.startsWith('^') || /[im]/.test(flags) || source.includes('|'))
    return { prefix: '', whole: false };
  let out = '';
  let i = 1;
  while (i < source.length) {
    const c = source[i] ?? '';
    // Only escaped punctuation is a literal; \d, \w, \b and friends are classes or assertions.
    const literal = c === '\\' ? (source[i + 1] ?? '') : '.^$*+?()[]{}|'.includes(c) ? '' : c;
    if (!/^[ -~]$/.test(literal) || (c === '\\' && /[A-Za-z0-9]/.test(literal))) break;
    out += literal;
    i += c === '\\' ? 2 : 1;
  }
  // A `*`, `?` or `{` right after makes the last character optional: it is not in every match.
  const next = source[i];
  if (next !== undefined && '*?{'.includes(next)) return { prefix: out.slice(0, -1), whole: false };
  return { prefix: out, whole: i === source.length };
}
