/**
 * The integrations the server runs beside the API. With SALT_API_URL set: the salt-api client, the
 * fleet sync loop (at start, every SYNC_INTERVAL_S, on demand), the live event consumer (which asks
 * for a sync after each reconnect) and the master service, registered as the `master` service the
 * resources call. Without it nothing runs and the master routes answer 503 naming SALT_API_URL.
 * Knobs beside DESIGN §6's names (config.ts): SALT_API_TIMEOUT_S, ALL_STATUS_INTERVAL_S,
 * SALT_MASTER_TZ (the zone 2018.3 masters write jids in) and SALT_EVENTS_IDLE_S (the event
 * stream's idle watchdog).
 * The task scheduler runs beside the sync loop, through the master service (DESIGN §5 "tasks").
 * The VPN service always runs (VPN managers are data, not configuration), registered as `vpn`:
 * one client per manager, made on first use, and the reconcile every VPN_RECONCILE_INTERVAL_S
 * (docs/vpn.md).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Runtime, Services } from '@fleet/engine';
import type { Logger } from 'pino';
import {
  createMasterService,
  createSaltClient,
  startEventConsumer,
  startScheduler,
  startSyncLoop,
  type RunningMaster,
  type SaltClient,
  type SyncTrigger,
} from '@fleet/salt';
import { safeUrl } from '@fleet/upstream';
import { startVpnService, type RunningVpn } from '@fleet/vpn';
import { ConfigError, type Config } from './config';

export type { SyncTrigger };

/** What the server stops on close. */
export interface Integrations {
  /** The master service, when SALT_API_URL is set. */
  readonly master?: RunningMaster;
  /** The fleet sync loop, when this process runs it (SALT_API_URL set, `background` not false). */
  readonly sync?: SyncTrigger;
  stop(): Promise<void>;
}

export interface IntegrationOptions {
  readonly config: Config;
  readonly log: Logger;
  /** The engine's services: `master` and `vpn` are registered here. */
  readonly services: Services;
  /** The engine's runtime: every integration reads and writes through its local API. */
  readonly runtime: Runtime;
  /**
   * False in a cluster worker other than the first (cluster.ts): the master service serves its
   * requests, but the sync loop, the event consumer and the scheduler run in worker 1 only (the
   * event stream has no lease: one reader per fleet), and `syncRelay` runs a sync there.
   */
  readonly background?: boolean;
  /** How `POST /api/sync` runs the sync where this process has no sync loop (a relay to worker 1). */
  readonly syncRelay?: SyncTrigger;
}

function saltClient(config: Config, log: Logger): SaltClient {
  if (config.SALT_API_USER === undefined)
    throw new ConfigError('Invalid configuration: SALT_API_USER must be set with SALT_API_URL');
  if (config.SALT_API_PASSWORD === undefined)
    throw new ConfigError('Invalid configuration: SALT_API_PASSWORD must be set with SALT_API_URL');
  const exec = Math.round(config.SALT_API_TIMEOUT_S * 1000);
  return createSaltClient({
    url: config.SALT_API_URL ?? '',
    username: config.SALT_API_USER,
    password: config.SALT_API_PASSWORD,
    eauth: config.SALT_API_EAUTH,
    // Reads include manage.status, which waits timeout + gather_job_timeout (~15 s) whenever a
    // minion is down (salt-api notes §2, §5): give them room, within the execution limit.
    timeouts: { exec, read: Math.min(60_000, exec), login: Math.min(10_000, exec) },
    logger: log.child({ component: 'salt-api' }),
  });
}

/**
 * The VPN service's client settings: VPN_TIMEOUT_S (downloads 2x, organization creation 4x),
 * VPN_CA_FILE and VPN_PRIVATE_ADDRESSES.
 */
function vpnClientSettings(config: Config): Parameters<typeof startVpnService>[0]['client'] {
  const t = config.VPN_TIMEOUT_S * 1000;
  const timeouts = { login: t, request: t, download: 2 * t, createOrganization: 4 * t };
  const privateAddresses = config.VPN_PRIVATE_ADDRESSES;
  if (config.VPN_CA_FILE === undefined) return { timeouts, privateAddresses };
  try {
    return { timeouts, privateAddresses, tls: { ca: readFileSync(config.VPN_CA_FILE) } };
  } catch (err) {
    // Not instanceof Error: under Jest, node:fs errors come from another realm.
    const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
    throw new ConfigError(
      `Invalid configuration: VPN_CA_FILE ${config.VPN_CA_FILE} cannot be read (${typeof code === 'string' ? code : 'unreadable'})`,
    );
  }
}

