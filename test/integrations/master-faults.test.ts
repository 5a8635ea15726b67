/**
 * Master faults seen through the API, over real HTTP against salt-sim: a master that is down or
 * unavailable -> 503 with a clear message and nothing stored lost; a slow one -> 504 after the
 * configured SALT_API_TIMEOUT_S; a 500 -> 502; an expired session -> transparent re-login; no
 * master configured -> 503 naming SALT_API_URL. No credential ever appears in a body or a log.
 */
import { auth, expectEveError, insertHost, startTestServer, type TestServer } from '../helpers';
import { SALT_USER, startMasterEnv, type MasterEnv } from './master-env';

let env: MasterEnv;

beforeAll(async () => {
  env = await startMasterEnv({ knobs: { SALT_API_TIMEOUT_S: '1' }, logLevel: 'debug' });
});

afterAll(async () => {
  env.sim.controls.slow(0);
  await env.close();
});

const ping = (id: string) =>
  env.api.request
    .post(`/api/hosts/${id}`)
    .set(auth('operator'))
    .send({ exec_client: 'local', fun: 'test.ping' });

async function snapshot(): Promise<unknown> {
  const hosts = await env.api.request
    .get('/api/hosts')
    .query({ max_results: '100', projection: JSON.stringify({ grain: 1, status: 1, last_action: 1 }) })
    .set(auth('viewer'));
  const actions = await env.api.request.get('/api/actions').query({ max_results: '100' }).set(auth('viewer'));
  expect(hosts.status).toBe(200);
  // Action ids only: the event consumer may still be rewriting who ran an earlier call.
  return {
    hosts: (hosts.body as { _items: unknown[] })._items,
    actions: (actions.body as { _items: Array<{ _id: string }> })._items.map((a) => a._id),
  };
}

function noSecrets(text: string): void {
  expect(text).not.toContain(SALT_USER.password);
}

describe('master faults', () => {
  const id = (): string => env.up[0] ?? '';

  beforeAll(async () => {
    await ping(id()).expect(200); // logged in: later faults hit the execution, not the login
  });

  it('master down: 503 saying it is unreachable, nothing stored lost, and it works again once back', async () => {
    const before = await snapshot();
    await env.sim.controls.masterDown(true);
    try {
      const res = await ping(id());
      const message = expectEveError(res, 503)._error.message;
      // The call that failed: the execution, or the login of an instance that has no session yet
      // (behind a balancer, the one answering may never have talked to the master).
      expect(message).toMatch(
        /^salt master unreachable at http:\/\/127\.0\.0\.1:\d+: ECONN\w+ \(POST \/(login)?\)$/,
      );
      noSecrets(res.text);
      expect(await snapshot()).toEqual(before);
    } finally {
      await env.sim.controls.masterDown(false);
    }
    await ping(id()).expect(200);
  });

  it('master daemon not running behind salt-api: 503 with the master message', async () => {
    env.sim.controls.masterUnavailable(true);
    try {
      expect(expectEveError(await ping(id()), 503)._error.message).toMatch(/Salt Master is not available\./);
    } finally {
      env.sim.controls.masterUnavailable(false);
    }
  });

  it('slow master: 504 once SALT_API_TIMEOUT_S has passed', async () => {
    env.sim.controls.slow(2000);
    try {
      const res = await ping(id());
      expect(expectEveError(res, 504)._error.message).toMatch(/did not answer within 1000 ms/);
    } finally {
      env.sim.controls.slow(0);
    }
    // Let the simulator's delayed answer to the abandoned request run out before moving on.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await ping(id()).expect(200);
  });

  it('salt-api 500: 502 with the master message, never retried for an execution', async () => {
    // Only the execution's call fails: the service's background calls (a repair sync after the
    // master came back, the event stream) may reach the simulator first.
    env.sim.controls.failNextCall(1, 'test.ping', 500);
    const before = env.sim.controls.stats.byFun['local:test.ping'] ?? 0;
    const res = await ping(id());
    expect(expectEveError(res, 502)._error.message).toMatch(
      /salt-api answered 500 \(POST \/\): An unexpected error occurred/,
    );
    expect(env.sim.controls.stats.byFun['local:test.ping'] ?? 0).toBe(before);
    await ping(id()).expect(200);
  });

  it('session expiry: one transparent re-login, the execution succeeds', async () => {
    const logins = env.sim.controls.stats.logins;
    env.sim.controls.expireSessions();
    const res = await ping(id());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', return: { return: [{ [id()]: true }] } });
    expect(env.sim.controls.stats.logins).toBe(logins + 1);
  });

  it('never logs the salt-api password (debug level)', () => {
    expect(env.api.logs()).toMatch(/salt-api login/);
    noSecrets(env.api.logs());
  });
});

describe('a refused login', () => {
  it('answers 502 naming the user, not the password', async () => {
    const api = await startTestServer({
      env: {
        SALT_API_URL: env.sim.url,
        SALT_API_USER: SALT_USER.username,
        SALT_API_PASSWORD: 'wrong-pw-93e1',
      },
    });
    try {
      await insertHost(api.store, env.up[0] ?? '');
      const refused = await api.request
        .post(`/api/hosts/${env.up[0] ?? ''}`)
        .set(auth('operator'))
        .send({ exec_client: 'local', fun: 'test.ping' });
      expect(expectEveError(refused, 502)._error.message).toMatch(/refused the login of user 'fleet-api'/);
      expect(refused.text).not.toContain('wrong-pw-93e1');
    } finally {
      await api.close();
    }
  });
});

describe('without SALT_API_URL', () => {
  let api: TestServer;

  beforeAll(async () => {
    api = await startTestServer();
  });

  afterAll(async () => {
    await api.close();
  });

  it('every master route answers 503 naming SALT_API_URL', async () => {
    const calls = [
      api.request
        .post('/api/hosts/web-001.fleet.test')
        .set(auth('operator'))
        .send({ exec_client: 'local', fun: 'test.ping' }),
      api.request
        .post('/api/groups/0123456789abcdef01234567')
        .set(auth('operator'))
        .send({ exec_client: 'local', fun: 'test.ping' }),
      api.request
        .post('/api/hosts/web-001.fleet.test/all_status')
        .set(auth('operator'))
        .send({ action: 'start' }),
      api.request.post('/api/updates').set(auth('operator')),
      api.request.post('/api/master/sync').set(auth('admin')),
    ];
    for (const res of await Promise.all(calls))
      expect(expectEveError(res, 503)._error.message).toMatch(/SALT_API_URL/);
  });

  it('the sync endpoint is for admins only', async () => {
    expectEveError(await api.request.post('/api/master/sync').set(auth('operator')), 403);
    expectEveError(await api.request.post('/api/master/sync'), 401);
  });
});
