/**
 * @fleet/salt-sim: a salt-api (rest_cherrypy) simulator serving a generated fleet over
 * real HTTP on loopback, with the controls tests need to break it.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app';
import { EventBus } from './bus';
import { CLIENTS, emptyStats, type SimContext } from './context';
import type { SimSettings } from './settings';
import { createControls, type Faults, type SimControls } from './controls';
import { generateFleet } from './fleet';
import { JobStore } from './jobs';
import type { Fleet } from './model';
import { SessionStore, type SimUser } from './sessions';
import { assertTimeZone, DEFAULT_MASTER_VERSION } from './version';

export { generateFleet } from './fleet';
export {
  createRng,
  renderGrains,
  toolTimes,
  type GrainChoices,
  type HostSpec,
  type OsProfile,
  type Rng,
  type ToolTimes,
  type Virtual,
} from '@fleet/fixtures';
export { pemFinger } from './keys';
export { DEFAULT_MASTER_VERSION } from './version';
export { resolveTarget, compoundMatches, nodegroupExpression } from './match';
export type { Egress, Fleet, FleetOptions, HttpTool, KeyState, SimMinion, SimResolver } from './model';
export { DEFAULT_RESOLVER } from './fleet';
export type { SimControls } from './controls';
export type { SimStats } from './context';
export type { SimSettings } from './settings';
export type { SimUser } from './sessions';

/** Options of `startSaltSim`; everything has a default. */
export interface SaltSimOptions {
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** A prepared fleet; else one is generated from `hosts` / `seed`. */
  fleet?: Fleet;
  hosts?: number;
  seed?: number;
  toolKey?: string;
  /** external_auth users; default one `saltdev` / `saltdev` user allowed everything. */
  users?: SimUser[];
  sessionTtlMs?: number;
  tokenExpireS?: number;
  returnDelayMs?: number;
  /**
   * Time between two minions' returns of one job, in ms (default 2; fractions allowed; 0: every
   * return at once, as a master whose minions all finish together delivers them). 10,000
   * minions at the default take 20 s; a large master's event bus delivers thousands a second.
   */
  returnSpacingMs?: number;
  noReturnWaitMs?: number;
  enabledClients?: string[];
  /** When > 0, a random up minion sends a `vnc/connect` event this often (for demos). */
  vncEveryMs?: number;
  /** The Salt release to behave as (`2018.3.0`, `2018.3.3`, `3006.9`...); default 2018.3.2. */
  masterVersion?: string;
  /** The master's IANA time zone (2018.3 jids are in its local time); default UTC. */
  masterTz?: string;
  /**
   * Serve HTTPS with this key and certificate (PEM), as rest_cherrypy does when its `ssl_crt` and
   * `ssl_key` are set (salt/netapi/rest_cherrypy/__init__.py `start`: the server's
   * `ssl_certificate` / `ssl_private_key`); default plain HTTP, as with `disable_ssl: True`.
   */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

/** A running simulator. */
export interface SaltSim {
  url: string;
  port: number;
  fleet: Fleet;
  controls: SimControls;
  /** Credentials of the first configured user (for the CLI and tests). */
  credentials: { username: string; password: string; eauth: string };
  close(): Promise<void>;
}

const DEFAULT_USERS: SimUser[] = [{ username: 'saltdev', password: 'saltdev' }];

function settingsFrom(o: SaltSimOptions): SimSettings {
  return {
    returnDelayMs: o.returnDelayMs ?? 20,
    returnSpacingMs: o.returnSpacingMs ?? 2,
    noReturnWaitMs: o.noReturnWaitMs ?? 150,
    sessionTtlMs: o.sessionTtlMs ?? 36_000_000,
    tokenExpireS: o.tokenExpireS ?? 43_200,
    enabledClients: o.enabledClients ?? [...CLIENTS],
    masterRunning: true,
    masterVersion: o.masterVersion ?? DEFAULT_MASTER_VERSION,
    masterTz: o.masterTz ?? 'UTC',
    clockOffsetMs: 0,
    raising: {},
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function createContext(options: SaltSimOptions, users: SimUser[]): SimContext {
  assertTimeZone(options.masterTz ?? 'UTC');
  const fleet =
    options.fleet ??
    generateFleet({
      hosts: options.hosts ?? 20,
      seed: options.seed ?? 1,
      toolKey: options.toolKey ?? 'tool',
    });
  const settings = settingsFrom(options);
  const bus = new EventBus();
  const jobs = new JobStore(fleet, bus, settings);
  return {
    fleet,
    bus,
    jobs,
    sessions: new SessionStore(users, () => settings),
    settings,
    stats: emptyStats(),
  };
}

/** Tracks sockets so that "master down" and close() can cut them. */
function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return sockets;
}

/**
 * Ambient `vnc/connect` events, sent the way a minion's `event.send` does (payload under
 * `data.data`, salt/minion.py, salt/utils/event.py) with `{hostname, status}`; returns the stop function.
 */
function ambientVnc(ctx: SimContext, everyMs: number): () => void {
  if (everyMs <= 0) return () => undefined;
  const timer = setInterval(() => {
    const up = [...ctx.fleet.minions.values()].filter((m) => m.key === 'accepted' && m.up);
    const m = up[Math.floor(Math.random() * up.length)];
    if (m === undefined) return;
    const data = { hostname: m.id, status: Math.random() < 0.7 ? 'connected' : 'disconnected' };
    ctx.bus.fire('vnc/connect', { id: m.id, cmd: '_minion_event', pretag: null, tag: 'vnc/connect', data });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Starts the simulator on loopback; resolves once it accepts connections. */
export async function startSaltSim(options: SaltSimOptions = {}): Promise<SaltSim> {
  const host = options.host ?? '127.0.0.1';
  const users = options.users ?? DEFAULT_USERS;
  const ctx = createContext(options, users);
  const faults: Faults = { slowMs: 0, failCount: 0, failStatus: 500, failMessage: undefined };
  const app = buildApp(ctx, faults);
  const server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, app)
    : createServer(app);
  const sockets = trackSockets(server);
  const port = await listen(server, options.port ?? 0, host);
  const stopVnc = ambientVnc(ctx, options.vncEveryMs ?? 0);
  // Connection refused, as when the salt-api process is gone: stop listening and cut every socket.
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      ctx.bus.dropStreams();
      for (const s of sockets) s.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  const setDown = async (down: boolean): Promise<void> => {
    if (down) await stop();
    else if (!server.listening) await listen(server, port, host);
  };
  const first = users[0] ?? { username: '', password: '' };
  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    port,
    fleet: ctx.fleet,
    controls: createControls(ctx, faults, setDown),
    credentials: { username: first.username, password: first.password, eauth: first.eauth?.[0] ?? 'pam' },
    close: async () => {
      stopVnc();
      ctx.jobs.close();
      await stop();
    },
  };
}
