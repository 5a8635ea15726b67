/**
 * Claiming a due task: a versioned write through the local API (`If-Match` on the version that
 * was read, @fleet/duties `claimDue`) that moves `next` to the following run computed from now
 * (so missed runs are not replayed in a burst), bumps `count_of_execution` and stamps `last_run`.
 * Of several schedulers on one store exactly one write of each version succeeds: the others get
 * 412 and look again.
 */
import { claimDue as claimFirstDue } from '@fleet/duties';
import { systemContext, type ItemOf, type Runtime, type WriteDataOf } from '@fleet/engine';
import { nextRun, tasks, type Schedule } from '@fleet/resources';

type Task = ItemOf<typeof tasks>;

/** The schedule fields of a stored task. */
export function scheduleOf(task: Readonly<Record<string, unknown>>): Schedule {
  return {
    start: task.start instanceof Date ? task.start : new Date(String(task.start)),
    end: task.end instanceof Date ? task.end : null,
    interval: typeof task.interval === 'number' ? task.interval : null,
    cron: typeof task.cron === 'string' ? task.cron : null,
  };
}

/**
 * The update that claims the due run of `task` at `now`: `next` becomes the first run at or after
 * now + 1 s (null, and status `finished`, when the schedule has none left).
 */
export function claimUpdate(task: Task, now: Date): WriteDataOf<(typeof tasks)['fields']> {
  const next = nextRun(scheduleOf(task), new Date(now.getTime() + 1000));
  // `status` only when the schedule is over: a status change makes the task's `prepare` hook
  // recompute `next` from now, which would undo the claim's step past the run it claims.
  return {
    next,
    last_run: now,
    count_of_execution: task.count_of_execution + 1,
    ...(next === null ? { status: 'finished' as const } : {}),
  };
}

/**
 * Claims the earliest due scheduled task, or resolves null when none is due. The returned
 * task is the one after the claim (its `next` already advanced).
 */
export async function claimDue(runtime: Runtime, now: Date): Promise<Task | null> {
  return claimFirstDue(
    runtime.resources.of(tasks),
    {
      where: { status: 'scheduled', next: { $lte: now } },
      sort: [['next', 1]],
      update: (due) => claimUpdate(due, now),
    },
    systemContext(runtime, now),
  );
}
