/**
 * tasks: scheduled remote executions. `start` "YYYY-MM-DD HH:MM" is UTC; `interval` seconds or
 * `cron`; `next` and the run counters are server-set. Status moves by PATCH /tasks/{id}/{status}
 * (paused | scheduled; resuming recomputes `next` from now). PUT /tasks names the task by `_id`.
 */
import { Conflict, defineResource, f, Unprocessable } from '@fleet/engine';
import { z } from 'zod';
import { cronError, nextRun, type Schedule } from './tasks/schedule';

/** The fields of a task (stored, or merged from a write) the schedule rules read. */
interface TaskState {
  readonly start?: Date;
  readonly end?: Date | null;
  readonly interval?: number | null;
  readonly cron?: string | null;
  readonly status?: string;
  readonly count_of_execution?: number;
}

function scheduleOf(task: TaskState): Schedule {
  // `start` is required on create, and kept by every later write.
  if (task.start === undefined)
    throw new Unprocessable('tasks: invalid schedule', { start: 'required field' });
  return {
    start: task.start,
    end: task.end ?? null,
    interval: task.interval ?? null,
    cron: task.cron ?? null,
  };
}

function checkSchedule(task: TaskState): void {
  const issues: Record<string, string> = {};
  if (task.interval != null && task.cron != null) issues.cron = 'give either interval or cron, not both';
  if (typeof task.cron === 'string') {
    const why = cronError(task.cron);
    if (why) issues.cron = why;
  }
  if (task.end instanceof Date && task.start instanceof Date && task.end <= task.start)
    issues.end = 'must be after start';
  if (Object.keys(issues).length > 0) throw new Unprocessable('tasks: invalid schedule', issues);
}

/**
 * `next` (and `status`) after a schedule change. A one-shot whose start has passed and that never
 * ran runs now (a form that fills in the current minute means "now"); one that ran is finished; a
 * schedule whose `end` is already past would never run, and is refused.
 */
function nextState(task: TaskState, now: Date): { next: Date | null; status?: 'finished' } {
  if (task.status === 'finished') return { next: null };
  const next = nextRun(scheduleOf(task), now);
  if (next !== null) return { next };
  if (task.end instanceof Date && task.end <= now)
    throw new Unprocessable('tasks: invalid schedule', { end: 'is in the past: the task would never run' });
  return (task.count_of_execution ?? 0) === 0 ? { next: now } : { next: null, status: 'finished' };
}

export const tasks = defineResource({
  name: 'tasks',
  description: 'Scheduled remote executions.',
  fields: {
    salt_client: f.string({ enum: ['local', 'local_async', 'local_batch'], default: 'local_async' }),
    name: f.string({ required: true, minLength: 1, maxLength: 200 }),
    fun: f.string({ required: true, minLength: 1, maxLength: 200 }),
    kwarg: f.object({}, { open: true, default: () => ({}) }),
    arg: f.array(f.string(), { default: () => [] }),
    start: f.datetime({ required: true, description: 'UTC; "YYYY-MM-DD HH:MM" accepted' }),
    end: f.datetime({ nullable: true }),
    status: f.string({ enum: ['scheduled', 'paused', 'finished'], default: 'scheduled' }),
    tgt: f.array(f.string({ minLength: 1 }), { required: true }),
    interval: f.integer({ nullable: true, min: 1, description: 'Seconds between runs' }),
    cron: f.string({
      nullable: true,
      maxLength: 200,
      description: 'Cron expression (UTC), instead of interval',
    }),
    next: f.datetime({ readonly: true, nullable: true }),
    count_of_execution: f.integer({ readonly: true, default: 0 }),
    last_run: f.datetime({ readonly: true, nullable: true }),
    last_jid: f.string({ readonly: true, nullable: true }),
    last_error: f.string({ readonly: true, nullable: true }),
  },
  methods: {
    list: 'viewer',
    get: 'viewer',
    create: 'operator',
    patch: 'operator',
    updateByBody: 'operator',
    delete: 'operator',
  },
  indexes: [
    {
      fields: [
        ['status', 1],
        ['next', 1],
      ],
    },
  ],
  hooks: {
    async prepare({ op, fields, original, ctx }) {
      const merged: TaskState = { ...original, ...fields };
      checkSchedule(merged);
      if (op === 'create' && fields.status === 'finished')
        throw new Unprocessable('tasks: bad status', { status: 'a new task is scheduled or paused' });
      const scheduleChanged =
        op !== 'patch' || ['start', 'end', 'interval', 'cron', 'status'].some((k) => k in fields);
      if (scheduleChanged) Object.assign(fields, nextState(merged, ctx.now));
      return fields;
    },
  },
  routes: [
    {
      method: 'patch',
      path: '/:id/:status',
      role: 'operator',
      summary: 'Pauses (paused) or resumes (scheduled) a task; resuming recomputes next from now',
      renders: { as: 'write' },
      async handler({ params, ctx, resource, ifMatch }) {
        const status = z.enum(['paused', 'scheduled']).safeParse(params.status);
        if (!status.success)
          throw new Unprocessable('tasks: unknown status', { status: 'must be paused or scheduled' });
        const task = await resource.get(params.id ?? '', ctx);
        if (task.status === 'finished') throw new Conflict('tasks: a finished task cannot change status');
        // `prepare` recomputes `next` for a status change (and finishes a task with no run left).
        return {
          write: await resource.patch(
            task._id,
            { status: status.data },
            ctx,
            ifMatch === undefined ? {} : { ifMatch },
          ),
        };
      },
    },
  ],
});
