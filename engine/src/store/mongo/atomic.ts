/**
 * All-or-nothing writes of several documents, the two ways MongoDB allows:
 *
 * - **replica set or sharded cluster**: a multi-document transaction
 *   (https://www.mongodb.com/docs/manual/core/transactions/). A transient failure (a write
 *   conflict with a concurrent writer, an election) is retried from the start for up to
 *   {@link TRANSACTION_RETRY_MS}, with jittered back-off; a commit whose outcome is unknown is
 *   committed again (commitTransaction is idempotent). The driver's `withTransaction` retries for
 *   120 s (`sessions.ts`), far beyond an API request's budget, so the loop is ours.
 * - **standalone server** (no transactions: "Transaction numbers are only allowed on a replica set
 *   member or mongos", IllegalOperation 20): the writes run in order, each noting how to take it
 *   back ({@link UndoLog}); when one fails, the ones before it are taken back, newest first, each
 *   only if its document is still the version it wrote. Readers may see the batch half-written
 *   for that moment, and a process that dies between a write and its undo leaves the earlier
 *   writes in place: docs/mongodb.md says so.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type mongoose from 'mongoose';
import type { Log } from '../../log';
import { translateMongoError } from './errors';

type Session = mongoose.mongo.ClientSession;
type Client = mongoose.mongo.MongoClient;

/** How long a transaction that failed transiently is tried again. */
export const TRANSACTION_RETRY_MS = 1000;
/** Back-off between attempts: random up to 2 ms, doubling to at most 50 ms. */
const BACKOFF_MS = { first: 2, max: 50 } as const;
/** A commit may take this long (maxCommitTimeMS) before the server gives up on it. */
export const MAX_COMMIT_TIME_MS = 5000;

/** Whether a driver error carries an error label (`TransientTransactionError`, ...). */
export function hasLabel(error: unknown, label: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  // MongoError keeps its labels in a set behind `hasErrorLabel`; plain replies list `errorLabels`.
  const labelled = error as { hasErrorLabel?: (label: string) => boolean; errorLabels?: unknown };
  if (typeof labelled.hasErrorLabel === 'function') return labelled.hasErrorLabel(label);
  return Array.isArray(labelled.errorLabels) && labelled.errorLabels.includes(label);
}

const TRANSIENT = 'TransientTransactionError';
const UNKNOWN_COMMIT = 'UnknownTransactionCommitResult';

async function commit(session: Session, deadline: number): Promise<void> {
  for (;;) {
    try {
      await session.commitTransaction();
      return;
    } catch (error) {
      if (!hasLabel(error, UNKNOWN_COMMIT) || Date.now() >= deadline) throw error;
    }
  }
}

/**
 * Runs `work` in a transaction of a new session, committing at the end; `work` runs again from
 * the start after a transient failure while time remains. Errors are translated (409, 412, 503).
 */
export async function inTransaction<T>(client: Client, work: (session: Session) => Promise<T>): Promise<T> {
  const deadline = Date.now() + TRANSACTION_RETRY_MS;
  const session = client.startSession();
  try {
    for (let attempt = 0; ; attempt++) {
      session.startTransaction({ maxCommitTimeMS: MAX_COMMIT_TIME_MS });
      try {
        const result = await work(session);
        await commit(session, deadline);
        return result;
      } catch (error) {
        if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
        if (!hasLabel(error, TRANSIENT) || Date.now() >= deadline) throw translateMongoError(error);
        await sleep(Math.random() * Math.min(BACKOFF_MS.max, BACKOFF_MS.first * 2 ** attempt));
      }
    }
  } finally {
    await session.endSession().catch(() => undefined);
  }
}

/** One way back: resolves `false` when the document was no longer the version the write left. */
interface UndoStep {
  readonly what: string;
  readonly run: () => Promise<boolean>;
}

/** The writes made so far on a standalone server, and how to take each back. */
export class UndoLog {
  private readonly steps: UndoStep[] = [];

  /** Notes how to take back a write just made (`what` names it in the log when that fails). */
  add(what: string, run: () => Promise<boolean>): void {
    this.steps.push({ what, run });
  }

  /** Takes every noted write back, newest first; what could not be is logged, never thrown. */
  async rollback(log: Log | undefined): Promise<void> {
    const left: string[] = [];
    for (const step of [...this.steps].reverse()) {
      const undone = await step.run().catch(() => false);
      if (!undone) left.push(step.what);
    }
    this.steps.length = 0;
    if (left.length > 0)
      log?.error(
        { writes: left },
        'mongodb (standalone, no transactions): a failed batch could not take back these writes; another writer changed them in between',
      );
  }
}
