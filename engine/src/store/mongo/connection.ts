/**
 * The adapter's own Mongoose connection, with bounded timeouts and reconnection after a failed
 * first attempt.
 *
 * Once connected, the driver's topology monitoring rides out outages by itself (calls fail fast
 * with a server selection error while the database is away and work again when it is back). A
 * failed *first* connection is different: the driver closes that client for good ("Topology is
 * closed"), so the connector drops it and dials again on the next call. An API instance started
 * while MongoDB was down thus recovers without a restart.
 */
import mongoose from 'mongoose';
import type { Log } from '../../definition/define';
import { ServiceUnavailable } from '../../errors';
import { redact, translateMongoError } from './errors';

/** Connection settings; every timeout is bounded so an unreachable database is a 503, never a hang. */
export interface ConnectorOptions {
  readonly url: string;
  /** How long a call waits for a usable server before failing (driver default 30 s; ours 5 s). */
  readonly serverSelectionTimeoutMS: number;
  /** How long a socket may stay silent during an operation before it is abandoned. */
  readonly socketTimeoutMS: number;
  readonly log?: Log;
}

/** Where the adapter gets its driver database from: the connector, or a fake in the no-server tests. */
export interface DbSource {
  /** The driver `Db`; rejects with `ServiceUnavailable` when the database is unreachable or closed. */
  db(): Promise<mongoose.mongo.Db>;
  close(): Promise<void>;
}

/** An established connection and the driver handle of its database (one `Db` per connection). */
interface Live {
  readonly connection: mongoose.Connection;
  readonly db: mongoose.mongo.Db;
}

/** Owns the current connection; `db()` hands out the driver database, reconnecting when needed. */
export class MongoConnector implements DbSource {
  private current: Promise<Live> | undefined;
  private closed = false;

  constructor(private readonly options: ConnectorOptions) {
    // Dial eagerly so the first request does not pay for it; a failure is reported by `db()`.
    this.current = this.open();
    this.current.catch(() => undefined);
  }

  /** The driver `Db` of the URL's database; rejects with `ServiceUnavailable` when unreachable. */
  async db(): Promise<mongoose.mongo.Db> {
    if (this.closed) throw new ServiceUnavailable('store is closed');
    const pending = (this.current ??= this.open());
    try {
      return (await pending).db;
    } catch (error) {
      // Only the first connection can fail this way: forget it so the next call dials again.
      if (this.current === pending) this.current = undefined;
      throw translateMongoError(error);
    }
  }

  /** Closes the connection; further `db()` calls reject. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = this.current;
    this.current = undefined;
    const live = await pending?.catch(() => undefined);
    await live?.connection.close();
  }

  private open(): Promise<Live> {
    const { url, serverSelectionTimeoutMS, socketTimeoutMS, log } = this.options;
    const connection = mongoose.createConnection(url, {
      serverSelectionTimeoutMS,
      connectTimeoutMS: serverSelectionTimeoutMS,
      socketTimeoutMS,
      // The adapter talks to the driver directly: nothing may sit in Mongoose's buffer waiting.
      bufferCommands: false,
      autoIndex: false,
      autoCreate: false,
      // `{a: undefined}` is an absent key, as in the embedded store's JSON, not a stored null.
      ignoreUndefined: true,
    });
    // An `error` listener also marks Mongoose's initial-connection promise as handled.
    connection.on('error', (error: unknown) =>
      log?.warn({ err: redacted(error) }, 'mongodb connection error'),
    );
    return connection.asPromise().then(
      () => {
        // Only once connected: a failed first attempt is reported by `error` (and by `db()`).
        connection.on('disconnected', () => log?.warn({}, 'mongodb disconnected'));
        connection.on('reconnected', () => log?.info({}, 'mongodb reconnected'));
        return { connection, db: connection.getClient().db(connection.name) };
      },
      async (error: unknown) => {
        await connection.close(true).catch(() => undefined);
        throw error;
      },
    );
  }
}

/** What a log line may carry of a connection error: its class and message, never the URL's password. */
function redacted(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: redact(error.message) };
  return { name: 'Error', message: redact(String(error)) };
}
