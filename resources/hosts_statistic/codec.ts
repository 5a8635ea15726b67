/**
 * The compact form of the host-list history (docs/statistics.md): a host summary becomes an
 * *entry* with one-letter keys and datetimes as epoch milliseconds, and a snapshot is recorded as
 * the *changes* of its entries since the snapshot before it (columns.ts lays them out). Pure
 * functions: the snapshot loop, the migration, the seed and the readers all encode with these.
 */
import { isPlainObject } from '@fleet/engine';

/** A host summary as a snapshot holds it. */
export type Summary = { _id: string } & Record<string, unknown>;

/** One host in the compact history: `h` the host id, the summary fields under short keys. */
export type Entry = { h: string } & Record<string, unknown>;

/**
 * A change of one host: the keys that changed with their new values, `r` the keys that went away,
 * `g: 1` when the host left the list (deleted for good). A host new to the list carries every key.
 */
export type Change = Entry;

/** Summary field -> entry key, in the order summaries are written back. */
const KEYS = [
  ['version', 'v'],
  ['ip', 'i'],
  ['nodegroups', 'n'],
  ['status', 's'],
  ['last_stateapply', 'a'],
  ['last_distupgrade', 'd'],
  ['_created', 'c'],
  ['_updated', 'u'],
  ['_soft_deleted', 'x'],
] as const;
const KEY_OF: ReadonlyMap<string, string> = new Map(KEYS);
/** Entry keys holding datetimes: stored as epoch ms, revived as Dates. */
const DATE_KEYS: ReadonlySet<string> = new Set(['a', 'd', 'c', 'u']);
/** Every key a change may carry for a summary value; `e` holds fields outside the summary. */
export const VALUE_KEYS: readonly string[] = [...KEYS.map(([, key]) => key), 'e'];
/** The `_updated` key: with `trackUpdated: false` a change of it alone is not recorded. */
const UPDATED = 'u';

/** The entry key of a summary field (`version` -> `v`); undefined for a field outside the summary. */
export function entryKeyOf(field: string): string | undefined {
  return field === '_id' ? 'h' : KEY_OF.get(field);
}

/** Encodes one summary. Fields outside the summary are kept, as JSON, under `e`. */
export function encodeSummary(summary: { readonly _id?: unknown }): Entry {
  const entry: Entry = { h: String(summary._id) };
  for (const [field, value] of Object.entries<unknown>(summary)) {
    if (field === '_id' || value === undefined) continue;
    const key = KEY_OF.get(field);
    if (key === undefined) {
      const extra = isPlainObject(entry.e) ? entry.e : {};
      extra[field] = value;
      entry.e = extra;
    } else entry[key] = DATE_KEYS.has(key) && value instanceof Date ? value.getTime() : value;
  }
  return entry;
}

/** Decodes one entry back into the summary it was made from (fields in the summary's order). */
export function decodeEntry(entry: Entry): Summary {
  const summary: Summary = { _id: entry.h };
  for (const [field, key] of KEYS) {
    if (!(key in entry)) continue;
    const value = entry[key];
    summary[field] = DATE_KEYS.has(key) && typeof value === 'number' ? new Date(value) : value;
  }
  if (typeof entry.e === 'object' && entry.e !== null) Object.assign(summary, entry.e);
  return summary;
}

/** Entry values are JSON: scalars compare with ===, lists and objects by their JSON text. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Options of {@link diffEntry}. */
export interface DiffOptions {
  /**
   * Record a change of `_updated` alone. The live loop does not: the sync refreshes every up
   * host's heartbeat, and with it `_updated`, every 5 minutes (packages/salt/src/sync/derive.ts),
   * which would store hosts x snapshots again. The migration does, so nothing stored is lost.
   */
  readonly trackUpdated: boolean;
}

/** The change from `prev` to `next`, or null when nothing worth recording changed. */
export function diffEntry(prev: Entry | undefined, next: Entry, o: DiffOptions): Change | null {
  if (prev === undefined) return { ...next };
  const change: Change = { h: next.h };
  const gone: string[] = [];
  let beyondUpdated = false;
  for (const key of VALUE_KEYS) {
    const inNext = key in next;
    if (!inNext && !(key in prev)) continue;
    if (inNext && key in prev && same(prev[key], next[key])) continue;
    if (inNext) change[key] = next[key];
    else gone.push(key);
    if (key !== UPDATED) beyondUpdated = true;
  }
  if (gone.length > 0) change.r = gone;
  if (Object.keys(change).length === 1) return null;
  return beyondUpdated || o.trackUpdated ? change : null;
}

/** The entry after `change`; undefined when the host left the list. */
export function applyChange(prev: Entry | undefined, change: Change): Entry | undefined {
  if (change.g === 1) return undefined;
  const next: Entry = prev === undefined ? { h: change.h } : { ...prev };
  for (const [key, value] of Object.entries(change)) if (key !== 'h' && key !== 'r') next[key] = value;
  if (Array.isArray(change.r)) for (const key of change.r) if (typeof key === 'string') delete next[key];
  return next;
}
