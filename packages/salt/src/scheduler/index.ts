/**
 * The task scheduler: every `tickMs` (default 1 s), on the instance holding the `task-scheduler`
 * lease (@fleet/duties), it claims the due tasks one at a time (claim.ts: the claim itself
 * advances `next`, so even two schedulers on one store run each due run exactly once, and missed
 * runs are not replayed) and executes each through the master service as principal
 * `task:<name>`. The outcome is recorded on the task (`last_jid`, `last_error`); a failed run
 * (master error, or no target answered) raises a `task.failed` error alert. The server starts it
 * beside the sync loop when a master is configured.
 */
import { DUTIES, PeriodicDuty, type DutyContext } from '@fleet/duties';
import {
  stampNow,
  systemContext,
  type CallContext,
  type ItemOf,
  type Log,
  type Runtime,
} from '@fleet/engine';
import { executionRequest, tasks, type ExecutionResponse, type MasterService } from '@fleet/resources';
import { alert, raiseAlert } from '../record';
import { claimDue } from './claim';

type Task = ItemOf<typeof tasks>;

export { claimDue, claimUpdate, scheduleOf } from './claim';

export interface SchedulerOptions {
  readonly log: Log;
  /** Executes the runs (its `execute` records the actions). */
  readonly master: Pick<MasterService, 'execute'>;
  /** The engine's runtime: claims and outcomes go through its local API; `execute` gets it too. */
  readonly runtime: Runtime;
  /** Between two ticks. Default 1000 ms. */
  readonly tickMs?: number;
  /**
   * The process's duties: the ticks run by themselves on the instance holding the scheduler's
   * lease. Without it nothing ticks by itself (tests call `tick()`).
   */
  readonly duty?: DutyContext;
}

/** A running scheduler. */
export interface RunningScheduler {
  /** Claims and runs every due task now; resolves how many runs this call executed. */
  tick(): Promise<number>;
  /** Stops the loop and waits for the tick in progress. */
  stop(): Promise<void>;
}

/** What one run of a task ended with. */
export interface RunOutcome {
  readonly jid: string | null;
  readonly error: string | null;
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function outcomeOf(response: ExecutionResponse): RunOutcome {
  const jid = response.task_id || null;
  if (response.status === 'failed') return { jid, error: `no target answered (job ${response.task_id})` };
  return { jid, error: null };
}

/** Executes one claimed task through the master service. */
export async function executeTask(
  master: Pick<MasterService, 'execute'>,
  runtime: Runtime,
  task: Task,
): Promise<RunOutcome> {
  const ctx: CallContext = {
    principal: { name: `task:${task.name}`, role: 'operator' },
    now: stampNow(),
    runtime,
  };
  const targets = task.tgt;
  // A stored task is checked like a request body: the schema of the execution routes.
  const checked = executionRequest.safeParse({
    exec_client: task.salt_client,
    fun: task.fun,
    kwarg: task.kwarg,
    arg: task.arg,
  });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return {
      jid: null,
      error: `the task cannot run: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`,
    };
  }
  const body = checked.data;
  try {
    // `host` targets one id; several ids need the list targeting of `group`.
    const response = await master.execute(
      { targets, kind: targets.length === 1 ? 'host' : 'group', body },
      ctx,
    );
    return outcomeOf(response);
  } catch (err) {
    return { jid: null, error: errText(err) };
  }
}

/** Records a run's outcome on the task, and raises `task.failed` when it failed. */
export async function recordOutcome(runtime: Runtime, task: Task, outcome: RunOutcome): Promise<void> {
  const now = stampNow();
  await runtime.resources
    .of(tasks)
    .patch(task._id, { last_jid: outcome.jid, last_error: outcome.error }, systemContext(runtime, now));
  if (outcome.error !== null) {
    await raiseAlert(
      runtime,
      alert('task.failed', 'error', { task: task._id, name: task.name, error: outcome.error }),
      now,
    );
  }
}

class Scheduler implements RunningScheduler {
  private stopped = false;
  private readonly loop: PeriodicDuty<number> | undefined;

  constructor(private readonly o: SchedulerOptions) {
    this.loop =
      o.duty === undefined
        ? undefined
        : new PeriodicDuty<number>({
            ctx: o.duty,
            duty: { lease: DUTIES.scheduler.lease, what: 'the task scheduler' },
            intervalMs: o.tickMs ?? 1000,
            first: 'now',
            recorded: false,
            run: () => this.tick(),
          });
  }

  async tick(): Promise<number> {
    let runs = 0;
    while (!this.stopped) {
      const task = await claimDue(this.o.runtime, stampNow());
      if (task === null) break;
      runs++;
      const outcome = await executeTask(this.o.master, this.o.runtime, task);
      if (outcome.error !== null)
        this.o.log.warn({ task: task._id, error: outcome.error }, 'task run failed');
      await recordOutcome(this.o.runtime, task, outcome);
    }
    return runs;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop?.stop();
  }
}

/** Starts the scheduler (ticking by itself on the lease's holder when given `duty`). */
export function startScheduler(o: SchedulerOptions): RunningScheduler {
  return new Scheduler(o);
}
