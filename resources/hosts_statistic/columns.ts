/**
 * How the history is laid out in hosts_history rows (docs/statistics.md). The snapshots are kept
 * in *blocks*: a block starts with a keyframe (every host, as of its first snapshot) and holds
 * every snapshot until the next keyframe, a day at most. A block is stored one row per column,
 * each a flat list as JSON text:
 *
 * - `snapshots`: [id, time, index, up, down, changed, ...], one group per snapshot.
 * - `added` / `removed`: [snapshot, host, ...] for the hosts that appeared / left; one column per
 *   summary field (`status`, `version`, ...): [snapshot, host, new value, ...]; `unset`:
 *   [snapshot, host, [entry keys], ...] (an absent field is not a null one). `snapshot` is a
 *   position in `snapshots`, `host` the host's id (a column names only the hosts it changes, so
 *   a read of one column parses no other column's hosts).
 * - The keyframe, in parts of PART_ENTRIES hosts: `key.hosts`, one value per host in
 *   `key.<field>` (left out when no host of the part has the field), `key.unset` [host, [keys], ...].
 *
 * A row's `data` is `{list: [...]}`: an open object, because the store has no type for a list of
 * mixed values. A read fetches only the columns it needs (one indexed range per column), and flat
 * lists parse several times faster than objects keyed by host (those get a hidden class of their
 * own per row in V8), with no text inside the document to parse a second time.
 */
import { VALUE_KEYS, type Change, type Entry } from './codec';

/** Entry key -> the hosts_history field holding its column. */
export const COLUMN_FIELD: Readonly<Record<string, string>> = {
  v: 'version',
  i: 'ip',
  n: 'nodegroups',
  s: 'status',
  a: 'last_stateapply',
  d: 'last_distupgrade',
  c: 'created',
  u: 'updated',
  x: 'soft_deleted',
  e: 'extra',
};
const fieldOf = (key: string): string => COLUMN_FIELD[key] ?? key;
/** The columns of a block that are not summary fields. */
export const SNAPSHOTS = 'snapshots';
const MEMBERSHIP = ['added', 'removed', 'unset'] as const;
/** A keyframe column's name: `key.<column>`. */
export const keyColumn = (column: string): string => `key.${column}`;

/** Columns by name: each a row's `data`, `{list: [...]}`. */
export type Columns = ReadonlyMap<string, unknown>;

/** The change columns a read of the entry keys `keys` needs (all when undefined). */
export function changeColumnsFor(keys?: ReadonlySet<string>): string[] {
  return [...MEMBERSHIP, ...VALUE_KEYS.filter((k) => keys === undefined || keys.has(k)).map(fieldOf)];
}

/** The keyframe columns a read of the entry keys `keys` needs (all when undefined). */
export function keyColumnsFor(keys?: ReadonlySet<string>): string[] {
  return ['hosts', 'unset', ...VALUE_KEYS.filter((k) => keys === undefined || keys.has(k)).map(fieldOf)].map(
    keyColumn,
  );
}

/** One snapshot of a block. */
export interface BlockSnapshot {
  readonly id: string;
  readonly at: number;
  readonly index: number;
  readonly up: number;
  readonly down: number;
  /** Hosts it changed. */
  readonly changed: number;
}
const SNAPSHOT_WIDTH = 6;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** A row's list (empty when absent). */
export function unpack(data: unknown): unknown[] {
  const list = typeof data === 'object' && data !== null && 'list' in data ? data.list : undefined;
  return Array.isArray(list) ? list : [];
}

/** A row's `data` holding `list`. */
export const packed = (list: unknown[]): { list: unknown[] } => ({ list });

/** The snapshots of a block (its `snapshots` column). */
export function blockSnapshots(data: unknown): BlockSnapshot[] {
  const flat = unpack(data);
  const out: BlockSnapshot[] = [];
  for (let i = 0; i + SNAPSHOT_WIDTH <= flat.length; i += SNAPSHOT_WIDTH) {
    const [id, at, index, up, down, changed] = flat.slice(i, i + SNAPSHOT_WIDTH);
    out.push({
      id: String(id),
      at: Number(at),
      index: Number(index),
      up: Number(up),
      down: Number(down),
      changed: Number(changed),
    });
  }
  return out;
}

/** How many snapshots of a block (its `snapshots` column) fall within [from, to] (epoch ms). */
export function countSnapshots(data: unknown, from: number, to: number): number {
  const flat = unpack(data);
  let n = 0;
  for (let i = 1; i < flat.length; i += SNAPSHOT_WIDTH) {
    const at = flat[i];
    if (typeof at === 'number' && at >= from && at <= to) n += 1;
  }
  return n;
}

/** A block being written: its snapshots and changes, as lists to pack. */
export class BlockColumns {
  readonly snapshots: unknown[] = [];
  private readonly lists = new Map<string, unknown[]>();
  /** Columns changed since the last `take`. */
  private readonly dirty = new Set<string>();
  changed = 0;

  /** The lists of a stored block, to go on appending to it. */
  static of(columns: Columns): BlockColumns {
    const block = new BlockColumns();
    for (const value of unpack(columns.get(SNAPSHOTS))) block.snapshots.push(value);
    for (const [column, data] of columns)
      if (column !== SNAPSHOTS) block.lists.set(column, [...unpack(data)]);
    block.changed = blockSnapshots(columns.get(SNAPSHOTS)).reduce((sum, s) => sum + s.changed, 0);
    return block;
  }

