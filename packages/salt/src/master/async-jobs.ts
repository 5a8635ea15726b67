/**
 * Follows `local_async` jobs in the background: polls GET /jobs/<jid> (salt-api notes §3: its
 * `return` holds only the minions that have returned so far) and records each return as it
 * arrives, until every targeted minion has returned or the deadline passes; minions still silent
 * then are recorded as not answered. `recordReturns` is idempotent, so the events consumer may
 * record the same returns too.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { stampNow, type Log, type Runtime } from '@fleet/engine';
import type { SaltClient } from '../client';
import { recordReturns, type JobReturn } from '../record';

/** What a `local_async` call published. */
export interface TrackedJob {
  readonly jid: string;
  /** The minions the master expects to return. */
  readonly minions: readonly string[];
  readonly fun: string;
  readonly funArgs: readonly unknown[];
  /** The token name recorded with the actions. */
  readonly user: string;
}

export interface TrackerOptions {
  readonly client: SaltClient;
  readonly runtime: Runtime;
  readonly log: Log;
  /** Between two polls of one job. */
  readonly pollMs: number;
  /** How long returns are waited for after the call. */
  readonly deadlineMs: number;
}

/** The text shown and recorded for a minion that did not answer (Salt's own wording, notes §2). */
export const NO_RESPONSE = 'Minion did not return. [No response]';

/** Background follower of published jobs; `stop()` ends every loop. */
export class AsyncJobTracker {
  private readonly abort = new AbortController();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly o: TrackerOptions) {}

  /** Starts following a job (returns at once). */
  track(job: TrackedJob): void {
    const loop = this.follow(job).catch((err: unknown) => {
      if (!this.abort.signal.aborted)
        this.o.log.error(
          { jid: job.jid, error: err instanceof Error ? err.message : String(err) },
          'async job follow-up failed',
        );
    });
    this.running.add(loop);
    void loop.finally(() => this.running.delete(loop));
  }

  /** Jobs being followed now. */
  get active(): number {
    return this.running.size;
  }

  /** Stops polling; resolves when every loop has ended. */
  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled([...this.running]);
  }

  private async follow(job: TrackedJob): Promise<void> {
    const recorded = new Set<string>();
    const deadline = Date.now() + this.o.deadlineMs;
    const returnOf = (
      host: string,
      ret: unknown,
      retcode: number | null,
      success: boolean | null,
    ): JobReturn => ({
      jid: job.jid,
      host,
      fun: job.fun,
      funArgs: job.funArgs,
      ret,
      retcode,
      success,
      user: job.user,
      saltUser: this.o.client.user,
    });
    while (recorded.size < job.minions.length) {
      await sleep(Math.min(this.o.pollMs, Math.max(0, deadline - Date.now())), undefined, {
        signal: this.abort.signal,
      });
      try {
        const detail = await this.o.client.jobs(job.jid);
        const fresh = Object.entries(detail.result).filter(
          ([host]) => job.minions.includes(host) && !recorded.has(host),
        );
        // The outcome is the retcode when there is one (record.ts `outcomeOf`).
        const returns = fresh.map(([host, r]) => returnOf(host, r.return, r.retcode, r.success));
        if (returns.length > 0) await recordReturns(this.o.runtime, returns, stampNow());
        for (const [host] of fresh) recorded.add(host);
      } catch (err) {
        if (this.abort.signal.aborted) return;
        this.o.log.warn(
          { jid: job.jid, error: err instanceof Error ? err.message : String(err) },
          'polling an async job failed; will retry',
        );
      }
      if (Date.now() >= deadline) break;
    }
    const silent = job.minions.filter((host) => !recorded.has(host));
    if (silent.length > 0) {
      this.o.log.info(
        { jid: job.jid, silent: silent.length },
        'async job deadline passed; recording silent minions',
      );
      await recordReturns(
        this.o.runtime,
        silent.map((host) => returnOf(host, NO_RESPONSE, null, false)),
        stampNow(),
      );
    }
  }
}
