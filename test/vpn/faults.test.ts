/**
 * The VPN client when the server misbehaves, over real HTTP: unreachable -> 503, silent ->
 * 504, error answers and refused credentials -> 502, all naming the manager; an expired
 * session costs exactly one re-login, shared by concurrent calls; logins stay within budget.
 * Every error thrown and every log line written here is then searched for the password, the
 * session cookies, the CSRF tokens and the users' OTP secrets.
 */
import { BadGateway, GatewayTimeout, HttpError, ServiceUnavailable } from '@fleet/engine';
import { createVpnClient, type VpnClient, type VpnClientOptions } from '@fleet/vpn';
import { NEWEST_VERSION, startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import { captureLog, serialize, sessionSecrets } from './helpers';

const PASSWORD = 'Tr0ub4dor&3-vpn-admin';
let sim: VpnSim;
const clients: VpnClient[] = [];
const captured = captureLog();
const thrown: unknown[] = [];
const secrets = new Set<string>([PASSWORD]);

function client(overrides: Partial<VpnClientOptions> = {}): VpnClient {
  const c = createVpnClient({
    manager: { name: 'vpn1', dashboard_address: sim.url, username: 'fleet', password: PASSWORD },
    log: captured.log,
    timeouts: { request: 300, login: 300, download: 300, createOrganization: 300 },
    ...overrides,
  });
  clients.push(c);
  return c;
}

/** The rejection of a promise, kept for the secret checks (fails the test if it resolves). */
async function rejection(p: Promise<unknown>): Promise<HttpError> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  thrown.push(err);
  expect(err).toBeInstanceOf(HttpError);
  return err as HttpError;
}

const remember = (): void => {
  for (const s of sessionSecrets(sim)) secrets.add(s);
};

beforeAll(async () => {
  // The newest release: its sessions expire on both layers (the proxy's `token` from 1.32.4465.96).
  sim = await startVpnSim({
    seed: 3,
    version: NEWEST_VERSION,
    admins: [
      { username: 'fleet', password: PASSWORD },
      { username: 'otp-admin', password: PASSWORD, otpCode: '123456' },
    ],
  });
});

afterEach(async () => {
  remember();
  sim.controls.slow(0);
  sim.controls.failNext(0);
  sim.controls.setPassword('fleet', PASSWORD);
  await sim.controls.down(false);
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await sim.close();
});

describe('transport faults', () => {
  test('connection refused -> 503 naming the manager and the address', async () => {
    const vpn = client();
    await sim.controls.down('refuse');
    const err = await rejection(vpn.listOrganizations());
    expect(err).toBeInstanceOf(ServiceUnavailable);
    expect(err.message).toBe(
      `VPN manager "vpn1" unreachable at ${sim.url}: ECONNREFUSED (POST /auth/session)`,
    );
  });

  test('connections dropped by the server -> 503', async () => {
    const vpn = client();
    await vpn.listOrganizations();
    await sim.controls.down('reset');
    const err = await rejection(vpn.listOrganizations());
    expect(err).toBeInstanceOf(ServiceUnavailable);
    expect(err.message).toMatch(/^VPN manager "vpn1" unreachable at .*\(GET \/organization\)$/);
  });

  test('no answer within the timeout -> 504', async () => {
    const vpn = client();
    await vpn.listOrganizations();
    sim.controls.slow(1_000);
    const err = await rejection(vpn.listOrganizations());
    expect(err).toBeInstanceOf(GatewayTimeout);
    expect(err.message).toBe(
      `VPN manager "vpn1" at ${sim.url} did not answer within 300 ms (GET /organization)`,
    );
  });

  test("a server error -> 502 with the server's text", async () => {
    const vpn = client();
    await vpn.listOrganizations();
    sim.controls.failNext(1, 500);
    const err = await rejection(vpn.createOrganization({ name: 'x' }));
    expect(err).toBeInstanceOf(BadGateway);
    expect(err.message).toBe(
      'VPN manager "vpn1": POST /organization answered 500: 500: Internal Server Error',
    );
  });
});

