/**
 * Counts remembered until the database changes. A paged list asks for the same total on every
 * page and every poll of a dashboard; counting thousands of index entries each time is most of
 * such a request. An entry is valid only while the database version it was counted at holds, and
 * any write — of this connection or of another process on the file — changes that version.
 */
import type { Filter } from '../port';
import type { SqliteDb } from './db';

const MAX_ENTRIES = 1000;

/**
 * JSON keeps key order, so equal filters give equal keys; Dates and RegExps are tagged so that
 * they never share a key with a string (the replacer's `this[key]` is the value before toJSON).
 */
function typedValues(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  if (raw instanceof Date) return { $date: raw.getTime() };
  if (raw instanceof RegExp) return { $regexp: String(raw) };
  return value;
}

/** Keys of frozen filters (a request's `where` and its scope: the same object every time). */
const frozenKeys = new WeakMap<Filter, string>();

function filterKey(filter: Filter): string {
  const known = frozenKeys.get(filter);
  if (known !== undefined) return known;
  const key = JSON.stringify(filter, typedValues);
  if (Object.isFrozen(filter)) frozenKeys.set(filter, key);
  return key;
}

/** A count cache over one connection. */
export class CountCache {
  private readonly entries = new Map<string, { version: string; n: number }>();

  constructor(private readonly db: SqliteDb) {}

  /** The cached count of `filter` in `collection`, or `count()` (remembered). */
  get(collection: string, filter: Filter, count: () => number): number {
    const { key, version, hit } = this.lookup(collection, filter);
    if (hit !== undefined) return hit;
    return this.remember(key, version, count());
  }

  /**
   * The same with a count that runs elsewhere (a read worker): remembered at the version read
   * before it ran, so a write committed meanwhile makes the next call count again.
   */
  async getAsync(collection: string, filter: Filter, count: () => Promise<number>): Promise<number> {
    const { key, version, hit } = this.lookup(collection, filter);
    if (hit !== undefined) return hit;
    return this.remember(key, version, await count());
  }

  private lookup(
    collection: string,
    filter: Filter,
  ): { key: string; version: string; hit: number | undefined } {
    const version = this.db.version();
    const key = `${collection}\u0000${filterKey(filter)}`;
    const entry = this.entries.get(key);
    return { key, version, hit: entry?.version === version ? entry.n : undefined };
  }

  private remember(key: string, version: string, n: number): number {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { version, n });
    return n;
  }
}
