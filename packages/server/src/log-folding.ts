/**
 * Folds the repeated warnings of one failure into one line with a count. A peer that stays down
 * makes its retry loop warn every few seconds ("salt event stream could not be opened", "salt-api
 * read failed, retrying"): the first such line is written at once; the same warning again (same
 * level, message, component and error, whatever its attempt number or delay) within the window
 * is only counted, and when the window ends one line says how many more there were (`repeated`,
 * with `first` and `last` times). Lines below `warn` (requests, progress) are never folded.
 */
import type { DestinationStream } from 'pino';

/** How long the repeats of a warning are counted before their line is written. */
export const FOLD_WINDOW_MS = 60_000;

/** Fields that differ between the retries of one failure, left out of the comparison. */
const VOLATILE = new Set([
  'time',
  'pid',
  'hostname',
  'attempt',
  'retryInMs',
  'delayMs',
  'quietMs',
  'ms',
  'restartInMs',
]);

/** pino's level number of `warn`. */
const WARN = 40;

interface Repeat {
  /** The latest repeat's object (what the summary line carries). */
  last: Record<string, unknown>;
  count: number;
  firstAt: number;
  lastAt: number;
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** What two retries of one failure share. */
function keyOf(line: Record<string, unknown>): string {
  return JSON.stringify(Object.entries(line).filter(([k]) => !VOLATILE.has(k)));
}

/** A pino destination that folds repeated warnings before they reach `target`. */
export class FoldingStream implements DestinationStream {
  /** Warnings written in the current window, by key; those with a count are written at its end. */
  private readonly seen = new Map<string, Repeat>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly target: DestinationStream,
    private readonly windowMs = FOLD_WINDOW_MS,
  ) {}

  write(line: string): void {
    const obj = line.includes('"level":') ? parse(line) : undefined;
    if (obj === undefined || typeof obj.level !== 'number' || obj.level < WARN) {
      this.target.write(line);
      return;
    }
    const key = keyOf(obj);
    const now = Date.now();
    const repeat = this.seen.get(key);
    if (repeat !== undefined) {
      repeat.count += 1;
      repeat.last = obj;
      repeat.lastAt = now;
      return;
    }
    this.seen.set(key, { last: obj, count: 0, firstAt: now, lastAt: now });
    this.target.write(line);
    this.timer ??= setTimeout(() => this.flush(), this.windowMs).unref();
  }

  /** Writes one line per warning repeated in the window, and starts a new window. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const repeats = [...this.seen.values()].filter((r) => r.count > 0);
    this.seen.clear();
    for (const r of repeats)
      this.target.write(
        `${JSON.stringify({
          ...r.last,
          time: r.lastAt,
          repeated: r.count,
          first: new Date(r.firstAt).toISOString(),
          last: new Date(r.lastAt).toISOString(),
        })}\n`,
      );
  }
}
