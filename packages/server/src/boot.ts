/**
 * Boot: store, engine, collections and initial items, the HTTP server; and a clean shutdown
 * (stop accepting, let in-flight requests finish, close the store).
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { createAuthenticator, createEngine, createSecretBox, type Engine, type AnyResourceDefinition, type SecretBox, type Store } from '@fleet/engine';
import { allResources, allRouteGroups } from '@fleet/resources';
import type { Logger } from 'pino';
import { createApp } from './app';
import type { Config } from './config';
import { startIntegrations } from './integrations';
import { startSnapshotLoop } from './snapshots';
import { createLogger } from './logger';
import { tokenGrants, secretKey } from './secrets';
import { chooseStore } from './store';

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
  /** Graceful: in-flight requests finish, then the store closes. */
  close(): Promise<void>;
}

export interface StartOptions {
  readonly log?: Logger;
  readonly cwd?: string;
  /** The resources to serve (default: allResources); a test adds a throwaway definition here. */
  readonly definitions?: readonly AnyResourceDefinition[];
}

/** Starts the API with `config`; resolves once it listens. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const choice = chooseStore(config.DATABASE_URL, options.cwd);
  const store = await choice.open(log);
  // Filled by the integrations after the collections exist; the resources look services up per call.
  const services = new Map<string, unknown>();
  const secrets = createSecretBox(secretKey(config.SECRET_KEY, choice.dataDir));
  const engine = createEngine({
    definitions: options.definitions ?? allResources,
    routeGroups: allRouteGroups,
    store,
    secrets,
    log,
    services,
    config: { saltMasterName: config.SALT_MASTER_NAME, grainToolKey: config.GRAIN_TOOL_KEY, execAllowedFuns: config.EXEC_ALLOWED_FUNS },
  });
  await engine.ensureCollections();
  const integrations = await startIntegrations({ config, store, log, services, runtime: engine.runtime });
  const snapshots = startSnapshotLoop({
    runtime: engine.runtime,
    log: log.child({ component: 'snapshots' }),
    intervalMs: config.SNAPSHOT_INTERVAL_S * 1000,
    retentionDays: config.SNAPSHOT_RETENTION_DAYS,
    holder: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
  });
  const { grants, generated } = tokenGrants(config.API_TOKENS, choice.dataDir);
  const app = createApp({
    engine,
    config,
    authenticator: createAuthenticator(grants),
    log,
    health: async () => ({ status: (await engine.ping()) ? 'ok' : 'unavailable', store: choice.kind }),
  });
  const server: Server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, () => resolve(s));
    s.once('error', reject);
  }).catch(async (err: unknown) => {
    await Promise.all([integrations.stop(), snapshots.stop()]);
    throw err;
  });
  server.keepAliveTimeout = 5000;
  const port = (server.address() as AddressInfo).port;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  log.info({ port, store: choice.describe, resources: engine.registry.resources.size }, 'fleet-api listening');
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    engine,
    store,
    secrets,
    log,
    ...(generated ? { adminToken: generated } : {}),
    close() {
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
        await Promise.all([integrations.stop(), snapshots.stop()]);
        await store.close();
        log.info({}, 'fleet-api stopped');
      })();
      return closing;
    },
  };
}
