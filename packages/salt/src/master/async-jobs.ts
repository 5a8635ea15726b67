/**
 * Follows `local_async` jobs through the store (the `async_jobs` resource), so every instance
 * answers for them: `track` writes the job before the execution answers; then whichever instance
 * claims it when its poll is due (@fleet/duties `ClaimLoop`) polls GET /jobs/<jid> (its `return`
 * holds only the minions that have returned so far) and records each new return as it arrives,
 * until every targeted minion has returned or the deadline passes; minions still silent then are
 * recorded as not answered, and the job is deleted. A job whose instance dies is picked up by another one within a poll
 * and the claim's grace. `recordReturns` is idempotent, so the events consumer and the job cache
 * may record the same returns too.
 */
import { ClaimLoop } from '@fleet/duties';
import {
  stampNow,
  systemContext,
  type ItemOf,
  type Log,
  type Runtime,
  type WriteDataOf,
} from '@fleet/engine';
import { async_jobs } from '@fleet/resources';
import type { SaltClient } from '../client';
import { recordReturns, type JobReturn } from '../record';

type Job = ItemOf<typeof async_jobs>;

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

/** The text shown and recorded for a minion that did not answer (Salt's own wording, salt/netapi/__init__.py, salt/client/__init__.py). */
export const NO_RESPONSE = 'Minion did not return. [No response]';

/**
 * How long a claimed poll may take before the job comes due for another instance: above the
 * longest read of salt-api (60 s), so a slow poll is not doubled, and short enough that the job
 * of a dead instance moves on soon.
 */
const POLL_GRACE_MS = 65_000;

/** Follower of published jobs on this instance; `stop()` ends its loop. */
export class AsyncJobTracker {
  private readonly loop: ClaimLoop<Job, WriteDataOf<(typeof async_jobs)['fields']>>;

  constructor(private readonly o: TrackerOptions) {
    this.loop = new ClaimLoop({
      runtime: o.runtime,
      log: o.log,
      what: 'async job follow-up',
      everyMs: o.pollMs,
      api: jobsOf(o.runtime),
      spec: (now) => ({
        where: { next_poll: { $lte: now } },
        sort: [['next_poll', 1]],
        update: () => ({ next_poll: new Date(now.getTime() + o.pollMs + POLL_GRACE_MS) }),
      }),
      handle: (job) => this.poll(job),
    });
  }

  /** Starts following a job: stored before this resolves, polled by whichever instance comes first. */
  async track(job: TrackedJob): Promise<void> {
    const now = stampNow();
    await jobsOf(this.o.runtime).upsertMany(
      [
        {
          _id: job.jid,
          fun: job.fun,
          call: { args: [...job.funArgs] },
          minions: [...job.minions],
          returned: [],
          user: job.user,
          salt_user: this.o.client.user,
          deadline: new Date(now.getTime() + this.o.deadlineMs),
          next_poll: new Date(now.getTime() + this.o.pollMs),
        },
      ],
      systemContext(this.o.runtime, now),
    );
  }

  /** Jobs this instance polls right now. */
  get active(): number {
    return this.loop.busy;
  }

  /** Stops polling; resolves when the polls in progress have ended. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One poll of a claimed job: new returns recorded; at the deadline, the silent minions too. */
  private async poll(job: Job): Promise<void> {
    const returned = new Set(job.returned);
    const expired = Date.now() >= job.deadline.getTime();
    this.o.log.debug(
      { jid: job._id, returned: returned.size, of: job.minions.length },
      'async job: polling the master',
    );
    let fresh: JobReturn[] = [];
    try {
      const detail = await this.o.client.jobs(job._id);
      // The outcome is the retcode when there is one (record.ts `outcomeOf`).
      fresh = Object.entries(detail.result)
        .filter(([host]) => job.minions.includes(host) && !returned.has(host))
        .map(([host, r]) => returnOf(job, host, r.return, r.retcode, r.success));
    } catch (err) {
      this.o.log.warn(
        { jid: job._id, error: err instanceof Error ? err.message : String(err) },
        'polling an async job failed; will retry',
      );
    }
    if (fresh.length > 0) await recordReturns(this.o.runtime, fresh, stampNow());
    for (const r of fresh) returned.add(r.host);
    const silent = job.minions.filter((host) => !returned.has(host));
    if (silent.length > 0 && expired) {
      this.o.log.info(
        { jid: job._id, silent: silent.length },
        'async job deadline passed; recording silent minions',
      );
      await recordReturns(
        this.o.runtime,
        silent.map((host) => returnOf(job, host, NO_RESPONSE, null, false)),
        stampNow(),
      );
    }
    const api = jobsOf(this.o.runtime);
    const ctx = systemContext(this.o.runtime);
    // Followed to its end: nothing reads it any more (the actions hold the outcome).
    if (silent.length === 0 || expired) return api.delete(job._id, ctx);
    const next = new Date(Math.min(Date.now() + this.o.pollMs, job.deadline.getTime()));
    await api.patch(job._id, { returned: [...returned], next_poll: next }, ctx);
  }
}

function jobsOf(runtime: Runtime) {
  return runtime.resources.of(async_jobs);
}

/** The positional values and kwargs of a stored job, as Salt lists them. */
function argsOf(job: Job): unknown[] {
  const args = job.call['args'];
  return Array.isArray(args) ? args : [];
}

function returnOf(
  job: Job,
  host: string,
  ret: unknown,
  retcode: number | null,
  success: boolean | null,
): JobReturn {
  return {
    jid: job._id,
    host,
    fun: job.fun,
    funArgs: argsOf(job),
    ret,
    retcode,
    success,
    user: job.user,
    saltUser: job.salt_user,
  };
}
