/**
 * The adapter's own Mongoose connection, with bounded timeouts and reconnection after a failed
 * first attempt.
 *
 * Once connected, the driver's topology monitoring rides out outages by itself (calls fail fast
 * with a server selection error while the database is away and work again when it is back). A
 * failed *first* connection is different: the driver closes that client for good ("Topology is
 * closed"), so the connector drops it and dials again on the next call. An API instance started
 * while MongoDB was down thus recovers without a restart.
 *
 * A server the driver refuses to speak to (older than 4.4, or newer than it knows) fails the first
 * heartbeat with `MongoCompatibilityError`; the connector answers that at once with one line naming
 * both versions (server.ts) instead of waiting for the server selection time-out. Once connected,
 * it reads the server's version and topology (`hello`, `buildInfo`) for the write path.
 */
import mongoose from 'mongoose';
import type { Log } from '../../log';
import { ServiceUnavailable } from '../../errors';
import { redact, translateMongoError } from './errors';
import { serverInfoOf, unsupportedServer, type HelloReply, type ServerInfo } from './server';

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
  /**
   * The driver `Db` (its `client` starts the sessions of transactions); rejects with
   * `ServiceUnavailable` when the database is unreachable or closed, `UnsupportedServer` when the
   * server's version is one the driver does not speak.
   */
  db(): Promise<mongoose.mongo.Db>;
  /** The server's version and topology, read when the connection was made. */
  server(): Promise<ServerInfo>;
  close(): Promise<void>;
}

/** An established connection and the driver handle of its database (one `Db` per connection). */
interface Live {
  readonly connection: mongoose.Connection;
  readonly db: mongoose.mongo.Db;
  readonly server: ServerInfo;
}

/** The server's `hello` (legacy `isMaster` for 4.4.0 and 4.4.1, which predate `hello`) and its version. */
async function readServer(db: mongoose.mongo.Db): Promise<ServerInfo> {
  const admin = db.admin();
  const hello = (await admin.command({ hello: 1 }).catch(() => admin.command({ isMaster: 1 }))) as HelloReply;
  const build = await admin.command({ buildInfo: 1 }).catch(() => undefined);
  const version = typeof build?.version === 'string' ? build.version : undefined;
  return serverInfoOf(hello, version);
}

/**
 * Rejects as soon as a heartbeat says the driver cannot speak to the server's version (the driver
 * itself would only time out server selection after `serverSelectionTimeoutMS`). `stop` detaches.
 */
function versionRefusal(connection: mongoose.Connection): { refused: Promise<never>; stop: () => void } {
  const client = connection.getClient() as mongoose.mongo.MongoClient | undefined;
  let stop = (): void => undefined;
  const refused = new Promise<never>((_resolve, reject) => {
    if (client === undefined) return;
    const listener = (event: mongoose.mongo.ServerHeartbeatFailedEvent): void => {
      const refusal = unsupportedServer(event.failure);
      if (refusal) reject(refusal);
    };
    client.on('serverHeartbeatFailed', listener);
    stop = () => client.off('serverHeartbeatFailed', listener);
  });
  refused.catch(() => undefined);
  return { refused, stop };
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
    return (await this.live()).db;
  }

  /** The server's version and topology. */
  async server(): Promise<ServerInfo> {
    return (await this.live()).server;
  }

  private async live(): Promise<Live> {
    if (this.closed) throw new ServiceUnavailable('store is closed');
    const pending = (this.current ??= this.open());
    try {
      return await pending;
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
    const refusal = versionRefusal(connection);
    return Promise.race([connection.asPromise(), refusal.refused]).then(
      async () => {
        refusal.stop();
        // Only once connected: a failed first attempt is reported by `error` (and by `db()`).
        connection.on('disconnected', () => log?.warn({}, 'mongodb disconnected'));
        connection.on('reconnected', () => log?.info({}, 'mongodb reconnected'));
        const db = connection.getClient().db(connection.name);
        const server = await readServer(db);
        log?.info({ version: server.version, topology: server.topology }, 'mongodb connected');
        return { connection, db, server };
      },
      async (error: unknown) => {
        refusal.stop();
        // The driver's client first: Mongoose would wait for a connect still selecting a server.
        await (connection.getClient() as mongoose.mongo.MongoClient | undefined)
          ?.close()
          .catch(() => undefined);
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
