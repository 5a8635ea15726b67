/**
 * The documents the group commit's queued writes name (group-commit.ts), counted per document: a
 * read of one of them commits the queue first, so that it sees those writes.
 */

/** The key of one document: its collection and `_id`. */
export function docKey(collection: string, id: string): string {
  return `${collection}\u0000${id}`;
}

/** Queued writes per document. */
export class PendingDocs {
  private readonly counts = new Map<string, number>();

  /** A write naming `keys` was queued. */
  add(keys: readonly string[]): void {
    for (const key of keys) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** A write naming `keys` settled (committed or failed). */
  settle(keys: readonly string[]): void {
    for (const key of keys) {
      const n = (this.counts.get(key) ?? 1) - 1;
      if (n > 0) this.counts.set(key, n);
      else this.counts.delete(key);
    }
  }

  /** Whether a write of the document is queued. */
  has(key: string): boolean {
    return this.counts.has(key);
  }
}
