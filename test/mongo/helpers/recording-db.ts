/**
 * A stand-in for the driver's `Db` (no server): it records every collection call, with the session
 * it ran in, and answers from responders. Its `client` starts sessions that record their
 * transaction steps, and the source says which topology it plays (`server()`), so the adapter's
 * choice between a transaction and an undo log is what a test observes.
 */
import type { DbSource } from '../../../engine/src/store/mongo';
import { serverInfoOf, type Topology } from '../../../engine/src/store/mongo';

/** One driver call: the collection, the method, its arguments, and the session it ran in (if any). */
export interface Call {
  readonly collection: string;
  readonly method: string;
  readonly args: unknown[];
  readonly session?: number;
}

/** A step of a session: `start`, `commit`, `abort`, `end`, with the session's number. */
export type SessionEvent = readonly [step: 'start' | 'commit' | 'abort' | 'end', session: number];

export type Responder = (...args: unknown[]) => unknown;

const cursor = (docs: unknown[] = []) => ({ toArray: async () => docs, next: async () => docs[0] ?? null });

/** What each driver method answers by default: empty results, one match per update. */
export const DEFAULTS: Readonly<Record<string, Responder>> = {
  find: () => cursor(),
  aggregate: () => cursor(),
  listIndexes: () => cursor(),
  countDocuments: async () => 0,
  estimatedDocumentCount: async () => 0,
  insertMany: async (docs) => ({ insertedCount: Array.isArray(docs) ? docs.length : 0 }),
  insertOne: async () => ({ acknowledged: true }),
  updateOne: async () => ({ matchedCount: 1, modifiedCount: 1, upsertedId: null }),
  updateMany: async () => ({ matchedCount: 2, modifiedCount: 2, upsertedId: null }),
  replaceOne: async () => ({ matchedCount: 1, modifiedCount: 1, upsertedId: null }),
  findOneAndUpdate: async () => null,
  findOneAndReplace: async () => null,
  findOneAndDelete: async () => null,
  deleteOne: async () => ({ deletedCount: 1 }),
  deleteMany: async () => ({ deletedCount: 0 }),
  createIndex: async () => 'index',
};

/** The `hello` a topology answers with (MongoDB 7.0). */
function helloOf(topology: Topology): Record<string, unknown> {
  const base = { maxWireVersion: 21, logicalSessionTimeoutMinutes: 30 };
  if (topology === 'replicaSet') return { ...base, setName: 'rs0' };
  if (topology === 'sharded') return { ...base, msg: 'isdbgrid' };
  return base;
}

/** The session a call ran in: its number, from the options object (the last argument). */
function sessionOf(args: readonly unknown[]): number | undefined {
  const last = args[args.length - 1];
  if (typeof last !== 'object' || last === null || !('session' in last)) return undefined;
  const session = last.session;
  return typeof session === 'object' && session !== null && 'id' in session ? Number(session.id) : undefined;
}

/** A recording driver `Db` playing `topology` (default standalone). */
export function recordingDb(
  responders: Readonly<Record<string, Responder>> = {},
  o: { topology?: Topology } = {},
): { source: DbSource; calls: Call[]; sessions: SessionEvent[] } {
  const calls: Call[] = [];
  const sessions: SessionEvent[] = [];
  const method =
    (collection: string, name: string) =>
    (...args: unknown[]) => {
      const session = sessionOf(args);
      calls.push({ collection, method: name, args, ...(session === undefined ? {} : { session }) });
      const respond = responders[name] ?? DEFAULTS[name];
      if (respond === undefined) throw new Error(`unexpected driver call ${name}`);
      return respond(...args);
    };
  // Not a thenable (`then` is undefined): the adapter awaits the collection handle.
  const collection = (name: string) =>
    new Proxy(
      { collectionName: name },
      {
        get: (target, key: string) =>
          key === 'then' ? undefined : key === 'collectionName' ? target.collectionName : method(name, key),
      },
    );
  let next = 0;
  const startSession = () => {
    const id = ++next;
    let open = false;
    return {
      id,
      startTransaction: () => {
        open = true;
        sessions.push(['start', id]);
      },
      inTransaction: () => open,
      commitTransaction: async () => {
        const fail = responders.commitTransaction?.(id);
        if (fail instanceof Error) throw fail;
        open = false;
        sessions.push(['commit', id]);
      },
      abortTransaction: async () => {
        open = false;
        sessions.push(['abort', id]);
      },
      endSession: async () => {
        sessions.push(['end', id]);
      },
    };
  };
  const db = { collection, client: { startSession } } as unknown as Awaited<ReturnType<DbSource['db']>>;
  const server = serverInfoOf(helloOf(o.topology ?? 'standalone'), '7.0.12');
  return {
    source: { db: async () => db, server: async () => server, close: async () => undefined },
    calls,
    sessions,
  };
}
