/**
 * How the group commit (group-commit.ts) asks for the write lock while another process holds it
 * (a process of ours holds it for one group: a few milliseconds). The loop blocks on the lock for
 * {@link LockWait.allowance} at most, all waits of one turn of the loop together within the
 * turn's budget: a group due on its own asks with a short wait, and with none once the lock has
 * been refused until a group gets it again (a lock held for long costs one short wait, not one per
 * attempt); a read that needs its process's queued writes committed to see them may use what is
 * left of the turn's budget (it would otherwise read around them). A refused group asks again
 * after {@link LockWait.refused}'s delay: 1 ms, doubling to 16 ms, jittered, the loop free meanwhile.
 */

/** The figures a {@link LockWait} keeps (part of the group commit's stats). */
export interface LockWaitStats {
  /** Times the write lock was found held by another connection. */
  busy: number;
  /** The longest the loop blocked on the lock in one BEGIN (at most the turn's budget). */
  maxBlockedMs: number;
  /** The longest wait for the lock, from the first refusal to the BEGIN (the loop turned meanwhile). */
  maxLockWaitMs: number;
}

/** Back-off while another process holds the lock: 1 ms, doubling to 16 ms, each wait jittered. */
const BACKOFF_MS = { first: 1, max: 16 } as const;
/** The wait of a group due on its own (not asked for by a read). */
const GROUP_WAIT_MS = 10;

/** The lock-asking state of one group commit. */
export class LockWait {
  private attempt = 0;
  /** When the lock was first refused to the waiting group (performance.now()), while it waits. */
  private refusedAt: number | undefined;
  /** Time the loop blocked on the lock in this turn of the loop. */
  private blockedMs = 0;
  private turnEnds = false;

  /** `blockingMs`: the most the loop may block on the lock in one turn, all waits together. */
  constructor(
    private readonly blockingMs: number,
    private readonly stats: LockWaitStats,
  ) {}

  /**
   * How long the next attempt may block the loop (ms): for a read, what is left of the turn's
   * budget; for a group due on its own, a short wait, none while a refusal is waited out.
   */
  allowance(forRead: boolean): number {
    const left = Math.max(0, this.blockingMs - this.blockedMs);
    if (forRead) return left;
    return this.refusedAt === undefined ? Math.min(GROUP_WAIT_MS, left) : 0;
  }

  /** An attempt blocked the loop `ms`: counted against this turn's allowance. */
  blocked(ms: number): void {
    // A free lock is taken in microseconds; SQLite's busy handler sleeps 1 ms at least.
    if (ms < 0.5) return;
    this.blockedMs += ms;
    this.stats.maxBlockedMs = Math.max(this.stats.maxBlockedMs, ms);
    if (this.turnEnds) return;
    this.turnEnds = true;
    setImmediate(() => {
      this.turnEnds = false;
      this.blockedMs = 0;
    });
  }

  /** The lock was refused: the delay before the next attempt (ms). */
  refused(): number {
    this.stats.busy += 1;
    this.refusedAt ??= performance.now();
    const ceiling = Math.min(BACKOFF_MS.max, BACKOFF_MS.first * 2 ** this.attempt);
    this.attempt += 1;
    // "Equal jitter": two processes waiting on each other's groups do not keep asking in step.
    return Math.max(1, Math.round(ceiling / 2 + (Math.random() * ceiling) / 2));
  }

  /** The lock was taken at `now` (performance.now()). */
  taken(now: number): void {
    if (this.refusedAt !== undefined)
      this.stats.maxLockWaitMs = Math.max(this.stats.maxLockWaitMs, now - this.refusedAt);
    this.refusedAt = undefined;
    this.attempt = 0;
  }
}
