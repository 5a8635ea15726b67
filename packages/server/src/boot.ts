/**
 * Boot: store, secret key, engine, collections and initial items, the HTTP server; and a clean
 * shutdown (stop accepting, let in-flight requests finish, close the store). A start that fails
 * closes what it opened and says why in one line (`ConfigError`, or the store's own).
 */
import { createServer, type Server } from 'node:http';
import {
  createAuthenticator,
  createEngine,
  createSecretBox,
  type Engine,
  type AnyResourceDefinition,
  type SecretBox,
  type Store,
  type Services,
} from '@fleet/engine';
import { allResources, allRouteGroups } from '@fleet/resources';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { createApp } from './app';
import { guardProtocol, SERVER_OPTIONS } from './client-errors';
import { ConfigError, engineSettings, type Config } from './config';
import { startBackground, type Background } from './background';
import { createLogger } from './logger';
import { loadSecretKey, missingKeyMessage, tokenGrants } from './secrets';
import { STORE_SCHEMA } from './schema';
import { chooseStore, writeStats, type StoreChoice } from './store';
import { VERSION } from './version';
import { metricsEndpoint } from './telemetry/listener';
import { createMetrics, type Metrics } from './telemetry/metrics';
import { Prober } from './telemetry/probe';
import { readinessReport } from './telemetry/readiness';
import { timedStore } from './telemetry/timed-store';

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly engine: Engine;
  readonly store: Store;
  /** The server's secret box (tests seal fixtures with it; the API itself never hands it out). */
  readonly secrets: SecretBox;
  readonly log: Logger;
  /** Set when the server generated (or reused) its admin token. */
  readonly adminToken?: { token: string; created: boolean; path: string };
  /** This process's name as a lease holder (logged when it takes a duty over). */
  readonly holder: string;
  /** The metrics listener's port, when METRICS_PORT is set (and this is not a cluster worker). */
  readonly metricsPort?: number;
  /** The store's write figures (the embedded store's group commit) for benchmarks; undefined when it keeps none. */
  writeStats(): Promise<Readonly<Record<string, number>> | undefined>;
  /** Graceful: in-flight requests finish, then the store closes. */
  close(): Promise<void>;
}

export interface StartOptions {
  readonly log?: Logger;
  readonly cwd?: string;
  /**
   * The number of this process as a cluster worker (cluster/, 1..WORKERS): its log lines carry
   * it, and the store file, checked by the primary before it forked, opens without a second check.
   * Every worker is an instance like any other: the store leases pick who does each duty.
   */
  readonly worker?: number;
  /** The resources to serve (default: allResources); a test adds a throwaway definition here. */
  readonly definitions?: readonly AnyResourceDefinition[];
}

/** Starts the API with `config`; resolves once it listens. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log =
    options.log ??
    createLogger(
      config.LOG_LEVEL,
      undefined,
      options.worker === undefined ? {} : { worker: options.worker },
      { format: config.LOG_FORMAT },
    );
  const choice = chooseStore(config.DATABASE_URL, options.cwd, { readWorkers: config.READ_WORKERS });
  const metrics = createMetrics();
  const store = timedStore(await choice.open(log, { checked: options.worker !== undefined }), metrics);
  try {
    return await serve({ config, options, log, choice, store, metrics });
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
}

interface Serving {
  readonly config: Config;
  readonly options: StartOptions;
  readonly log: Logger;
  readonly choice: StoreChoice;
  readonly store: Store;
  readonly metrics: Metrics;
}

/** The engine over `store`, with the secret box (its key made and saved when there is none yet). */
function engineOver(
  s: { config: Config; options: StartOptions; log: Logger; choice: StoreChoice; store: Store },
  services: Services,
) {
  const { config } = s;
  return secretBox(config, s.choice.dataDir, (box) =>
    createEngine({
      definitions: s.options.definitions ?? allResources,
      routeGroups: allRouteGroups,
      store: s.store,
      secrets: box,
      log: s.log,
      services,
      schema: STORE_SCHEMA,
      config: engineSettings(config),
    }),
  );
}

/** What the bootstrap of a cluster made: the generated admin token, when there is one. */
export interface Bootstrapped {
  readonly adminToken?: { token: string; created: boolean; path: string };
}

/**
 * The start's one-time work, for a cluster primary before it forks (cluster.ts): the store opened
 * and checked, the secret key and the admin token made and saved when missing, the collections and
 * initial items created; then the store is closed. The workers then find all of it in place, and
 * never race to make a key, a token or an initial item.
 */
export async function bootstrapStore(config: Config, options: StartOptions = {}): Promise<Bootstrapped> {
  const log = options.log ?? createLogger(config.LOG_LEVEL, undefined, {}, { format: config.LOG_FORMAT });
  const choice = chooseStore(config.DATABASE_URL, options.cwd);
  const store = await choice.open(log);
  try {
    const { engine } = await engineOver({ config, options, log, choice, store }, {});
    await engine.ensureCollections();
    const { generated } = tokenGrants(config.API_TOKENS, choice.dataDir);
    return generated ? { adminToken: generated } : {};
  } finally {
    await store.close();
  }
}

