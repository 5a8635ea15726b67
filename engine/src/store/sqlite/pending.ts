/**
 * The collections the group commit's queued writes touch (group-commit.ts), counted per
 * collection: a read of one of them commits the queue first, so that it sees those writes.
 */

/** Queued writes per collection. */
export class PendingCollections {
  private readonly counts = new Map<string, number>();

  /** A write touching `collections` was queued. */
  add(collections: readonly string[]): void {
    for (const c of collections) this.counts.set(c, (this.counts.get(c) ?? 0) + 1);
  }

  /** A write touching `collections` settled (committed or failed). */
  settle(collections: readonly string[]): void {
    for (const c of collections) {
      const n = (this.counts.get(c) ?? 1) - 1;
      if (n > 0) this.counts.set(c, n);
      else this.counts.delete(c);
    }
  }

  /** Whether a write touching the collection is queued (any collection: `undefined`). */
  has(collection?: string): boolean {
    return collection === undefined ? this.counts.size > 0 : this.counts.has(collection);
  }
}
