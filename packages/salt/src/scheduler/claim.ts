/**
 * Claiming a due task (DESIGN §5 "tasks"): one atomic `findOneAndUpdate` that moves `next` to the
 * following run computed from now (so missed runs are not replayed in a burst), bumps
 * `count_of_execution` and stamps `last_run`. The filter names the `next` that was read, so of
 * several schedulers (one per API instance on one database) exactly one wins each due run.
 */
import { randomBytes } from 'node:crypto';
import type { Doc, Store } from '@fleet/engine';
import { nextRun, type Schedule } from '../../../../resources/tasks/schedule';

/** How many times a claim re-reads the due tasks after losing a race, per call. */
const CLAIM_ATTEMPTS = 5;

/** The schedule fields of a stored task. */
export function scheduleOf(task: Readonly<Record<string, unknown>>): Schedule {
  return {
    start: task.start instanceof Date ? task.start : new Date(String(task.start)),
    end: task.end instanceof Date ? task.end : null,
    interval: typeof task.interval === 'number' ? task.interval : null,
    cron: typeof task.cron === 'string' ? task.cron : null,
  };
}

/** A fresh `_etag`. */
export function etag(): string {
  return randomBytes(20).toString('hex');
}

/**
 * The update that claims the due run of `task` at `now`: `next` becomes the first run at or after
 * now + 1 s (null, and status `finished`, when the schedule has none left).
 */
export function claimUpdate(task: Readonly<Record<string, unknown>>, now: Date): Record<string, unknown> {
  const next = nextRun(scheduleOf(task), new Date(now.getTime() + 1000));
  return {
    $set: { next, last_run: now, status: next === null ? 'finished' : 'scheduled', _updated: now, _etag: etag() },
    $inc: { count_of_execution: 1 },
  };
}

/**
 * Claims the earliest due scheduled task, or resolves null when none is due. The returned
 * document is the task after the claim (its `next` already advanced).
 */
export async function claimDue(store: Store, now: Date): Promise<Doc | null> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const [due] = await store.find('tasks', { status: 'scheduled', next: { $lte: now } }, { sort: [['next', 1]], limit: 1 });
    if (due === undefined) return null;
    const claimed = await store.findOneAndUpdate(
      'tasks',
      { _id: due._id, status: 'scheduled', next: due.next },
      claimUpdate(due, now),
      { sort: [['next', 1]], returnDocument: 'after' },
    );
    if (claimed !== null) return claimed;
    // Another scheduler (or a write through the API) changed it first: look again.
  }
  return null;
}
