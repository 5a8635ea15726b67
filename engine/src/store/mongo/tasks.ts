/**
 * The adapter's background work (index builds, backfills) and its state, as `Store.status()`
 * reports it. Work runs one task at a time, in the order it was scheduled, so an upgrade that adds
 * several indexes does not load the server with all of them at once; a task that cannot reach the
 * database waits and tries again, so a start during an outage finishes its work once it is back.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Log } from '../../log';
import { HttpError, ServiceUnavailable } from '../../errors';
import type { StoreStatus, StoreTask, StoreTaskState } from '../port';

/** Waits between attempts of a task whose database was unreachable or slow: doubling, at most 30 s. */
const RETRY_MS = { first: 500, max: 30_000 } as const;

/** One step of a task: resolves `done` when finished, `again` to be called again after a pause. */
export type TaskStep = () => Promise<'done' | 'again' | { readonly skipped: string }>;

interface Entry {
  name: string;
  kind: string;
  state: StoreTaskState;
  since: Date;
  detail?: string;
}

/** A queue of background tasks and their states. */
export class BackgroundTasks {
  private readonly entries: Entry[] = [];
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly stop = new AbortController();

  constructor(private readonly log?: Log) {}

  /**
   * Queues `step`, called until it is done; resolves when it settled (callers need not wait). An
   * unreachable database or a time-out (503) is waited out; any other error fails the task
   * (logged, reported, not retried).
   */
  run(kind: string, name: string, step: TaskStep): Promise<void> {
    const entry: Entry = { kind, name, state: 'pending', since: new Date() };
    this.entries.push(entry);
    this.chain = this.chain.then(() => this.drive(entry, step));
    return this.chain;
  }

  /** Resolves once every queued task has settled (done, skipped, failed, or stopped by `close`). */
  async settled(): Promise<void> {
    for (let seen = -1; seen !== this.entries.length;) {
      seen = this.entries.length;
      await this.chain;
    }
  }

  /** Stops: the current task's step finishes, nothing more runs. */
  close(): void {
    this.stopped = true;
    this.stop.abort();
  }

  /** The tasks and the overall state: `ready` when every task is done or skipped. */
  status(): StoreStatus {
    const tasks: StoreTask[] = this.entries.map((e) => ({
      kind: e.kind,
      name: e.name,
      state: e.state,
      since: e.since,
      ...(e.detail === undefined ? {} : { detail: e.detail }),
    }));
    const failed = tasks.some((t) => t.state === 'failed');
    const open = tasks.some((t) => t.state === 'pending' || t.state === 'running');
    return { state: failed ? 'degraded' : open ? 'working' : 'ready', tasks };
  }

  private set(entry: Entry, state: StoreTaskState, detail?: string): void {
    entry.state = state;
    entry.since = new Date();
    if (detail === undefined) delete entry.detail;
    else entry.detail = detail;
  }

  private async drive(entry: Entry, step: TaskStep): Promise<void> {
    if (this.stopped) return;
    this.set(entry, 'running');
    for (let attempt = 0; !this.stopped;) {
      let outcome: Awaited<ReturnType<TaskStep>>;
      try {
        outcome = await step();
        attempt = 0;
      } catch (error) {
        if (!(error instanceof ServiceUnavailable)) {
          const detail = error instanceof HttpError ? error.message : 'the database refused it (see the log)';
          this.set(entry, 'failed', detail);
          this.log?.error({ task: entry.name, err: error }, 'mongodb background task failed');
          return;
        }
        entry.detail = `waiting for the database: ${error.message}`;
        outcome = 'again';
        attempt++;
      }
      if (outcome === 'done') return this.set(entry, 'done');
      if (outcome !== 'again') return this.set(entry, 'skipped', outcome.skipped);
      if (attempt > 0) await this.pause(Math.min(RETRY_MS.max, RETRY_MS.first * 2 ** (attempt - 1)));
    }
  }

  private async pause(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.stop.signal, ref: false }).catch(() => undefined);
  }
}