async function serve(s: Serving): Promise<RunningServer> {
  const { config, log, choice, store } = s;
  // Filled by the integrations after the collections exist; the resources look services up per call.
  const services: Services = {};
  const { secrets, engine, key } = await engineOver(s, services);
  await engine.ensureCollections();
  const { grants, generated } = tokenGrants(config.API_TOKENS, choice.dataDir);
  const authenticator = createAuthenticator(grants);
  let lastEventAt: number | undefined;
  const background = await startBackground(s, engine, services, authenticator, {
    metrics: s.metrics,
    onEvent: () => (lastEventAt = Date.now()),
  });
  const prober = new Prober();
  const app = createApp({
    engine,
    config,
    authenticator,
    log,
    secretKey: key,
    metrics: s.metrics,
    ...(background.rateBuckets ? { rateBuckets: background.rateBuckets } : {}),
    health: async () => healthReport(engine, choice.kind),
    ready: () =>
      readinessReport({
        engine,
        storeKind: choice.kind,
        prober,
        ...(config.SALT_API_URL === undefined ? {} : { saltUrl: config.SALT_API_URL }),
        syncIntervalS: config.SYNC_INTERVAL_S,
        ...(background.events ? { events: background.events } : {}),
        lastEventAt: () => lastEventAt,
      }),
  });
  const server = await listen(app, config, log).catch(async (err: unknown) => {
    await background.stop();
    throw err;
  });
  const metricsListener = await metricsEndpoint(config, s.options.worker, s.metrics.registry, log).catch(
    async (err: unknown) => {
      server.close();
      await background.stop();
      throw err;
    },
  );
  server.keepAliveTimeout = 5000;
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error('the server does not listen on a TCP port');
  const port = address.port;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  log.info(
    { version: VERSION, port, store: choice.describe, resources: engine.registry.resources.size },
    'fleet-api listening',
  );
  return {
    url: `http://${host}:${port}`,
    port,
    engine,
    store,
    secrets,
    log,
    ...(generated ? { adminToken: generated } : {}),
    holder: background.holder,
    ...(metricsListener ? { metricsPort: metricsListener.port } : {}),
    writeStats: () => writeStats(store),
    close: closer(server, background, s, metricsListener?.server),
  };
}

/**
 * The secret box: SECRET_KEY or the key file; a missing file is only replaced by a new key when
 * the store holds no sealed secret (else every one of them would become unreadable).
 */
async function secretBox(
  config: Config,
  dataDir: string,
  engineWith: (box: SecretBox) => Engine,
): Promise<{ secrets: SecretBox; engine: Engine; key: string }> {
  const key = loadSecretKey(config.SECRET_KEY, dataDir);
  const secrets = createSecretBox(key.key);
  const engine = engineWith(secrets);
  if (key.save) {
    if (await engine.hasSealedSecrets()) throw new ConfigError(missingKeyMessage(key.path ?? 'secret-key'));
    key.save();
  }
  return { secrets, engine, key: key.key };
}

/** Listens on PORT/HOST; a port in use (or forbidden) is one line naming it. */
async function listen(app: Express, config: Config, log: Logger): Promise<Server> {
  const server = createServer(SERVER_OPTIONS, app);
  // Parser-level refusals (431, bad chunking...) and expectations in the error shape (client-errors.ts).
  guardProtocol(server, log);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: unknown) => {
    const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
    if (code === 'EADDRINUSE')
      throw new ConfigError(
        `Port ${config.PORT} on ${config.HOST} is already in use: stop the process holding it, or set PORT to a free port`,
      );
    if (code === 'EACCES')
      throw new ConfigError(
        `Port ${config.PORT} on ${config.HOST} needs privileges this process lacks: set PORT to 1024 or above`,
      );
    if (code === 'EADDRNOTAVAIL')
      throw new ConfigError(
        `HOST ${config.HOST} is not an address of this machine: set HOST (0.0.0.0 for every interface)`,
      );
    throw err;
  });
  return server;
}

/** The graceful `close` of a running server; idempotent. */
function closer(
  server: Server,
  background: Background,
  s: Serving,
  metricsServer?: Server,
): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      // Kept-alive connections would otherwise be served, and hold the exit off, until the force
      // exit: requests still arriving on them get `Connection: close`, idle ones are dropped.
      server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      clearInterval(sweep);
      metricsServer?.closeAllConnections();
      metricsServer?.close();
      await background.stop();
      await s.store.close();
      s.log.info({}, 'fleet-api stopped');
    })();
    return closing;
  };
}

/**
 * `/api/health`: `ok` only when the store answers a read and takes a write; otherwise which of the
 * two fails and why (`{status: "unavailable", readable, writable, problem}`, answered 503).
 */
async function healthReport(engine: Engine, kind: string): Promise<Record<string, unknown>> {
  const h = await engine.health();
  if (h.readable && h.writable) return { status: 'ok', store: kind, version: VERSION };
  return {
    status: 'unavailable',
    store: kind,
    version: VERSION,
    readable: h.readable,
    writable: h.writable,
    ...(h.problem === undefined ? {} : { problem: h.problem }),
  };
}