  get count(): number {
    return this.snapshots.length / SNAPSHOT_WIDTH;
  }

  private list(column: string): unknown[] {
    const found = this.lists.get(column) ?? [];
    this.lists.set(column, found);
    this.dirty.add(column);
    return found;
  }

  /** Appends a snapshot and its changes (`isNew`: the host was not in the list before). */
  add(s: BlockSnapshot, changes: readonly Change[], isNew: (host: string) => boolean): void {
    const j = this.count;
    this.snapshots.push(s.id, s.at, s.index, s.up, s.down, s.changed);
    this.dirty.add(SNAPSHOTS);
    this.changed += s.changed;
    for (const change of changes) {
      const host = change.h;
      if (change.g === 1) {
        this.list('removed').push(j, host);
        continue;
      }
      if (isNew(host)) this.list('added').push(j, host);
      for (const key of VALUE_KEYS) if (key in change) this.list(fieldOf(key)).push(j, host, change[key]);
      if (Array.isArray(change.r) && change.r.length > 0) this.list('unset').push(j, host, change.r);
    }
  }

  /** The columns changed since the last call, as rows' `data` (copies: the lists go on growing). */
  take(): Map<string, { list: unknown[] }> {
    const out = new Map<string, { list: unknown[] }>();
    for (const column of this.dirty)
      out.set(column, packed([...(column === SNAPSHOTS ? this.snapshots : (this.lists.get(column) ?? []))]));
    this.dirty.clear();
    return out;
  }
}

/** Called for every host a snapshot changes, with the entry key that changed (`*`: appeared or left). */
export type OnChange = (host: string, key: string) => void;

/** Reads a block's changes snapshot by snapshot, each column once, through a cursor. */
export class BlockReader {
  private readonly columns: Array<{ key: string; list: unknown[]; width: number; at: number }> = [];

  constructor(columns: Columns) {
    const column = (key: string, field: string, width: number) => {
      const list = unpack(columns.get(field));
      if (list.length > 0) this.columns.push({ key, list, width, at: 0 });
    };
    column('-', 'removed', 2);
    column('+', 'added', 2);
    for (const key of VALUE_KEYS) column(key, fieldOf(key), 3);
    column('r', 'unset', 3);
  }

  /** Applies snapshot `j`'s changes to `hosts` in place (`skip`: only moves past them); the hosts changed. */
  apply(j: number, hosts: Map<string, Entry>, o: { skip?: boolean; onChange?: OnChange } = {}): string[] {
    const touched: string[] = [];
    for (const c of this.columns) {
      const { list, width, key } = c;
      let at = c.at;
      for (; at < list.length && list[at] === j; at += width) {
        const host = list[at + 1];
        if (o.skip === true || typeof host !== 'string') continue;
        touched.push(host);
        if (key === '-') hosts.delete(host);
        else if (key === '+') hosts.set(host, { h: host });
        else {
          const entry = hosts.get(host);
          if (entry === undefined) continue;
          if (key === 'r') for (const k of strings(list[at + 2])) delete entry[k];
          else entry[key] = list[at + 2];
        }
        if (o.onChange === undefined) continue;
        if (key === 'r') for (const k of strings(list[at + 2])) o.onChange(host, k);
        else o.onChange(host, key === '-' || key === '+' ? '*' : key);
      }
      c.at = at;
    }
    return touched;
  }
}

/** The keyframe columns of a part holding `entries`. */
export function frameColumns(entries: readonly Entry[]): Map<string, { list: unknown[] }> {
  const out = new Map([[keyColumn('hosts'), packed(entries.map((e) => e.h))]]);
  const unset: unknown[] = [];
  const present = VALUE_KEYS.filter((key) => entries.some((e) => key in e));
  for (const key of present)
    out.set(keyColumn(fieldOf(key)), packed(entries.map((e) => (key in e ? e[key] : null))));
  entries.forEach((e, at) => {
    const absent = present.filter((key) => !(key in e));
    if (absent.length > 0) unset.push(at, absent);
  });
  if (unset.length > 0) out.set(keyColumn('unset'), packed(unset));
  return out;
}

/** Adds a keyframe part's entries to `hosts`, with the entry keys in `keys` only (all when undefined). */
export function readFrame(columns: Columns, hosts: Map<string, Entry>, keys?: ReadonlySet<string>): void {
  const entries = strings(unpack(columns.get(keyColumn('hosts')))).map((h): Entry => ({ h }));
  for (const key of VALUE_KEYS) {
    if (keys !== undefined && !keys.has(key)) continue;
    const column = unpack(columns.get(keyColumn(fieldOf(key))));
    for (let at = 0; at < entries.length && at < column.length; at += 1) {
      const entry = entries[at];
      if (entry !== undefined) entry[key] = column[at];
    }
  }
  const unset = unpack(columns.get(keyColumn('unset')));
  for (let j = 0; j + 1 < unset.length; j += 2) {
    const entry = entries[Number(unset[j])];
    if (entry !== undefined) for (const key of strings(unset[j + 1])) delete entry[key];
  }
  for (const entry of entries) hosts.set(entry.h, entry);
}
