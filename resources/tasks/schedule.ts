/**
 * When a task runs next. `start` and `end` are UTC; `interval` is in seconds; `cron` uses
 * cron-parser syntax in UTC; neither means run once at `start`. Missed runs are not replayed:
 * the next run is the first one due at or after `from`.
 */
import { CronExpressionParser } from 'cron-parser';

export interface Schedule {
  readonly start: Date;
  readonly end?: Date | null;
  readonly interval?: number | null;
  readonly cron?: string | null;
}

/** Why a cron expression is refused, or null. */
export function cronError(expression: string): string | null {
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC' });
    return null;
  } catch (err) {
    return `invalid cron expression: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** The first run at or after `from` (never before `start`); null when the schedule is over. */
export function nextRun(schedule: Schedule, from: Date): Date | null {
  const floor = Math.max(from.getTime(), schedule.start.getTime());
  let next: number;
  if (schedule.cron) {
    const it = CronExpressionParser.parse(schedule.cron, { tz: 'UTC', currentDate: new Date(floor - 1) });
    next = it.next().toDate().getTime();
  } else if (schedule.interval && schedule.interval > 0) {
    const step = schedule.interval * 1000;
    const start = schedule.start.getTime();
    next = start + Math.ceil((floor - start) / step) * step;
  } else {
    next = schedule.start.getTime();
    if (next < from.getTime()) return null;
  }
  if (schedule.end && next > schedule.end.getTime()) return null;
  return new Date(next);
}
