/**
 * Group commit: every write of the embedded store goes through here. Writes that arrive together
 * (in one turn of the event loop, and all those that arrive while another process holds the
 * write lock) share one `BEGIN IMMEDIATE` transaction and one commit, so one fsync of the WAL
 * (`synchronous = FULL`) makes many of them durable; each is acknowledged only once that commit
 * has returned. Each write runs in a savepoint of its own: one that fails (a unique conflict, a
 * lost precondition, a refused filter) is rolled back alone and fails alone, the others of its
 * group commit. A commit that fails (a full disk, an I/O error) fails every write of its group
 * with SQLite's error (the store's edge makes it a 503, faults.ts); nothing acknowledged before is
 * touched.
 *
 * The write lock is waited for on the event loop only briefly (lock-wait.ts): at most
 * {@link GroupCommitOptions.blockingWaitMs} a turn of the loop in all (another process of ours
 * holds it for one group, a few milliseconds); when it is still held, the group tries again after
 * a jittered back-off on a timer, without blocking, the loop serving requests meanwhile, and the
 * writes that arrive in between join the group. Only a write that waited
 * {@link GroupCommitOptions.lockWaitMs} in all fails, with SQLITE_BUSY (a 503 "another process
 * holds its write lock"): some process held the lock for seconds, which none of ours does.
 *
 * A read sees every write its process asked before it, as when each write committed as it was
 * asked ({@link GroupCommit.beforeRead}, read-gate.ts). So a read-modify-write of an item (a PATCH)
 * reads the version the writes before it made, rather than losing the race to them in the next
 * group, and a check-then-insert (an upsert) sees the insert another path of the process asked for.
 */
import { ServiceUnavailable } from '../../errors';
import type { SqliteDb } from './db';
import { LockWait, type LockWaitStats } from './lock-wait';
import { ReadGate } from './read-gate';

/** Settings of a {@link GroupCommit}. */
export interface GroupCommitOptions {
  /** How long a write may wait for the write lock in all before it fails (ms). */
  readonly lockWaitMs: number;
  /** How long the event loop may block on the lock in one turn, all waits together (ms; lock-wait.ts). 0: never. */
  readonly blockingWaitMs: number;
}

/**
 * Five seconds, the busy timeout the store had when it waited on the loop: a process of ours
 * holds the lock for one group at a time (milliseconds), so only a foreign one (an `sqlite3`
 * shell left in a transaction) is waited for that long.
 */
export const DEFAULT_GROUP_COMMIT: GroupCommitOptions = { lockWaitMs: 5000, blockingWaitMs: 50 };

/** Writes per transaction at most: a burst of thousands is a few transactions, the loop turning between them. */
const MAX_GROUP = 500;

/** What a {@link GroupCommit} has done so far (tests and benchmarks read it; it costs two clock reads a group). */
export interface GroupCommitStats extends LockWaitStats {
  /** Transactions committed. */
  commits: number;
  /** Writes taken into them (failed ones included). */
  writes: number;
  /** Writes that failed alone in their savepoint (a conflict, a lost precondition). */
  failed: number;
  /** The longest group, BEGIN to COMMIT: time the event loop spent on one group's writes and fsync. */
  maxGroupMs: number;
}

/** One queued write: its work (run inside the transaction), the collections it writes, its promise's settlers. */
interface Job {
  readonly work: () => unknown;
  readonly keys: readonly string[];
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: unknown) => void;
  readonly deadline: number;
}

/** A write that ran in its savepoint and waits for the commit. */
interface Done {
  readonly job: Job;
  readonly value: unknown;
}

/** The error of a write that waited too long for the lock: SQLite's code, so faults.ts words it. */
function lockWaitExceeded(waitedMs: number): Error {
  return Object.assign(new Error(`the write lock stayed held by another process for ${waitedMs} ms`), {
    code: 'SQLITE_BUSY',
  });
}

/** The write queue of one connection. */
export class GroupCommit {
  private queue: Job[] = [];
  /** The collections the queued writes touch, and the reads waiting for them. */
  private readonly gate = new ReadGate(() => this.flush(true));
  /** The scheduled flush (next turn of the loop, or a back-off timer). */
  private timer: { cancel(): void } | undefined;
  private closing = false;
  readonly stats: GroupCommitStats = {
    commits: 0,
    writes: 0,
    failed: 0,
    maxGroupMs: 0,
    busy: 0,
    maxBlockedMs: 0,
    maxLockWaitMs: 0,
  };
  private readonly lock: LockWait;
  private idle: Array<() => void> = [];

  constructor(
    private readonly db: SqliteDb,
    private readonly options: GroupCommitOptions = DEFAULT_GROUP_COMMIT,
  ) {
    this.lock = new LockWait(options.blockingWaitMs, this.stats);
  }

  /**
   * Runs `work` (synchronous: it reads and writes through the connection) inside the next group's
   * transaction, in a savepoint of its own; resolves its value once the group's commit is durable,
   * rejects with its own error (its writes undone) or with the commit's. `collections`: those it
   * writes, which a read then commits it first for ({@link beforeRead}).
   */
  run<T>(work: () => T, collections: readonly string[] = []): Promise<T> {
    if (this.closing) return Promise.reject(new ServiceUnavailable('store is closed'));
    this.db.assertOpen();
    this.gate.add(collections);
    return new Promise<T>((resolve, reject) => {
      const deadline = Date.now() + this.options.lockWaitMs;
      this.queue.push({
        work,
        keys: collections,
        resolve: resolve as (value: unknown) => void,
        reject,
        deadline,
      });
      if (this.timer === undefined) this.schedule(0);
    });
  }