describe('credentials', () => {
  test('refused credentials -> 502 naming the user; no second login attempt', async () => {
    sim.controls.setPassword('fleet', 'changed-on-the-server');
    sim.controls.resetStats();
    const err = await rejection(client().listOrganizations());
    expect(err).toBeInstanceOf(BadGateway);
    expect(err.message).toBe(
      'VPN manager "vpn1" refused the credentials of user "fleet": Authentication credentials are not valid. (auth_invalid)',
    );
    expect(sim.controls.stats.loginAttempts).toBe(1);
  });

  test('an administrator with two-factor authentication -> 502 saying so', async () => {
    const err = await rejection(
      client({
        manager: { name: 'vpn1', dashboard_address: sim.url, username: 'otp-admin', password: PASSWORD },
      }).listOrganizations(),
    );
    expect(err).toBeInstanceOf(BadGateway);
    expect(err.message).toContain('two-factor authentication');
  });

  test("the server's login limiter -> 502 saying too many logins", async () => {
    sim.controls.settings.loginMax = 0;
    try {
      const err = await rejection(client().listOrganizations());
      expect(err).toBeInstanceOf(BadGateway);
      expect(err.message).toContain('too many logins');
      expect(err.message).toContain('(auth_too_many)');
    } finally {
      sim.controls.settings.loginMax = 30;
    }
  });
});

describe('session expiry', () => {
  test.each(['flask', 'proxy'] as const)(
    'expired on the %s side: one re-login, then the call succeeds',
    async (layer) => {
      const vpn = client();
      await vpn.listOrganizations();
      sim.controls.resetStats();
      sim.controls.expireSessions(layer);
      await expect(vpn.listOrganizations()).resolves.toEqual(expect.any(Array));
      expect(sim.controls.stats).toMatchObject({ logins: 1, unauthorized: 1 });
      await vpn.listOrganizations();
      expect(sim.controls.stats.logins).toBe(1);
    },
  );

  test('eight concurrent calls after expiry share one login', async () => {
    const vpn = client();
    const org = await vpn.createOrganization({ name: 'concurrent' });
    sim.controls.settings.loginDelayMs = 80;
    try {
      sim.controls.expireSessions();
      sim.controls.resetStats();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? vpn.listOrganizations() : vpn.listUsers(org.id))),
      );
      expect(results.every((r) => Array.isArray(r))).toBe(true);
      expect(sim.controls.stats.loginAttempts).toBe(1);
      expect(sim.controls.stats.unauthorized).toBe(8);
    } finally {
      sim.controls.settings.loginDelayMs = 0;
    }
  });

  test('concurrent first calls of a new client share one login', async () => {
    sim.controls.resetStats();
    const vpn = client();
    await Promise.all(Array.from({ length: 6 }, () => vpn.listServers()));
    expect(sim.controls.stats.loginAttempts).toBe(1);
  });

  test('a 401 after a fresh login is a 502, not a loop', async () => {
    const vpn = client();
    await vpn.listOrganizations();
    // The server now refuses every CSRF token: each session_auth call answers 401.
    const csrf = sim.state.csrf;
    const lookup = csrf.get.bind(csrf);
    csrf.get = () => undefined;
    sim.controls.resetStats();
    try {
      const err = await rejection(vpn.listOrganizations());
      expect(err).toBeInstanceOf(BadGateway);
      expect(err.message).toBe(
        'VPN manager "vpn1" refused GET /organization after a fresh login: 401: Unauthorized',
      );
      expect(sim.controls.stats).toMatchObject({ loginAttempts: 1, unauthorized: 2 });
    } finally {
      csrf.get = lookup;
    }
  });

  test('past its login budget the client refuses to log in (503) without asking the server', async () => {
    const vpn = client({ loginBudget: { max: 2, windowMs: 600_000 } });
    await vpn.listOrganizations();
    sim.controls.expireSessions();
    await vpn.listOrganizations();
    sim.controls.expireSessions();
    sim.controls.resetStats();
    const err = await rejection(vpn.listOrganizations());
    expect(err).toBeInstanceOf(ServiceUnavailable);
    expect(err.message).toContain('2 logins in 600 s already');
    expect(sim.controls.stats.loginAttempts).toBe(0);
  });
});

describe('secrets', () => {
  test('OTP secrets of users never reach the log', async () => {
    const vpn = client();
    const org = await vpn.createOrganization({ name: 'secrets' });
    const user = await vpn.createUser(org.id, { name: 'h1' });
    await vpn.updateUser(org.id, user.id, { disabled: true });
    secrets.add(user.otp_secret);
    expect(captured.lines.join('\n')).not.toContain(user.otp_secret);
  });

  test('no error and no log line holds the password, a session cookie or a CSRF token', () => {
    remember();
    expect(thrown.length).toBeGreaterThanOrEqual(9);
    expect(captured.lines.length).toBeGreaterThan(20);
    const text = [...thrown.map(serialize), ...captured.lines].join('\n');
    expect(secrets.size).toBeGreaterThan(10);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});
