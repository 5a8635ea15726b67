/**
 * The compact form of the host-list history (docs/statistics.md): a host summary becomes an
 * *entry* with one-letter keys and datetimes as epoch milliseconds, and a snapshot is stored as
 * either a keyframe (every entry) or the *changes* since the snapshot before it. Pure functions:
 * the snapshot loop, the migration, the seed and the readers all encode and replay with these.
 */

/** A host summary as a snapshot holds it (DESIGN §5 hosts_statistic). */
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
const FIELD_OF: ReadonlyMap<string, string> = new Map(KEYS.map(([field, key]) => [key, field]));
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
  for (const [field, value] of Object.entries(summary) as [string, unknown][]) {
    if (field === '_id' || value === undefined) continue;
    const key = KEY_OF.get(field);
    if (key === undefined) {
      const extra = (entry.e ?? {}) as Record<string, unknown>;
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

/** The summary field a key stands for (`v` -> `version`). */
export function fieldOfKey(key: string): string | undefined {
  return FIELD_OF.get(key);
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

/** The keys whose values differ between two entries (a host appearing or leaving: every key). */
export function changedKeys(prev: Entry | undefined, next: Entry | undefined): readonly string[] {
  if (prev === undefined || next === undefined) return VALUE_KEYS;
  return VALUE_KEYS.filter((key) => key in prev !== key in next || !same(prev[key], next[key]));
}

/** A snapshot's changes against the recorded state, and the state it leaves. */
export function diffStates(state: ReadonlyMap<string, Entry>, next: readonly Entry[], o: DiffOptions): { changes: Change[]; state: Map<string, Entry> } {
  const changes: Change[] = [];
  const after = new Map<string, Entry>();
  for (const entry of next) {
    const prev = state.get(entry.h);
    const change = diffEntry(prev, entry, o);
    if (change === null && prev !== undefined) {
      after.set(entry.h, prev);
      continue;
    }
    if (change !== null) changes.push(change);
    after.set(entry.h, applyChange(prev, change ?? entry) ?? entry);
  }
  for (const host of state.keys()) if (!after.has(host)) changes.push({ h: host, g: 1 });
  return { changes, state: after };
}

/** Up and down hosts of a state, soft-deleted ones left out (what `online` counts). */
export function countsOf(state: Iterable<Entry>): { up: number; down: number } {
  let up = 0;
  let down = 0;
  for (const entry of state) {
    if (entry.x === true) continue;
    if (entry.s === 'up') up += 1;
    else down += 1;
  }
  return { up, down };
}

/** Whether a stored value is an entry (the history is read back as open objects). */
export function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && typeof (value as { h?: unknown }).h === 'string';
}
