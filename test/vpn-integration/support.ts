/**
 * The VPN integration tests' setup: vpn-sim on a loopback port, the fault proxy in front of it,
 * the real API (startTestServer, logs captured at debug level) and one VPN manager stored through
 * the API pointing at the proxy. Periodic reconciles are off unless a test turns them on.
 */
import type { Stream } from 'node:stream';
import { startVpnSim, type VpnSim, type VpnSimOptions } from '@fleet/vpn-sim';
import { auth, insertHost, startTestServer, uniqueName, vpnManagerBody, type TestServer } from '../helpers';
import { startFaultProxy, type FaultProxy } from './proxy';

/** The administrator the manager logs in as; the password is distinct from every other string. */
export const ADMIN = { username: 'fleet-api', password: 'vpn-admin-pw-4e1f9c0b7d' };

/** A running simulator, proxy, API and manager. */
export interface VpnEnv {
  readonly sim: VpnSim;
  readonly proxy: FaultProxy;
  readonly api: TestServer;
  /** The id of the manager wired to the simulator (through the proxy). */
  readonly manager: string;
  close(): Promise<void>;
}

/** Options of `startVpnEnv`. */
export interface VpnEnvOptions {
  readonly sim?: VpnSimOptions;
  /** The API's environment (VPN_TIMEOUT_S, VPN_RECONCILE_INTERVAL_S, ...). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Starts the simulator, the proxy, the API and the manager. */
export async function startVpnEnv(o: VpnEnvOptions = {}): Promise<VpnEnv> {
  const sim = await startVpnSim({ seed: 11, admins: [ADMIN], ...o.sim });
  const proxy = await startFaultProxy(sim.url);
  const api = await startTestServer({
    env: { VPN_RECONCILE_INTERVAL_S: '0', VPN_TIMEOUT_S: '3', ...o.env },
    logLevel: 'debug',
  });
  const manager = await createManager(api, proxy.url);
  return {
    sim,
    proxy,
    api,
    manager,
    async close() {
      await api.close();
      await proxy.close();
      await sim.close();
    },
  };
}

/** Stores a manager at `url` with the simulator's administrator; resolves its id. */
export async function createManager(
  api: TestServer,
  url: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const res = await api.request
    .post('/api/vpn_managers')
    .set(auth('admin'))
    .send(vpnManagerBody({ dashboard_address: url, ...ADMIN, ...overrides }));
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status: 201 });
  return (res.body as { _id: string })._id;
}

/** The body of a POST /api/vpn_organizations, as the spec shows it. */
export function orgBody(manager: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const name = uniqueName('org');
  return {
    name,
    vpn_manager: manager,
    cipher_type: 'rsa',
    vpnsrv_representation: { name, cipher_type: 'rsa' },
    ...overrides,
  };
}

/** Creates an organization through the API; resolves its id and its id on the server. */
export async function createOrg(
  env: VpnEnv,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; serverId: string; name: string }> {
  const body = orgBody(env.manager, overrides);
  const res = await env.api.request.post('/api/vpn_organizations').set(auth('admin')).send(body);
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status: 201 });
  const id = (res.body as { _id: string })._id;
  const item = await env.api.request.get(`/api/vpn_organizations/${id}`).set(auth('viewer'));
  return {
    id,
    serverId: String((item.body as { vpnsrv_representation: { id: string } }).vpnsrv_representation.id),
    name: String(body.name),
  };
}

/** Stores a new host (as the sync would); resolves its id. */
export async function newHost(api: TestServer): Promise<string> {
  return (await insertHost(api.store, `${uniqueName('h')}.fleet.test`))._id;
}

/** PATCH /api/hosts/{id} {vpn_organization}. */
export function link(env: VpnEnv, host: string, org: string | null) {
  return env.api.request.patch(`/api/hosts/${host}`).set(auth('admin')).send({ vpn_organization: org });
}

/** The host as a viewer reads it. */
export async function readHost(env: VpnEnv, host: string): Promise<Record<string, unknown>> {
  const res = await env.api.request.get(`/api/hosts/${host}`).set(auth('viewer'));
  expect(res.status).toBe(200);
  return res.body as Record<string, unknown>;
}

/** Client users of a server organization in the simulator. */
export function simUsers(sim: VpnSim, serverOrg: string): { id: string; name: string; otp_secret: string }[] {
  return [...sim.state.users.values()].filter((u) => u.orgId === serverOrg && u.type === 'client');
}

/** Organization ids in the simulator. */
export function simOrgIds(sim: VpnSim): string[] {
  return [...sim.state.organizations.keys()];
}

/** Every secret the simulator holds: administrators' passwords, sessions, OTP secrets, organization tokens. */
export function simSecrets(sim: VpnSim): string[] {
  const out = [
    ...[...sim.state.admins.values()].map((a) => a.password),
    ...sim.state.sessions.keys(),
    ...sim.state.tokens.keys(),
    ...sim.state.csrf.keys(),
  ];
  for (const u of sim.state.users.values()) out.push(u.otp_secret);
  for (const o of sim.state.organizations.values())
    for (const s of [o.auth_token, o.auth_secret]) if (s !== null) out.push(s);
  return out;
}

/** Waits until `probe` resolves a value (polling every 50 ms). */
export async function eventually<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The alerts of a type, newest first. */
export async function alertsOf(
  api: TestServer,
  type: string,
): Promise<{ _id: string; payload: Record<string, unknown>; level: string }[]> {
  const res = await api.request
    .get('/api/alerts')
    .query({ where: JSON.stringify({ type }), max_results: '100' })
    .set(auth('viewer'));
  expect(res.status).toBe(200);
  return (res.body as { _items: { _id: string; payload: Record<string, unknown>; level: string }[] })._items;
}

/** A supertest parser keeping the body's bytes (downloads). */
export function bytes(res: Stream, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
