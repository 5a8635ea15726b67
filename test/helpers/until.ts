/**
 * Waiting on a condition, never on a time: `until` polls `probe` until it holds. The deadline is only
 * a bound on a failure (a condition that never comes), far above what a loaded machine needs.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves once `probe` answers true; rejects naming `what` after `deadlineMs` (default 60 s). */
export async function until(
  probe: () => boolean | Promise<boolean>,
  what = 'the condition',
  deadlineMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
