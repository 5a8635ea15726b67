/**
 * Targeting (salt/utils/minions.py, salt/netapi/__init__.py, salt/client/__init__.py): which accepted minions a
 * `tgt` / `tgt_type` pair matches. Globs follow Python's fnmatch, `pcre`/`E@` are
 * `re.match` (anchored at the start only), grain matches are case-insensitive globs
 * on `key:value` with `:` descending into nested dicts, and compound expressions combine
 * `G@ E@ P@ L@ N@ S@` terms with `and`/`or`/`not` and parentheses.
 */
import { acceptedMinions, type Fleet, type SimMinion } from './model';
import { SimError } from './http-errors';

/** Python fnmatch -> RegExp (`*`, `?`, `[seq]`, `[!seq]`), anchored at both ends. */
export function globToRegExp(glob: string, flags = ''): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob.charAt(i);
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) out += '\\[';
      else {
        const body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
        out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, flags);
}

/** Python `re.match`: anchored at the start; `(?P<n>` named groups translated. */
export function pyMatch(pattern: string, value: string): boolean {
  try {
    const js = pattern.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
    return new RegExp(`^(?:${js})`).test(value);
  } catch {
    return false;
  }
}

function valueMatches(value: unknown, pattern: string, regex: boolean): boolean {
  if (Array.isArray(value)) return value.some((v) => valueMatches(v, pattern, regex));
  if (value === null || typeof value === 'object') return false;
  // Python's str() of a grain value: booleans capitalised, numbers and strings as they are.
  const shown =
    typeof value === 'boolean'
      ? value
        ? 'True'
        : 'False'
      : typeof value === 'number' || typeof value === 'string'
        ? String(value)
        : '';
  return regex ? pyMatch(pattern, shown) : globToRegExp(pattern.toLowerCase()).test(shown.toLowerCase());
}

/** `subdict_match`: try every split of `a:b:c` into a key path and a value pattern. */
export function grainMatches(grains: Record<string, unknown>, expr: string, regex = false): boolean {
  const parts = expr.split(':');
  for (let i = 1; i < parts.length; i += 1) {
    let node: unknown = grains;
    for (const key of parts.slice(0, i)) {
      node =
        node !== null && typeof node === 'object' && !Array.isArray(node)
          ? (node as Record<string, unknown>)[key]
          : undefined;
    }
    if (node !== undefined && valueMatches(node, parts.slice(i).join(':'), regex)) return true;
  }
  return false;
}

function ipInCidr(ip: string, cidr: string): boolean {
  const [net = '', bitsText = '32'] = cidr.split('/');
  const toInt = (a: string): number => a.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
  const bits = Number(bitsText);
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip) || !/^\d+\.\d+\.\d+\.\d+$/.test(net)) return false;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (toInt(ip) & mask) >>> 0 === (toInt(net) & mask) >>> 0;
}

function ipv4Of(m: SimMinion): string[] {
  const v = m.grains['ipv4'];
  return Array.isArray(v) ? v.filter((a): a is string => typeof a === 'string') : [];
}

/** Nodegroup -> compound string: a token list is joined; a plain id list becomes `L@`. */
export function nodegroupExpression(fleet: Fleet, name: string): string {
  const group = fleet.nodegroups[name];
  // Unknown nodegroup: salt raises while expanding it client-side -> HTTP 500 (salt/netapi/__init__.py, salt/client/__init__.py).
  if (group === undefined) throw new SimError(500, `Unknown nodegroup ${name}`);
  if (typeof group === 'string') return group;
  const compound = group.some((t) => t.includes('@') || ['and', 'or', 'not', '(', ')'].includes(t));
  return compound ? group.join(' ') : `L@${group.join(',')}`;
}

function termMatches(fleet: Fleet, m: SimMinion, term: string, depth: number): boolean {
  const at = term.indexOf('@');
  const engine = at === 1 ? term.charAt(0) : '';
  const expr = at === 1 ? term.slice(2) : term;
  switch (engine) {
    case 'G':
      return grainMatches(m.grains, expr);
    case 'P':
      return grainMatches(m.grains, expr, true);
    case 'E':
      return pyMatch(expr, m.id);
    case 'L':
      return expr.split(',').includes(m.id);
    case 'S':
      return ipv4Of(m).some((ip) => ipInCidr(ip, expr));
    case 'N':
      return compoundMatches(fleet, m, nodegroupExpression(fleet, expr), depth + 1);
    case 'I':
    case 'J':
    case 'R':
      return false; // no pillar / range data in the simulator
    default:
      return globToRegExp(expr).test(m.id);
  }
}

/** Evaluates a compound expression for one minion (precedence: not > and > or). */
export function compoundMatches(fleet: Fleet, m: SimMinion, expression: string, depth = 0): boolean {
  if (depth > 10) throw new SimError(500, 'Nodegroup nesting too deep or cyclic');
  // Parentheses are tokens of their own, separated by spaces (compound.rst).
  const tokens = expression.split(/\s+/).filter(Boolean);
  let pos = 0;
  const peek = (): string | undefined => tokens[pos];
  const unary = (): boolean => {
    const t = tokens[pos++];
    if (t === 'not') return !unary();
    if (t === '(') {
      const v = orExpr();
      pos += 1; // ')'
      return v;
    }
    return t === undefined ? false : termMatches(fleet, m, t, depth);
  };
  const andExpr = (): boolean => {
    let v = unary();
    while (peek() === 'and') {
      pos += 1;
      const r = unary();
      v = v && r;
    }
    return v;
  };
  const orExpr = (): boolean => {
    let v = andExpr();
    while (peek() === 'or') {
      pos += 1;
      const r = andExpr();
      v = v || r;
    }
    return v;
  };
  return orExpr();
}

/** Matched accepted minions and, for `list` targets, listed ids without an accepted key. */
export interface TargetMatch {
  minions: string[];
  missing: string[];
}

function listTargets(tgt: unknown): string[] {
  if (Array.isArray(tgt)) return tgt.map(String);
  return String(tgt)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Resolves a publication target to minion ids (sorted). */
export function resolveTarget(fleet: Fleet, tgt: unknown, tgtType = 'glob'): TargetMatch {
  const accepted = acceptedMinions(fleet);
  if (tgtType === 'list') {
    const wanted = listTargets(tgt);
    const ids = new Set(accepted.map((m) => m.id));
    return {
      minions: wanted.filter((id) => ids.has(id)).sort(),
      missing: wanted.filter((id) => !ids.has(id)).sort(),
    };
  }
  const text = String(tgt);
  const predicate: Record<string, (m: SimMinion) => boolean> = {
    glob: (m) => globToRegExp(text).test(m.id),
    pcre: (m) => pyMatch(text, m.id),
    grain: (m) => grainMatches(m.grains, text),
    grain_pcre: (m) => grainMatches(m.grains, text, true),
    ipcidr: (m) => ipv4Of(m).some((ip) => ipInCidr(ip, text)),
    compound: (m) => compoundMatches(fleet, m, text),
    nodegroup: (m) => compoundMatches(fleet, m, nodegroupExpression(fleet, text)),
  };
  const test = predicate[tgtType];
  if (test === undefined) return { minions: [], missing: [] };
  return {
    minions: accepted
      .filter(test)
      .map((m) => m.id)
      .sort(),
    missing: [],
  };
}
