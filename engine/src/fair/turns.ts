/**
 * Turns of the event loop for long work, so that no request holds the loop for long in one
 * stretch. Work that may run long (projecting, masking, rendering a page of 1,000 items) goes in
 * slices of about {@link SLICE_MS}; between two slices it waits for its turn. Turns are given one
 * per iteration of the loop, in the order they were asked for: between any two slices, of any
 * requests, Node polls for I/O, so a request that just arrived (`/api/health`, a small read) is
 * read and answered after at most one slice, never after every waiting request's slice in a row
 * (as `setImmediate` per request would do: all callbacks queued for the check phase run in one go).
 */

/** How long a slice holds the loop before it lets others run. */
export const SLICE_MS = 8;

let sliceMs = SLICE_MS;

/**
 * Sets how long a slice runs (tests set 0: every look at the clock ends a slice, so the order of
 * events shows without depending on the machine's speed); returns the length it replaced.
 */
export function setSliceMs(ms: number): number {
  const before = sliceMs;
  sliceMs = ms;
  return before;
}

const waiting: Array<() => void> = [];
let scheduled = false;

function tick(): void {
  const next = waiting.shift();
  // Queued from within the check phase: the next turn comes after the next poll for I/O.
  if (waiting.length > 0) setImmediate(tick);
  else scheduled = false;
  next?.();
}

/** Resolves on a later iteration of the event loop, after I/O was polled; one waiter per iteration. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(tick);
    }
  });
}

/** How many are waiting for a turn (for tests and the bench). */
export function turnsWaiting(): number {
  return waiting.length;
}

/** Times the slices of one piece of work: `due()` once it has held the loop for a slice. */
export class Slices {
  private started = performance.now();

  /** Whether the current slice has run its time. */
  due(): boolean {
    return performance.now() - this.started >= sliceMs;
  }

  /** Waits for the next turn, then starts a new slice. */
  async pause(): Promise<void> {
    await nextTurn();
    this.started = performance.now();
  }

  /** Pauses when the current slice has run its time. */
  async maybePause(): Promise<void> {
    if (this.due()) await this.pause();
  }
}

/** `items.map(fn)`, in slices. */
export async function mapInSlices<T>(items: readonly T[], fn: (item: T) => T): Promise<T[]> {
  const slices = new Slices();
  const out: T[] = new Array<T>(items.length);
  for (let i = 0; i < items.length; i += 1) {
    out[i] = fn(items[i] as T);
    if ((i & 15) === 15) await slices.maybePause();
  }
  return out;
}
