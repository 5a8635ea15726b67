/**
 * How far the seed is, on stderr (stdout keeps the one summary line): on a terminal a bar with
 * the items written, the rate and the time left (cli-progress); otherwise (a log, a CI job) one
 * line every few seconds saying the same, so a long seed is never silent.
 */
import { SingleBar } from 'cli-progress';

/** Where the progress goes: a writable stream, a terminal or not. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): boolean;
}

/** Told how many more items were written; `done` when the seed is over (done or failed). */
export interface SeedProgress {
  add(items: number): void;
  done(): void;
}

/** Options of {@link seedProgress}. */
export interface ProgressOptions {
  readonly total: number;
  readonly stream: ProgressStream;
  /** Between two lines when the stream is not a terminal (default 5 s). */
  readonly everyMs?: number;
  /** The clock (tests pass their own). */
  readonly now?: () => number;
}

const DEFAULT_EVERY_MS = 5000;

function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'unknown';
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** The bar on a terminal. */
function barProgress(o: ProgressOptions, now: () => number): SeedProgress {
  const started = now();
  let written = 0;
  const bar = new SingleBar({
    // cli-progress writes through readline's cursor moves, which any writable stream takes.
    stream: o.stream as NodeJS.WritableStream,
    format: 'seed [{bar}] {percentage}% | {value}/{total} items | {rate} items/s | {eta_formatted} left',
    hideCursor: true,
    etaBuffer: 20,
    fps: 5,
  });
  bar.start(o.total, 0, { rate: '0' });
  return {
    add(items) {
      written += items;
      const seconds = Math.max(0.001, (now() - started) / 1000);
      bar.update(Math.min(written, o.total), { rate: count(written / seconds) });
    },
    done() {
      bar.stop();
    },
  };
}

/** One line every `everyMs` when the stream is not a terminal. */
function lineProgress(o: ProgressOptions, now: () => number): SeedProgress {
  const started = now();
  const every = o.everyMs ?? DEFAULT_EVERY_MS;
  let written = 0;
  let last = started;
  return {
    add(items) {
      written += items;
      const at = now();
      if (at - last < every) return;
      last = at;
      const rate = written / Math.max(0.001, (at - started) / 1000);
      const left = duration((o.total - written) / rate);
      const percent = o.total === 0 ? 100 : Math.floor((100 * written) / o.total);
      o.stream.write(
        `seed: ${count(written)} of ${count(o.total)} items (${percent}%), ${count(rate)} items/s, about ${left} left\n`,
      );
    },
    done() {},
  };
}

/** The progress report for a seed of `total` items: a bar on a terminal, lines otherwise. */
export function seedProgress(o: ProgressOptions): SeedProgress {
  const now = o.now ?? Date.now;
  return o.stream.isTTY === true ? barProgress(o, now) : lineProgress(o, now);
}