  /**
   * Called before a read of `collection` (undefined: of any, an aggregation): when writes touching
   * it are queued, a promise to await first, which commits them and lets the code they resumed run
   * on (read-gate.ts), so that the read sees them and what follows them. Undefined: read at once.
   */
  beforeRead(collection?: string): Promise<void> | undefined {
    return this.gate.beforeRead(collection);
  }

  /** Refuses new writes and resolves once every queued one has settled. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.queue.length === 0) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private schedule(delayMs: number): void {
    this.timer?.cancel();
    // setImmediate: after the poll phase, so every request read in this turn of the loop has queued its write.
    if (delayMs === 0) {
      const handle = setImmediate(() => this.flush());
      this.timer = { cancel: () => clearImmediate(handle) };
    } else {
      const handle = setTimeout(() => this.flush(), delayMs);
      this.timer = { cancel: () => clearTimeout(handle) };
    }
  }

  /** Runs the queue as one group when the lock is (or soon becomes) free; `forRead`: a read waits for it. */
  private flush(forRead = false): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.expire();
    if (this.queue.length === 0) return this.settledAll();
    let begun: boolean;
    try {
      begun = this.begin(forRead);
    } catch (err) {
      // Not a busy lock (a read-only file, a closed store): every waiting write fails with it.
      this.failAll(this.queue.splice(0), err);
      return this.settledAll();
    }
    if (!begun) return this.schedule(this.lock.refused());
    const started = performance.now();
    this.lock.taken(started);
    const group = this.queue.splice(0, MAX_GROUP);
    this.commit(this.runAll(group));
    this.stats.writes += group.length;
    this.stats.maxGroupMs = Math.max(this.stats.maxGroupMs, performance.now() - started);
    if (this.queue.length > 0) this.schedule(0);
    else this.settledAll();
  }

  /** Fails the writes whose wait for the lock is over. */
  private expire(): void {
    const now = Date.now();
    if (this.queue.every((job) => job.deadline > now)) return;
    const expired = this.queue.filter((job) => job.deadline <= now);
    this.queue = this.queue.filter((job) => job.deadline > now);
    this.failAll(expired, lockWaitExceeded(this.options.lockWaitMs));
  }

  /** BEGIN IMMEDIATE, blocking the loop at most this turn's allowance; `false` when the lock stays held. */
  private begin(forRead: boolean): boolean {
    const allowance = this.lock.allowance(forRead);
    if (allowance === 0) return this.db.tryBegin(0);
    const asked = performance.now();
    try {
      return this.db.tryBegin(allowance);
    } finally {
      this.lock.blocked(performance.now() - asked);
    }
  }

  /**
   * Runs each write in its savepoint: one that throws is rolled back alone and rejected at once.
   * When SQLite itself ended the transaction (a full disk, an I/O error), the writes already run
   * fail with that error and those not yet run go back to the queue for the next group.
   */
  private runAll(group: Job[]): Done[] | undefined {
    const done: Done[] = [];
    for (const [i, job] of group.entries()) {
      try {
        this.db.control('SAVEPOINT job');
        const value = job.work();
        this.db.control('RELEASE job');
        done.push({ job, value });
      } catch (err) {
        if (this.undo()) {
          this.stats.failed += 1;
          this.release(job).reject(err);
          continue;
        }
        this.failAll([...done.map((d) => d.job), job], err);
        this.queue.unshift(...group.slice(i + 1));
        return undefined;
      }
    }
    return done;
  }

  /** Rolls back the current savepoint; `false` when the whole transaction is gone instead. */
  private undo(): boolean {
    if (!this.db.inTransaction) return false;
    try {
      this.db.control('ROLLBACK TO job');
      this.db.control('RELEASE job');
      return true;
    } catch {
      this.rollbackQuietly();
      return false;
    }
  }

  /** Commits the group (one fsync) and settles its writes; a failed commit fails all of them. */
  private commit(done: Done[] | undefined): void {
    if (done === undefined) return;
    try {
      this.db.control('COMMIT');
    } catch (err) {
      if (this.db.inTransaction) this.rollbackQuietly();
      this.failAll(
        done.map((d) => d.job),
        err,
      );
      return;
    }
    this.stats.commits += 1;
    for (const { job, value } of done) this.release(job).resolve(value);
  }

  private rollbackQuietly(): void {
    try {
      this.db.control('ROLLBACK');
    } catch {
      // The connection is broken; the next BEGIN says so to the writes that follow.
    }
  }

  /** The write is about to settle: its collections are no longer pending for it. */
  private release(job: Job): Job {
    this.gate.settle(job.keys);
    return job;
  }

  private failAll(jobs: readonly Job[], err: unknown): void {
    for (const job of jobs) this.release(job).reject(err);
  }

  private settledAll(): void {
    if (this.queue.length > 0) return;
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }
}
