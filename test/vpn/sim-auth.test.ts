/**
 * vpn-sim's authentication rules, each named after the Pritunl code it copies
 * (handlers/auth.py, auth/administrator.py `check_session`, auth/csrf.py, limiter.py,
 * pritunl-web handlers.go `Authorize`), checked with raw HTTP as a browser would send it, on
 * the newest release (the web token and strict mode exist from 1.32.4465.96; what differs by
 * release is in sim-versions.test.ts).
 */
import { createHmac } from 'node:crypto';
import { NEWEST_VERSION, startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import { consoleLogin, cookieHeader, raw } from './helpers';

let sim: VpnSim;
const API = { token: 'p7g444S3IZ5wmFvmzWmx14qACXdzQ25b', secret: 'OpS9fjxkPI3DclkdKDDr6mqYVd0DJh4i' };
let apiSim: VpnSim;

beforeAll(async () => {
  sim = await startVpnSim({
    seed: 11,
    version: NEWEST_VERSION,
    admins: [
      { username: 'admin', password: 'pw-123456' },
      { username: 'otp', password: 'pw-123456', otpCode: '424242' },
    ],
  });
  apiSim = await startVpnSim({
    seed: 12,
    version: NEWEST_VERSION,
    admins: [{ username: 'api', password: 'pw-api', api: API }],
  });
  // The API simulator's clock stands at the notes' test-vector time (1700000000).
  apiSim.controls.advanceClock(1_700_000_000_000 - Date.now());
});

afterAll(async () => {
  await sim.close();
  await apiSim.close();
});

describe('auth_session_post', () => {
  test('a valid login answers {authenticated, default} and sets the session and token cookies', async () => {
    const res = await raw(sim, 'POST', '/auth/session', {
      body: { username: ' ADMIN ', password: 'pw-123456' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ authenticated: true, default: false });
    expect(res.setCookies.map((c) => c.split('=')[0])).toEqual(['session', 'token']);
    expect(res.setCookies[1]).toContain('Max-Age=43200');
  });

  test('a wrong password is 401 auth_invalid (JSON); an unknown user 401 auth_invalid_username', async () => {
    const bad = await raw(sim, 'POST', '/auth/session', { body: { username: 'admin', password: 'nope' } });
    expect([bad.status, bad.type, bad.body]).toEqual([
      401,
      'application/json',
      { error: 'auth_invalid', error_msg: 'Authentication credentials are not valid.' },
    ]);
    const unknown = await raw(sim, 'POST', '/auth/session', { body: { username: 'nobody', password: 'x' } });
    expect(unknown.body).toMatchObject({ error: 'auth_invalid_username' });
  });

  test('2FA without a code is 402 auth_otp_required, whatever the password, before the limiter counts it; with the code the login works', async () => {
    const res = await raw(sim, 'POST', '/auth/session', { body: { username: 'otp', password: 'wrong' } });
    expect([res.status, res.body]).toEqual([
      402,
      {
        error: 'auth_otp_required',
        error_msg: 'Two-factor authentication required.',
        otp_auth: true,
        yubico_auth: false,
      },
    ]);
    const otpAdmin = [...sim.state.admins.values()].find((a) => a.username === 'otp');
    expect(sim.state.limiter.get(otpAdmin?.id ?? '')).toBeUndefined();
    expect(
      (
        await raw(sim, 'POST', '/auth/session', {
          body: { username: 'otp', password: 'pw-123456', otp_code: '424242' },
        })
      ).status,
    ).toBe(200);
  });
});

describe('limiter.auth_check', () => {
  test('more than 30 attempts per administrator in 600 s: 400 auth_too_many, right password or not; the window then resets', async () => {
    const own = await startVpnSim({ seed: 13, admins: [{ username: 'a', password: 'pw' }] });
    try {
      for (let i = 0; i < 30; i += 1)
        await raw(own, 'POST', '/auth/session', {
          body: { username: 'a', password: i % 2 === 0 ? 'pw' : 'bad' },
        });
      const limited = await raw(own, 'POST', '/auth/session', { body: { username: 'a', password: 'pw' } });
      expect([limited.status, limited.body]).toEqual([
        400,
        { error: 'auth_too_many', error_msg: 'Too many authentication attempts.' },
      ]);
      own.controls.advanceClock(600_001);
      expect(
        (await raw(own, 'POST', '/auth/session', { body: { username: 'a', password: 'pw' } })).status,
      ).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('new_session (session_limit)', () => {
  test('the 17th login evicts the oldest session', async () => {
    const first = await consoleLogin(sim);
    for (let i = 0; i < 16; i += 1) await consoleLogin(sim);
    const res = await raw(sim, 'GET', '/organization', first);
    expect([res.status, res.text]).toEqual([401, '401: Unauthorized']);
  });
});

describe('check_session', () => {
  test('session_auth routes need the Csrf-Token header, GETs included: 401 text/html otherwise', async () => {
    const s = await consoleLogin(sim);
    const res = await raw(sim, 'GET', '/organization', { cookie: s.cookie });
    expect([res.status, res.type, res.text]).toEqual([401, 'text/html; charset=utf-8', '401: Unauthorized']);
    expect((await raw(sim, 'GET', '/organization', s)).status).toBe(200);
  });

  test('CSRF tokens are reusable and bound to the administrator, not the session (auth/csrf.py)', async () => {
    const a = await consoleLogin(sim);
    const b = await consoleLogin(sim);
    expect((await raw(sim, 'GET', '/organization', { cookie: b.cookie, csrf: a.csrf })).status).toBe(200);
    expect((await raw(sim, 'GET', '/organization', { cookie: b.cookie, csrf: a.csrf })).status).toBe(200);
  });

  test('session_timeout: 43,200 s after login the session is refused', async () => {
    const own = await startVpnSim({ seed: 14 });
    try {
      const s = await consoleLogin(own);
      own.controls.advanceClock(43_200_000 - 60_000);
      expect((await raw(own, 'GET', '/organization', s)).status).toBe(200);
      own.controls.advanceClock(120_000);
      const res = await raw(own, 'GET', '/organization', s);
      expect(res.status).toBe(401);
    } finally {
      await own.close();
    }
  });

  test("HMAC token auth: the notes' test vector authenticates (the org is unknown: 500, not 401)", async () => {
    const path = '/user/5f1c0c7a9f1b2a0012345678';
    const ts = '1700000000';
    const nonce = '0123456789abcdef0123456789abcdef';
    const signature = createHmac('sha256', API.secret)
      .update([API.token, ts, nonce, 'POST', path].join('&'))
      .digest('base64');
    expect(signature).toBe('npOM4cGgLuIbT0CT5mfvD3arlHz2ks9Ah9MZBqSiVFE=');
    const headers = {
      'Auth-Token': API.token,
      'Auth-Timestamp': ts,
      'Auth-Nonce': nonce,
      'Auth-Signature': signature,
    };
    const res = await raw(apiSim, 'POST', path, { body: { name: 'x' }, headers });
    expect([res.status, res.text]).toEqual([500, '500: Internal Server Error']);
    const replay = await raw(apiSim, 'POST', path, { body: { name: 'x' }, headers });
    expect([replay.status, replay.text]).toEqual([401, '401: Unauthorized']);
  });

  test('HMAC token auth: a timestamp outside ±43,200 s, a short nonce or a float timestamp is 401', async () => {
    const nowS = 1_700_000_000;
    const sign = (ts: string, nonce: string): Record<string, string> => ({
      'Auth-Token': API.token,
      'Auth-Timestamp': ts,
      'Auth-Nonce': nonce,
      'Auth-Signature': createHmac('sha256', API.secret)
        .update([API.token, ts, nonce, 'GET', '/organization'].join('&'))
        .digest('base64'),
    });
    expect(
      (await raw(apiSim, 'GET', '/organization', { headers: sign(String(nowS), 'aaaaaaaa1') })).status,
    ).toBe(200);
    expect(
      (await raw(apiSim, 'GET', '/organization', { headers: sign(String(nowS - 43_300), 'aaaaaaaa2') }))
        .status,
    ).toBe(401);
    expect((await raw(apiSim, 'GET', '/organization', { headers: sign(String(nowS), 'short') })).status).toBe(
      401,
    );
    expect(
      (await raw(apiSim, 'GET', '/organization', { headers: sign(`${nowS}.5`, 'aaaaaaaa3') })).status,
    ).toBe(401);
  });
});

describe('Authorize (pritunl-web)', () => {
  test('strict mode: no token cookie -> 401 "Missing token" (text/plain), and the session is ended', async () => {
    const s = await consoleLogin(sim);
    const sessionOnly = s.cookie
      .split('; ')
      .filter((c) => c.startsWith('session='))
      .join('; ');
    const res = await raw(sim, 'GET', '/organization', { cookie: sessionOnly, csrf: s.csrf });
    expect([res.status, res.type, res.text]).toEqual([401, 'text/plain; charset=utf-8', '401 Missing token']);
    expect((await raw(sim, 'GET', '/organization', s)).status).toBe(401);
  });

  test('an expired token cookie -> 401 "Token session expired"', async () => {
    const s = await consoleLogin(sim);
    sim.controls.expireSessions('proxy');
    const res = await raw(sim, 'GET', '/organization', s);
    expect([res.status, res.text]).toEqual([401, '401 Token session expired']);
  });

  test('with an API administrator strict mode is off: no cookie reaches Flask, which answers 401 itself', async () => {
    const res = await raw(apiSim, 'GET', '/organization');
    expect([res.status, res.text]).toEqual([401, '401: Unauthorized']);
    expect((await raw(sim, 'GET', '/organization')).text).toBe('401 Missing token');
  });
});

describe('auth_delete and auth_state_get', () => {
  test('GET /state needs no CSRF and mints a new token each call; DELETE /auth/session ends the session', async () => {
    const login = await raw(sim, 'POST', '/auth/session', {
      body: { username: 'admin', password: 'pw-123456' },
    });
    const cookie = cookieHeader(login.setCookies);
    const one = await raw(sim, 'GET', '/state', { cookie });
    const two = await raw(sim, 'GET', '/state', { cookie });
    expect(one.body).toMatchObject({
      super_user: true,
      csrf_token: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
    });
    expect((one.body as { csrf_token: string }).csrf_token).not.toBe(
      (two.body as { csrf_token: string }).csrf_token,
    );
    expect((await raw(sim, 'DELETE', '/auth/session', { cookie })).body).toEqual({ authenticated: false });
    expect((await raw(sim, 'GET', '/state', { cookie })).status).toBe(401);
  });
});
