/**
 * The integrations the server runs beside the API. With SALT_API_URL set: the salt-api client, the
 * fleet sync (once every SYNC_INTERVAL_S across the deployment, and on demand), the event
 * stream's reader (which asks for a sync after each reconnect and after taking the stream over),
 * the task scheduler and the master service, registered as the `master` service the resources
 * call. Without it nothing runs and the master routes answer 503 naming SALT_API_URL.
 * Knobs besides the common ones (config.ts): SALT_API_TIMEOUT_S, ALL_STATUS_INTERVAL_S,
 * SALT_MASTER_TZ (the zone 2018.3 masters write jids in) and SALT_EVENTS_IDLE_S (the event
 * stream's idle watchdog).
 * The VPN service always runs (VPN managers are data, not configuration), registered as `vpn`:
 * one client per manager, made on first use, and the reconcile every VPN_RECONCILE_INTERVAL_S
 * (docs/vpn.md).
 * Every instance starts all of it: the once-per-deployment duties (sync, event stream, scheduler,
 * VPN reconcile) run on the instance holding their lease (@fleet/duties, docs/scaling.md), and the
 * rest (executions, async job follow-ups, monitoring samples) on whichever instance gets the work.
 */
import { readFileSync } from 'node:fs';
import type { DutyContext } from '@fleet/duties';
import type { Runtime, Services } from '@fleet/engine';
import type { Logger } from 'pino';
import {
  createMasterService,
  createSaltClient,
  startEventReader,
  startScheduler,
  startSyncLoop,
  type EventReader,
  type RunningMaster,
  type SaltClient,
  type SyncLoop,
  type SyncReport,
} from '@fleet/salt';
import { safeUrl } from '@fleet/upstream';
import { startVpnService, type RunningVpn } from '@fleet/vpn';
import { ConfigError, type Config } from './config';
import type { Metrics } from './telemetry/metrics';

/** What the server stops on close. */
export interface Integrations {
  /** The master service, when SALT_API_URL is set. */
  readonly master?: RunningMaster;
  /** The fleet sync, when SALT_API_URL is set. */
  readonly sync?: SyncLoop;
  /** The event stream's reader, when SALT_API_URL is set. */
  readonly events?: EventReader;
  stop(): Promise<void>;
}

export interface IntegrationOptions {
  readonly config: Config;
  readonly log: Logger;
  /** The engine's services: `master` and `vpn` are registered here. */
  readonly services: Services;
  /** The engine's runtime: every integration reads and writes through its local API. */
  readonly runtime: Runtime;
  /** This process's holder name and lease times (its runtime is `runtime`). */
  readonly duty: Omit<DutyContext, 'runtime' | 'log'>;
  /** Where the peers' calls, the sync runs and the events are counted. */
  readonly metrics?: Metrics;
  /** Told of every salt event this instance receives (readiness: the last event's age). */
  readonly onEvent?: (tag: string) => void;
}

/** A PEM file named by a variable, or one line saying it cannot be read. */
function readPem(variable: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    // Not instanceof Error: under Jest, node:fs errors come from another realm.
    const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
    throw new ConfigError(
      `Invalid configuration: ${variable} ${path} cannot be read (${typeof code === 'string' ? code : 'unreadable'})`,
    );
  }
}

function saltClient(config: Config, log: Logger, metrics?: Metrics): SaltClient {
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
    // minion is down (salt/netapi/__init__.py, salt/client/__init__.py, salt/runners/manage.py, salt/wheel/key.py): give them room, within the execution limit.
    timeouts: { exec, read: Math.min(60_000, exec), login: Math.min(10_000, exec) },
    logger: log.child({ component: 'salt-api' }),
    ...(config.SALT_API_CA_FILE === undefined
      ? {}
      : { tls: { ca: readPem('SALT_API_CA_FILE', config.SALT_API_CA_FILE) } }),
    ...(metrics ? { onCall: (c) => metrics.saltCall(c.fun, c.outcome, c.ms / 1000) } : {}),
  });
}

/**
 * The VPN service's client settings: VPN_TIMEOUT_S (downloads 2x, organization creation 4x),
 * VPN_CA_FILE and VPN_PRIVATE_ADDRESSES; each call counted in the metrics.
 */
