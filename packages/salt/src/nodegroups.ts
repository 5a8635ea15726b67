/**
 * Nodegroups of the master's configuration (salt/utils/minions.py, Salt's compound.rst):
 * `parseNodegroup` turns a compound expression into the stored `info` (`E@` -> regex,
 * `G@k:v` -> grain on the dotted key, `L@a,b` -> hosts, the raw `expression` kept), and
 * `nodegroupsOf` evaluates every expression against one host the way the master targets:
 * only accepted minions match, `G@` is a case-insensitive glob on `key:value` descending into
 * nested dicts, `E@` is Python's `re.match` (anchored at the start only), plain words are id
 * globs, `N@` nests another nodegroup, with `not` > `and` > `or` and parentheses.
 */
import { compilePattern, isPlainObject } from '@fleet/engine';

/** The `info` object of a stored nodegroup. */
export interface NodegroupInfo {
  regex?: string;
  grain?: Record<string, string>;
  hosts?: string[];
  expression: string;
}

/** What a matcher needs to know about a host. */
export interface MatchTarget {
  readonly id: string;
  readonly grains: Readonly<Record<string, unknown>>;
}

type Groups = Readonly<Record<string, string>>;

/** Splits a compound expression into words, parentheses as words of their own. */
export function tokenize(expression: string): string[] {
  const out: string[] = [];
  for (let word of expression.split(/\s+/).filter(Boolean)) {
    while (word.startsWith('(')) {
      out.push('(');
      word = word.slice(1);
    }
    let closing = 0;
    while (word.endsWith(')') && !/^[A-Z]@/.test(word)) {
      closing += 1;
      word = word.slice(0, -1);
    }
    if (word !== '') out.push(word);
    for (let i = 0; i < closing; i += 1) out.push(')');
  }
  return out;
}

/**
 * Python fnmatch as a pattern anchored at both ends (`*`, `?`, `[seq]`, `[!seq]`), run on the
 * engine's linear-time matcher (RE2 semantics) like every pattern that comes from outside.
 */
export function globRegExp(glob: string, flags = ''): Matcher {
  let out = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob.charAt(i);
    const end = c === '[' ? glob.indexOf(']', i + 2) : -1;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (end !== -1) {
      const body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
      out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
      i = end;
    } else out += c.replace(/[.+^${}()|[\]\\/]/g, '\\$&');
  }
  return matcher(`^${out}$`, flags);
}

/** Something that tests a string. */
interface Matcher {
  test(value: string): boolean;
}

const NEVER: Matcher = { test: () => false };

/** A compiled linear-time pattern; a pattern it cannot run (a back-reference, too long) matches nothing. */
function matcher(source: string, flags = ''): Matcher {
  try {
    return compilePattern(source, flags);
  } catch {
    return NEVER;
  }
}

/**
 * Python `re.match`: anchored at the start only. RE2 reads Python's `(?P<name>...)` groups as
 * they are; a back-reference `(?P=name)` cannot run in linear time, so such a term matches nothing.
 */
export function pyMatch(pattern: string, value: string): boolean {
  return matcher(`^(?:${pattern})`).test(value);
}

function valueMatches(value: unknown, pattern: string, regex: boolean): boolean {
  if (Array.isArray(value)) return value.some((v) => valueMatches(v, pattern, regex));
  if (value === null || value === undefined || typeof value === 'object') return false;
  // Python's str() of a grain value: booleans capitalised, numbers and strings as they are.
  const shown =
    typeof value === 'boolean'
      ? value
        ? 'True'
        : 'False'
      : typeof value === 'number' || typeof value === 'string'
        ? String(value)
        : '';
  return regex ? pyMatch(pattern, shown) : globRegExp(pattern.toLowerCase()).test(shown.toLowerCase());
}

/** Salt's `subdict_match`: every split of `a:b:c` into a key path and a value pattern is tried. */
export function grainMatches(
  grains: Readonly<Record<string, unknown>>,
  expr: string,
  regex = false,
): boolean {
  const parts = expr.split(':');
  for (let i = 1; i < parts.length; i += 1) {
    let node: unknown = grains;
    for (const key of parts.slice(0, i)) {
      node = isPlainObject(node) ? node[key] : undefined;
    }
    if (node !== undefined && valueMatches(node, parts.slice(i).join(':'), regex)) return true;
  }
  return false;
}

function termMatches(term: string, host: MatchTarget, groups: Groups, depth: number): boolean {
  const engine = term.charAt(1) === '@' ? term.charAt(0) : '';
  const expr = engine === '' ? term : term.slice(2);
  switch (engine) {
    case 'G':
      return grainMatches(host.grains, expr);
    case 'P':
      return grainMatches(host.grains, expr, true);
    case 'E':
      return pyMatch(expr, host.id);
    case 'L':
      return expr.split(',').includes(host.id);
    case 'N':
      return groups[expr] !== undefined && expressionMatches(groups[expr], host, groups, depth + 1);
    case '':
      return globRegExp(expr).test(host.id);
    // Pillar, subnet and range terms need data the service does not hold: no match.
    default:
      return false;
  }
}

/** Evaluates a compound expression for one host; nesting deeper than 10 (a cycle) never matches. */
export function expressionMatches(
  expression: string,
  host: MatchTarget,
  groups: Groups = {},
  depth = 0,
): boolean {
  if (depth > 10) return false;
  const tokens = tokenize(expression);
  let pos = 0;
  const unary = (): boolean => {
    const t = tokens[pos++];
    if (t === 'not') return !unary();
    if (t !== '(') return t === undefined ? false : termMatches(t, host, groups, depth);
    const v = orExpr();
    pos += 1;
    return v;
  };
  const andExpr = (): boolean => {
    let v = unary();
    while (tokens[pos] === 'and') {
      pos += 1;
      v = unary() && v;
    }
    return v;
  };
  const orExpr = (): boolean => {
    let v = andExpr();
    while (tokens[pos] === 'or') {
      pos += 1;
      v = andExpr() || v;
    }
    return v;
  };
  return orExpr();
}

/** The names of the nodegroups a host belongs to, sorted. */
export function nodegroupsOf(host: MatchTarget, groups: Groups): string[] {
  return Object.keys(groups)
    .filter((name) => expressionMatches(groups[name] ?? '', host, groups))
    .sort();
}

/** Splits `G@a:b:c` into the dotted grain key `a.b` and the value `c`. */
function grainTerm(expr: string): [string, string] {
  const cut = expr.lastIndexOf(':');
  return cut === -1 ? [expr, '*'] : [expr.slice(0, cut).split(':').join('.'), expr.slice(cut + 1)];
}

/** The stored `info` of a nodegroup: its `E@`, `G@` and `L@` terms, and the raw expression. */
export function parseNodegroup(expression: string): NodegroupInfo {
  const info: NodegroupInfo = { expression };
  const regexes: string[] = [];
  for (const token of tokenize(expression)) {
    const engine = token.charAt(1) === '@' ? token.charAt(0) : '';
    const expr = token.slice(2);
    if (engine === 'E') regexes.push(expr);
    else if (engine === 'G') {
      const [key, value] = grainTerm(expr);
      info.grain = { ...info.grain, [key]: value };
    } else if (engine === 'L') info.hosts = [...(info.hosts ?? []), ...expr.split(',').filter(Boolean)];
  }
  if (regexes.length > 0)
    info.regex = regexes.length === 1 ? (regexes[0] ?? '') : regexes.map((r) => `(?:${r})`).join('|');
  return info;
}
