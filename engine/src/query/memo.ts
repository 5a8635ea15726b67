/**
 * Parsed query parameters remembered by their raw text, per resource: a dashboard or a client
 * paging through a list sends the same `where` / `sort` / `projection` again and again, and the
 * parse (JSON, the field checks, the regex guard, the date coercion) is the same every time.
 * A remembered value is frozen all the way down, since every request that sends the same text
 * gets the same object. Failures are not remembered (a 400 parses again). Only texts up to
 * {@link MEMO_TEXT_MAX} characters are kept and at most {@link MEMO_ENTRIES} per resource (the
 * map is emptied when full), so a client sending ever new filters costs a few MB at most.
 */
import type { CompiledResource } from '../compile/compile';

/** Longest raw text remembered. */
export const MEMO_TEXT_MAX = 1000;
/** Most remembered values per resource. */
export const MEMO_ENTRIES = 500;

const memo = new WeakMap<CompiledResource, Map<string, unknown>>();

/** Freezes a parsed value (plain objects, arrays; Dates and RegExps too) and everything in it. */
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || Object.isFrozen(node)) continue;
    Object.freeze(node);
    for (const child of Object.values(node)) stack.push(child);
  }
  return value;
}

/** `parse()` of `raw`, remembered under `kind` for `res` (see above). */
export function memoized<T>(res: CompiledResource, kind: string, raw: string, parse: () => T): T {
  if (raw.length > MEMO_TEXT_MAX) return parse();
  let byKey = memo.get(res);
  if (byKey === undefined) {
    byKey = new Map();
    memo.set(res, byKey);
  }
  const key = `${kind}\u0000${raw}`;
  if (byKey.has(key)) return byKey.get(key) as T;
  const value = deepFreeze(parse());
  if (byKey.size >= MEMO_ENTRIES) byKey.clear();
  byKey.set(key, value);
  return value;
}
