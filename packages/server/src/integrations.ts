/**
 * The integrations the server runs beside the API. With SALT_API_URL set: the salt-api client, the
 * fleet sync loop (at start, every SYNC_INTERVAL_S, on demand), the live event consumer (which asks
 * for a sync after each reconnect) and the master service, registered as the `master` service the
 * resources call. Without it nothing runs and the master routes answer 503 naming SALT_API_URL.
 *
 * Optional knobs outside the fixed configuration of DESIGN §6, read from the environment and
 * validated here (a bad value stops the start with one line naming it):
 * - SALT_API_TIMEOUT_S: the longest wait for one salt-api answer to an execution (default 120;
 *   reads wait at most 15 s and the login 10 s, or this value when it is smaller);
 * - ALL_STATUS_INTERVAL_S: between two `status.all_status` samples of a monitored host (default 30).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Store } from '@fleet/engine';
import type { Logger } from 'pino';
import { createSaltClient, type SaltClient } from '../../salt/src/client';
import { safeUrl } from '../../salt/src/client/errors';
import { startEventConsumer } from '../../salt/src/events';
import { createMasterService, type RunningMaster } from '../../salt/src/master';
import { startSyncLoop } from '../../salt/src/sync';
import { ConfigError, type Config } from './config';

/** What the server stops on close. */
export interface Integrations {
  /** The master service, when SALT_API_URL is set. */
  readonly master?: RunningMaster;
  stop(): Promise<void>;
}

export interface IntegrationOptions {
  readonly config: Config;
  readonly store: Store;
  readonly log: Logger;
  /** The engine's services: `master` is registered here. */
  readonly services: Map<string, unknown>;
  /** Where the optional knobs are read (default: process.env). */
  readonly env?: NodeJS.ProcessEnv;
}

/** A positive number of seconds from the environment, in ms; `fallbackS` when unset. */
export function secondsKnob(env: NodeJS.ProcessEnv, name: string, fallbackS: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallbackS * 1000;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 86_400) throw new ConfigError(`Invalid configuration: ${name} must be a number of seconds from 0.001 to 86400 (got "${raw}")`);
  return Math.round(n * 1000);
}

function saltClient(config: Config, env: NodeJS.ProcessEnv, log: Logger): SaltClient {
  if (config.SALT_API_USER === undefined) throw new ConfigError('Invalid configuration: SALT_API_USER must be set with SALT_API_URL');
  if (config.SALT_API_PASSWORD === undefined) throw new ConfigError('Invalid configuration: SALT_API_PASSWORD must be set with SALT_API_URL');
  const exec = secondsKnob(env, 'SALT_API_TIMEOUT_S', 120);
  return createSaltClient({
    url: config.SALT_API_URL ?? '',
    username: config.SALT_API_USER,
    password: config.SALT_API_PASSWORD,
    eauth: config.SALT_API_EAUTH,
    timeouts: { exec, read: Math.min(15_000, exec), login: Math.min(10_000, exec) },
    logger: log.child({ component: 'salt-api' }),
  });
}

/** Starts the integrations the configuration asks for; call after the collections exist. */
export async function startIntegrations(o: IntegrationOptions): Promise<Integrations> {
  const { config, log } = o;
  const env = o.env ?? process.env;
  if (config.SALT_API_URL === undefined) {
    log.info({}, 'no master configured (SALT_API_URL unset): execution, patches, monitoring and sync are off');
    return { stop: async () => undefined };
  }
  const client = saltClient(config, env, log);
  const monitorIntervalMs = secondsKnob(env, 'ALL_STATUS_INTERVAL_S', 30);
  const toolKey = config.GRAIN_TOOL_KEY;
  // Unique per process: the sync runs on the one instance holding the store lease.
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const syncLog = log.child({ component: 'sync' });
  const sync = startSyncLoop({ client, store: o.store, log: syncLog, toolKey, intervalMs: config.SYNC_INTERVAL_S * 1000, holder });
  const onReconnect = (): void => {
    sync.runNow().catch((err: unknown) => syncLog.warn({ err: err instanceof Error ? err.message : String(err) }, 'sync after an event stream reconnect did not run'));
  };
  const events = startEventConsumer({ client, store: o.store, log: log.child({ component: 'events' }), toolKey, onReconnect });
  const master = createMasterService({ client, store: o.store, log: log.child({ component: 'master' }), monitorIntervalMs, sync });
  o.services.set('master', master);
  log.info({ url: safeUrl(config.SALT_API_URL), syncIntervalS: config.SYNC_INTERVAL_S }, 'master integration started');
  return {
    master,
    async stop() {
      o.services.delete('master');
      await Promise.all([events.stop(), sync.stop(), master.stop()]);
      client.close();
    },
  };
}
