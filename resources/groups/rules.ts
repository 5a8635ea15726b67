/**
 * The rules of rule groups: `info.regex` on the host name (anchored at its start, as Salt's `E@`
 * is) and `info.grain` equalities on dotted grain keys. A rule has a key (a hash of its content),
 * so groups with the same rule share one computed membership, and a rule set matches one host
 * against every rule without testing them all: rules are filed by the literal prefix of their
 * pattern or by one grain equality, and only the rules a host's name or grains could satisfy are
 * evaluated (with the store's own semantics: mingo, patterns on RE2).
 */
import { createHash } from 'node:crypto';
import { compileMatcher, type Doc, type Filter, isPlainObject, literalPrefix } from '@fleet/engine';

/** A group's rule. */
export interface Rule {
  readonly regex?: string;
  readonly grain?: Readonly<Record<string, unknown>>;
}

/** The rule of a group's `info`, or null when it has none (no pattern, no grain equality). */
export function ruleOf(
  info: { readonly regex?: unknown; readonly grain?: unknown } | undefined,
): Rule | null {
  const regex = typeof info?.regex === 'string' && info.regex !== '' ? info.regex : undefined;
  const grain = isPlainObject(info?.grain) && Object.keys(info.grain).length > 0 ? info.grain : undefined;
  if (regex === undefined && grain === undefined) return null;
  return { ...(regex === undefined ? {} : { regex }), ...(grain === undefined ? {} : { grain }) };
}

/**
 * The rule's key: equal for rules that match the same hosts by construction (the grain keys in
 * any order). Values are compared as written: MongoDB compares embedded documents key by key.
 */
export function ruleKey(rule: Rule): string {
  const grain = Object.entries(rule.grain ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const text = JSON.stringify([rule.regex ?? null, grain]);
  return `r${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
}

/** The filter on hosts a rule stands for. */
export function ruleFilter(rule: Rule): Filter {
  const parts: Filter[] = [];
  if (rule.regex !== undefined) parts.push({ _id: { $regex: `^(?:${rule.regex})` } });
  for (const [key, value] of Object.entries(rule.grain ?? {})) parts.push({ [`grain.${key}`]: value });
  return parts.length === 1 ? (parts[0] ?? {}) : { $and: parts };
}

/** A host as the rules see it. */
export type HostView = Pick<Doc, '_id'> & { readonly grain?: unknown };

interface Compiled {
  readonly key: string;
  readonly test: (host: HostView) => boolean;
}

/** Compiled rules by key (a key is a hash of the rule: the same key is the same rule). */
const compiled = new Map<string, Compiled>();
const COMPILED_MAX = 20_000;

function compile(key: string, rule: Rule): Compiled {
  const known = compiled.get(key);
  if (known !== undefined) return known;
  let test: (host: HostView) => boolean;
  try {
    const matcher = compileMatcher(ruleFilter(rule));
    test = (host) => matcher(host);
  } catch {
    // A rule stored before rules were checked on write, which cannot be evaluated: no host.
    test = () => false;
  }
  if (compiled.size >= COMPILED_MAX) compiled.clear();
  const out = { key, test };
  compiled.set(key, out);
  return out;
}

/** A grain value a rule can be filed under: a string, a finite number or a boolean. */
function fileable(value: unknown): value is string | number | boolean {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

const valueKey = (value: string | number | boolean): string => `${typeof value}:${String(value)}`;

/**
 * The scalar values reachable at a dotted path as MongoDB reaches them: through lists of objects
 * on the way, and the elements of a list at the end (plus a scalar there).
 */
function valuesAt(node: unknown, segments: readonly string[], out: unknown[]): void {
  if (Array.isArray(node)) {
    if (segments.length === 0) out.push(...(node as unknown[]));
    else for (const element of node) valuesAt(element, segments, out);
    return;
  }
  if (segments.length === 0) {
    out.push(node);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const [head = '', ...rest] = segments;
  if (Object.hasOwn(node, head)) valuesAt((node as Record<string, unknown>)[head], rest, out);
}

/** Rules filed for matching many hosts: each host is tested against the rules it could satisfy. */
export class RuleSet {
  private readonly byPrefix = new Map<string, Compiled[]>();
  private readonly prefixLengths: number[] = [];
  private readonly byGrain = new Map<string, Map<string, Compiled[]>>();
  private readonly rest: Compiled[] = [];

  constructor(rules: ReadonlyMap<string, Rule>) {
    for (const [key, rule] of rules) this.file(compile(key, rule), rule);
    this.prefixLengths.sort((a, b) => a - b);
  }

  /** The keys of the rules `host` matches, sorted. */
  keysOf(host: HostView): string[] {
    const candidates = new Set<Compiled>(this.rest);
    for (const length of this.prefixLengths) {
      if (length > host._id.length) break;
      for (const c of this.byPrefix.get(host._id.slice(0, length)) ?? []) candidates.add(c);
    }
    for (const [path, byValue] of this.byGrain) {
      const values: unknown[] = [];
      valuesAt(host.grain, path.split('.'), values);
      for (const value of values)
        if (fileable(value)) for (const c of byValue.get(valueKey(value)) ?? []) candidates.add(c);
    }
    const keys: string[] = [];
    for (const c of candidates) if (c.test(host)) keys.push(c.key);
    return keys.sort();
  }

  /** Whether some rule reads grains (else matching needs the host names alone). */
  get needsGrains(): boolean {
    return this.grainRules > 0;
  }

  private grainRules = 0;

  private file(c: Compiled, rule: Rule): void {
    if (rule.grain !== undefined) this.grainRules += 1;
    const prefix =
      rule.regex !== undefined && !rule.regex.includes('|') ? literalPrefix(`^${rule.regex}`) : '';
    if (prefix !== '') {
      const list = this.byPrefix.get(prefix);
      if (list === undefined) {
        this.byPrefix.set(prefix, [c]);
        if (!this.prefixLengths.includes(prefix.length)) this.prefixLengths.push(prefix.length);
      } else list.push(c);
      return;
    }
    const entry = Object.entries(rule.grain ?? {}).find(
      ([path, value]) => fileable(value) && !path.split('.').some((s) => /^\d+$/.test(s)),
    );
    if (entry === undefined) {
      this.rest.push(c);
      return;
    }
    const [path, value] = entry;
    const byValue = this.byGrain.get(path) ?? new Map<string, Compiled[]>();
    this.byGrain.set(path, byValue);
    const key = valueKey(value as string | number | boolean);
    byValue.set(key, [...(byValue.get(key) ?? []), c]);
  }
}