/** Starts the VPN service and registers it as `vpn`. */
function startVpn(o: IntegrationOptions, holder: string): RunningVpn {
  const vpn = startVpnService({
    runtime: o.runtime,
    log: o.log.child({ component: 'vpn' }),
    client: vpnClientSettings(o.config),
    reconcileIntervalMs: Math.round(o.config.VPN_RECONCILE_INTERVAL_S * 1000),
    holder,
  });
  o.services.vpn = vpn.service;
  return vpn;
}

/** Starts the integrations the configuration asks for; call after the collections exist. */
export async function startIntegrations(o: IntegrationOptions): Promise<Integrations> {
  const { config, log } = o;
  // Unique per process: the sync and the VPN reconcile run on the one instance holding their lease.
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const vpn = startVpn(o, holder);
  const stopVpn = async (): Promise<void> => {
    delete o.services.vpn;
    await vpn.stop();
  };
  if (config.SALT_API_URL === undefined) {
    log.info(
      {},
      'no master configured (SALT_API_URL unset): execution, patches, monitoring and sync are off',
    );
    return { stop: stopVpn };
  }
  let client: SaltClient;
  try {
    client = saltClient(config, log);
  } catch (err) {
    await stopVpn();
    throw err;
  }
  if (o.background === false) return startServing(o, client, stopVpn);
  const monitorIntervalMs = Math.round(config.ALL_STATUS_INTERVAL_S * 1000);
  const toolKey = config.GRAIN_TOOL_KEY;
  const syncLog = log.child({ component: 'sync' });
  const masterTz = config.SALT_MASTER_TZ;
  const sync = startSyncLoop({
    client,
    runtime: o.runtime,
    log: syncLog,
    toolKey,
    intervalMs: config.SYNC_INTERVAL_S * 1000,
    holder,
    masterTz,
  });
  const onReconnect = (): void => {
    sync
      .runNow()
      .catch((err: unknown) =>
        syncLog.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'sync after an event stream reconnect did not run',
        ),
      );
  };
  const idleMs = Math.round(config.SALT_EVENTS_IDLE_S * 1000);
  const events = startEventConsumer({
    client,
    runtime: o.runtime,
    log: log.child({ component: 'events' }),
    toolKey,
    onReconnect,
    idleMs,
  });
  const master = createMasterService({
    client,
    runtime: o.runtime,
    log: log.child({ component: 'master' }),
    monitorIntervalMs,
    sync,
    masterTz,
    allowedFuns: config.EXEC_ALLOWED_FUNS,
  });
  o.services.master = master;
  const schedulerLog = log.child({ component: 'scheduler' });
  const scheduler = startScheduler({ log: schedulerLog, master, runtime: o.runtime });
  log.info(
    {
      url: safeUrl(config.SALT_API_URL),
      syncIntervalS: config.SYNC_INTERVAL_S,
      masterTz,
      eventsIdleS: config.SALT_EVENTS_IDLE_S,
    },
    'master integration started',
  );
  return {
    master,
    sync,
    async stop() {
      await scheduler.stop();
      delete o.services.master;
      await Promise.all([events.stop(), sync.stop(), master.stop()]);
      client.close();
      await stopVpn();
    },
  };
}

/** The master service alone (a cluster worker other than the first): its syncs run through `syncRelay`. */
function startServing(o: IntegrationOptions, client: SaltClient, stopVpn: () => Promise<void>): Integrations {
  const monitorIntervalMs = Math.round(o.config.ALL_STATUS_INTERVAL_S * 1000);
  const master = createMasterService({
    client,
    runtime: o.runtime,
    log: o.log.child({ component: 'master' }),
    monitorIntervalMs,
    masterTz: o.config.SALT_MASTER_TZ,
    allowedFuns: o.config.EXEC_ALLOWED_FUNS,
    ...(o.syncRelay ? { sync: o.syncRelay } : {}),
  });
  o.services.master = master;
  return {
    master,
    async stop() {
      delete o.services.master;
      await master.stop();
      client.close();
      await stopVpn();
    },
  };
}
