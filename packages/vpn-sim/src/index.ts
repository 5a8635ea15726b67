/**
 * @fleet/vpn-sim: a Pritunl simulator (pritunl-web in front of the Flask API) serving over real
 * HTTP on loopback, with seeded ids and the controls tests need to break it. It plays one
 * release (option `version`, default the oldest the service supports); the rules that changed
 * between releases follow it (version.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { buildApp } from './app';
import { emptyStats, type SimContext, type SimSettings, type TarFormat } from './context';
import { createControls, type Faults, type VpnSimControls } from './controls';
import { createClock, createGen, emptyState, type SimAdmin, type SimState } from './model';
import { checkVersion, OLDEST_VERSION, versionInt } from './version';

export { buildTar } from './tar';
export { CHANGES, NEWEST_VERSION, OLDEST_VERSION, TESTED_VERSIONS, versionInt, type Change } from './version';
export type { VpnSimControls } from './controls';
export type { SimSettings, TarFormat, VpnSimStats } from './context';
export type { SimAdmin, SimOrg, SimServer, SimState, SimUser } from './model';

/** An administrator to create. */
export interface AdminOption {
  username: string;
  password: string;
  /** With 2FA: a login without `otp_code` answers 402; this code is the one accepted. */
  otpCode?: string;
  disabled?: boolean;
  /** `auth_api` with this token and secret (turns pritunl-web's strict mode off). */
  api?: { token: string; secret: string };
}

export interface ServerOption {
  name: string;
  status?: 'online' | 'offline';
  port?: number;
  protocol?: 'udp' | 'tcp';
  groups?: string[];
}

/** Options of `startVpnSim`; everything has a default. */
export interface VpnSimOptions {
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** Seeds ids, secrets and key material (default 1). */
  seed?: number;
  /** The Pritunl release to play, e.g. `1.34.4681.89` (default: `OLDEST_VERSION`). */
  version?: string;
  /** How the server's Python writes the profile `.tar` (default `pax`, Python >= 3.8). */
  tarFormat?: TarFormat;
  /** Default: one administrator `pritunl` / `pritunl-sim-password`. */
  admins?: AdminOption[];
  /** Default: one offline server `vpn-sim-1` on 1194/udp. */
  servers?: ServerOption[];
  /** The address written into profiles (`remote <address> <port> <proto>`). */
  publicAddress?: string;
  settings?: Partial<SimSettings>;
}

/** A running simulator. */
export interface VpnSim {
  url: string;
  port: number;
  /** The Pritunl release played. */
  version: string;
  controls: VpnSimControls;
  /** The live data (administrators, organizations, users, servers, sessions). */
  state: SimState;
  /** Credentials of the first administrator. */
  credentials: { username: string; password: string };
  close(): Promise<void>;
}

const DEFAULT_ADMINS: AdminOption[] = [{ username: 'pritunl', password: 'pritunl-sim-password' }];

/** Pritunl's defaults (settings/app.py, pritunl/handlers/auth.py, pritunl/auth/). */
function settingsFrom(o: Partial<SimSettings> = {}): SimSettings {
  return {
    sessionTtlMs: 43_200_000,
    sessionLimit: 16,
    tokenTtlMs: 43_200_000,
    loginMax: 30,
    loginWindowMs: 600_000,
    authTimeWindowS: 43_200,
    loginDelayMs: 0,
    orgCreateDelayMs: 0,
    ...o,
  };
}

function createContext(options: VpnSimOptions): SimContext {
  const version = checkVersion(options.version ?? OLDEST_VERSION);
  const gen = createGen(options.seed ?? 1);
  const state = emptyState();
  for (const a of options.admins ?? DEFAULT_ADMINS) {
    const admin: SimAdmin = {
      id: gen.id(),
      username: a.username.toLowerCase(),
      password: a.password,
      disabled: a.disabled ?? false,
      otpAuth: a.otpCode !== undefined,
      otpCode: a.otpCode,
      default: false,
      sessions: [],
      api: a.api,
    };
    state.admins.set(admin.id, admin);
  }
  for (const s of options.servers ?? [{ name: 'vpn-sim-1' }]) {
    const id = gen.id();
    state.servers.set(id, {
      id,
      name: s.name,
      status: s.status ?? 'offline',
      port: s.port ?? 1194,
      protocol: s.protocol ?? 'udp',
      groups: s.groups ?? [],
      organizations: [],
    });
  }
  return {
    version,
    release: versionInt(version),
    tarFormat: options.tarFormat ?? 'pax',
    state,
    gen,
    clock: createClock(),
    settings: settingsFrom(options.settings),
    stats: emptyStats(),
    publicAddress: options.publicAddress ?? '127.0.0.1',
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

/** Starts the simulator on loopback; resolves once it accepts connections. */
export async function startVpnSim(options: VpnSimOptions = {}): Promise<VpnSim> {
  const host = options.host ?? '127.0.0.1';
  const ctx = createContext(options);
  const faults: Faults = { slowMs: 0, failCount: 0, failStatus: 500, reset: false };
  const server = createServer(buildApp(ctx, faults));
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    if (faults.reset) {
      s.destroy();
      return;
    }
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const port = await listen(server, options.port ?? 0, host);
  // Connection refused, as when the server is gone: stop listening and cut every socket.
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  const setDown = async (mode: 'refuse' | 'reset' | false): Promise<void> => {
    faults.reset = mode === 'reset';
    // Both modes cut the open (keep-alive) connections; 'reset' then cuts each new one too.
    if (mode === 'reset') for (const s of sockets) s.destroy();
    if (mode === 'refuse') await stop();
    else if (!server.listening) await listen(server, port, host);
  };
  const first = (options.admins ?? DEFAULT_ADMINS)[0] ?? { username: '', password: '' };
  return {
    url: `http://${host}:${port}`,
    port,
    version: ctx.version,
    controls: createControls(ctx, faults, setDown),
    state: ctx.state,
    credentials: { username: first.username, password: first.password },
    close: stop,
  };
}
