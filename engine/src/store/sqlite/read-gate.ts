/**
 * Reads of what the group commit (group-commit.ts) has queued: a read sees every write its
 * process asked for before it, as when each write committed as it was asked.
 *
 * The collections the queued writes touch are counted. A read of one of them has the queue
 * committed first, then goes on once the code those writes resumed has run to its next wait
 * ({@link afterMicrotasks}): that code asks for the writes that follow (an action, then the host's
 * `last_action`), which are committed in turn (a few rounds at most), so a read never sees half of
 * what a piece of work wrote in one go, and no other request runs in between.
 *
 * When another process holds the write lock past the loop's short wait, the queue cannot be
 * committed yet: the read then waits, off the loop, for the queued writes of its collection to
 * settle, in line with the other reads waiting for them, which go on one at a time, one a turn of
 * the loop (the one before has run to its next wait by then, and a long line never holds the loop). A read-modify-write of one item (a PATCH) thus reads
 * the version the writes before it made instead of reading around them and losing the race.
 */

/** Rounds of commit-then-let-the-resumed-code-run a read makes at most. */
const READ_ROUNDS = 3;
/** The key of "every collection": an aggregation, which may read several. */
const ANY = '\u0000any';

/**
 * Resolves once the microtasks queued so far, and those they queue, have run (a microtask that
 * queues a tick: Node runs ticks only once the microtask queue is empty), before any other I/O
 * callback or timer: the promise callbacks of the writes just committed, and the code after them
 * up to its next real wait.
 */
export function afterMicrotasks(): Promise<void> {
  return new Promise((resolve) => queueMicrotask(() => process.nextTick(resolve)));
}

/** The queued writes per collection, and the reads waiting for them. */
export class ReadGate {
  private readonly counts = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  /** `commit`: commits the queue now if the lock allows (the group commit's flush for a read). */
  constructor(private readonly commit: () => void) {}

  /** A write touching `collections` was queued. */
  add(collections: readonly string[]): void {
    for (const key of [...collections, ANY]) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** A write touching `collections` settled (committed or failed); reads waiting for them go on. */
  settle(collections: readonly string[]): void {
    for (const key of [...collections, ANY]) {
      const n = (this.counts.get(key) ?? 1) - 1;
      if (n > 0) this.counts.set(key, n);
      else {
        this.counts.delete(key);
        this.wakeNext(key);
      }
    }
  }

  /** Before a read of `collection` (undefined: of any): a promise to await first, or undefined. */
  beforeRead(collection?: string): Promise<void> | undefined {
    const key = collection ?? ANY;
    return this.counts.has(key) || this.waiting.has(key) ? this.commitForRead(key) : undefined;
  }

  private async commitForRead(key: string): Promise<void> {
    if (this.waiting.has(key)) await this.inLine(key);
    for (let round = 0; round < READ_ROUNDS && this.counts.has(key); round++) {
      this.commit();
      if (this.counts.has(key)) await this.inLine(key);
      // The code the committed writes resumed runs to its next wait, asking for the writes that follow.
      await afterMicrotasks();
    }
  }

  /** Resolves at this read's turn, after the reads already waiting for `key`. */
  private inLine(key: string): Promise<void> {
    return new Promise((resolve) => {
      const line = this.waiting.get(key);
      if (line === undefined) this.waiting.set(key, [resolve]);
      else line.push(resolve);
    });
  }

  /** Lets the first waiting read go on; the next one once it has run to its next wait. */
  private wakeNext(key: string): void {
    const line = this.waiting.get(key);
    const first = line?.shift();
    if (first === undefined) return;
    if (line?.length === 0) this.waiting.delete(key);
    first();
    if (!this.waiting.has(key)) return;
    // The next turn of the loop, not the next microtask: the read that went on has run to its next
    // wait by then, and a long line does not hold the loop (nor, through its commits, the item its
    // reads are about) for the whole line at once; other processes' writes and requests get turns.
    setImmediate(() => {
      // The read that went on may have queued a write of its own: committed first (its settling wakes the next).
      if (this.counts.has(key)) this.commit();
      else this.wakeNext(key);
    });
  }
}