function vpnClientSettings(
  config: Config,
  metrics?: Metrics,
): Parameters<typeof startVpnService>[0]['client'] {
  const t = config.VPN_TIMEOUT_S * 1000;
  const timeouts = { login: t, request: t, download: 2 * t, createOrganization: 4 * t };
  return {
    timeouts,
    privateAddresses: config.VPN_PRIVATE_ADDRESSES,
    ...(config.VPN_CA_FILE === undefined ? {} : { tls: { ca: readPem('VPN_CA_FILE', config.VPN_CA_FILE) } }),
    ...(metrics ? { onCall: (c) => metrics.vpnCall(c.call, c.outcome, c.ms / 1000) } : {}),
  };
}

/** The process's duties as one component sees them (its own log). */
function dutyOf(o: IntegrationOptions, log: Logger): DutyContext {
  return { ...o.duty, runtime: o.runtime, log };
}

/** Starts the VPN service and registers it as `vpn`. */
function startVpn(o: IntegrationOptions): RunningVpn {
  const log = o.log.child({ component: 'vpn' });
  const vpn = startVpnService({
    runtime: o.runtime,
    log,
    client: vpnClientSettings(o.config, o.metrics),
    reconcileIntervalMs: Math.round(o.config.VPN_RECONCILE_INTERVAL_S * 1000),
    duty: dutyOf(o, log),
  });
  o.services.vpn = vpn.service;
  return vpn;
}

/** Starts the integrations the configuration asks for; call after the collections exist. */
export async function startIntegrations(o: IntegrationOptions): Promise<Integrations> {
  const { config, log } = o;
  const vpn = startVpn(o);
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
    client = saltClient(config, log, o.metrics);
  } catch (err) {
    await stopVpn();
    throw err;
  }
  const running = startMaster(o, client);
  log.info(
    {
      url: safeUrl(config.SALT_API_URL),
      syncIntervalS: config.SYNC_INTERVAL_S,
      masterTz: config.SALT_MASTER_TZ,
      eventsIdleS: config.SALT_EVENTS_IDLE_S,
    },
    'master integration started',
  );
  return {
    master: running.master,
    sync: running.sync,
    events: running.events,
    async stop() {
      await running.stop();
      client.close();
      await stopVpn();
    },
  };
}

/** Counts a sync run: its result, duration and hosts seen. */
function syncObserver(metrics: Metrics): (r: SyncReport) => void {
  return (r) =>
    metrics.syncRun(
      !r.masterReachable ? 'unreachable' : r.failed === undefined ? 'ok' : 'failed',
      r.ms / 1000,
      r.hostsSeen,
    );
}

/** The sync, the event reader, the master service (registered as `master`) and the scheduler. */
function startMaster(
  o: IntegrationOptions,
  client: SaltClient,
): { master: RunningMaster; sync: SyncLoop; events: EventReader; stop(): Promise<void> } {
  const { config, log } = o;
  const syncLog = log.child({ component: 'sync' });
  const masterTz = config.SALT_MASTER_TZ;
  const toolKey = config.GRAIN_TOOL_KEY;
  const sync = startSyncLoop({
    client,
    toolKey,
    intervalMs: config.SYNC_INTERVAL_S * 1000,
    masterTz,
    duty: dutyOf(o, syncLog),
    ...(o.metrics ? { onRun: syncObserver(o.metrics) } : {}),
  });
  const repair = (): void => {
    sync
      .runNow()
      .catch((err: unknown) =>
        syncLog.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'the repair sync after the event stream (re)opened did not run',
        ),
      );
  };
  const events = startEventReader({
    client,
    toolKey,
    repair,
    idleMs: Math.round(config.SALT_EVENTS_IDLE_S * 1000),
    onEvent: (tag) => {
      o.metrics?.event(tag);
      o.onEvent?.(tag);
    },
    duty: dutyOf(o, log.child({ component: 'events' })),
  });
  const masterLog = log.child({ component: 'master' });
  const master = createMasterService({
    client,
    runtime: o.runtime,
    log: masterLog,
    monitorIntervalMs: Math.round(config.ALL_STATUS_INTERVAL_S * 1000),
    execTimeoutMs: Math.round(config.SALT_API_TIMEOUT_S * 1000),
    sync,
    masterTz,
    allowedFuns: config.EXEC_ALLOWED_FUNS,
  });
  o.services.master = master;
  const schedulerLog = log.child({ component: 'scheduler' });
  const scheduler = startScheduler({
    log: schedulerLog,
    master,
    runtime: o.runtime,
    duty: dutyOf(o, schedulerLog),
  });
  return {
    master,
    sync,
    events,
    async stop() {
      await scheduler.stop();
      delete o.services.master;
      await Promise.all([events.stop(), sync.stop(), master.stop()]);
    },
  };
}
