/**
 * The master tests' setup: salt-sim on a loopback port and the real API (startTestServer) with
 * SALT_API_URL pointing at it; the fleet stored by a first sync (POST /api/master/sync), which
 * must have seen every minion. `knobs` are further configuration variables (SALT_API_TIMEOUT_S,
 * ALL_STATUS_INTERVAL_S) merged into the API's environment.
 */
import { startSaltSim, type SaltSim, type SaltSimOptions, type SimUser } from '@fleet/salt-sim';
import { auth, startTestServer, type TestServer, type TestServerOptions } from '../helpers';

export interface MasterEnv {
  readonly sim: SaltSim;
  readonly api: TestServer;
  /** Accepted minions that answer, sorted. */
  readonly up: readonly string[];
  /** Accepted minions that do not answer, sorted. */
  readonly down: readonly string[];
  close(): Promise<void>;
}

export interface MasterEnvOptions {
  readonly sim?: SaltSimOptions;
  /** Environment of the API (besides SALT_API_*). */
  readonly env?: Readonly<Record<string, string>>;
  /** Further configuration variables of the API (e.g. SALT_API_TIMEOUT_S). */
  readonly knobs?: Readonly<Record<string, string>>;
  /** Level of the API's captured logs (default silent). */
  readonly logLevel?: TestServerOptions['logLevel'];
}

/** A user whose password is distinct from every other string, to prove it never leaks. */
export const SALT_USER: SimUser = { username: 'fleet-api', password: 'pw-7f3c9a1e5d' };

/** Starts the API on `env` plus `knobs`. */
export async function startApi(
  env: Readonly<Record<string, string>>,
  knobs: Readonly<Record<string, string>> = {},
  logLevel?: TestServerOptions['logLevel'],
): Promise<TestServer> {
  return startTestServer({ env: { ...env, ...knobs }, ...(logLevel ? { logLevel } : {}) });
}

/** The SALT_API_* variables of a simulator. */
export function saltEnv(sim: SaltSim): Record<string, string> {
  const { username, password, eauth } = sim.credentials;
  return {
    SALT_API_URL: sim.url,
    SALT_API_USER: username,
    SALT_API_PASSWORD: password,
    SALT_API_EAUTH: eauth,
  };
}

/** Starts the simulator and the API wired to it, with the accepted minions stored as hosts. */
export async function startMasterEnv(o: MasterEnvOptions = {}): Promise<MasterEnv> {
  const sim = await startSaltSim({ hosts: 12, seed: 7, users: [SALT_USER], ...o.sim });
  const api = await startApi({ ...saltEnv(sim), ...o.env }, o.knobs, o.logLevel);
  // Every test on this setup relies on the first sync having listed every minion (it lists none
  // when a wheel call breaks the master's argument rules).
  const report = await syncNow(api);
  if (report['masterReachable'] !== true || report['hostsSeen'] !== sim.fleet.minions.size) {
    await api.close();
    await sim.close();
    throw new Error(`the first sync did not list the fleet: ${JSON.stringify(report)}`);
  }
  const accepted = [...sim.fleet.minions.values()].filter((m) => m.key === 'accepted');
  return {
    sim,
    api,
    up: accepted
      .filter((m) => m.up)
      .map((m) => m.id)
      .sort(),
    down: accepted
      .filter((m) => !m.up)
      .map((m) => m.id)
      .sort(),
    async close() {
      await api.close();
      await sim.close();
    },
  };
}

/** Runs the fleet sync through the admin endpoint; resolves when it has stored the fleet. */
export async function syncNow(api: TestServer): Promise<Record<string, unknown>> {
  const res = await api.request.post('/api/master/sync').set(auth('admin'));
  expect(res.status).toBe(200);
  return res.body as Record<string, unknown>;
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
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

/** The `/api/actions` items of a job. */
export async function actionsOf(api: TestServer, jid: string): Promise<Record<string, unknown>[]> {
  const res = await api.request
    .get('/api/actions')
    .query({ where: JSON.stringify({ jid }), max_results: '100' })
    .set(auth('viewer'));
  expect(res.status).toBe(200);
  return (res.body as { _items: Record<string, unknown>[] })._items;
}
