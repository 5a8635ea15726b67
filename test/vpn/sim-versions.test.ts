/**
 * vpn-sim's rules that changed between Pritunl releases, on every tested release (each
 * `CHANGES` entry of packages/vpn-sim/src/version.ts names its commit): what `GET /state`
 * answers, the web token and pritunl-web's strict mode, the name filter, where profiles are
 * served, the fields of the records, `yubico_id`, and the refusal of an unknown administrator.
 */
import { connect } from 'node:net';
import { CHANGES, startVpnSim, TESTED_VERSIONS, versionInt, type VpnSim } from '@fleet/vpn-sim';
import { consoleLogin, cookieHeader, raw, type RawAnswer, type RawSession } from './helpers';

type Json = Record<string, unknown>;

/** `utils.get_int_ver` of each tested release, as Python computes it. */
const STATE_VERSION: Record<string, number> = {
  '1.30.2817.44': 1003028174044,
  '1.32.4278.45': 1003242784045,
  '1.32.4465.96': 1003244654096,
  '1.34.4681.89': 1003446814089,
};

/** The status line of a request sent as HTTP/1.0 (fetch only speaks HTTP/1.1). */
function http10(sim: VpnSim): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(sim.port, '127.0.0.1', () => socket.write('GET /ping HTTP/1.0\r\n\r\n'));
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('end', () => resolve(text.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

/** The head of an answer as the bytes sent (HTTP clients decode Content-Disposition as UTF-8). */
function rawHead(sim: VpnSim, path: string, cookie: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(sim.port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: sim\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      resolve(all.subarray(0, all.indexOf('\r\n\r\n')));
    });
    socket.on('error', reject);
  });
}

describe.each(TESTED_VERSIONS)('Pritunl %s', (version) => {
  let sim: VpnSim;
  let s: RawSession;
  const since = (change: keyof typeof CHANGES): boolean => versionInt(version) >= versionInt(CHANGES[change]);
  const call = (method: string, path: string, body?: unknown): Promise<RawAnswer> =>
    raw(sim, method, path, { ...s, body });

  beforeAll(async () => {
    sim = await startVpnSim({ seed: 31, version, servers: [{ name: 'gw1' }] });
    s = await consoleLogin(sim);
  });
  afterAll(() => sim.close());

  test('auth_state_get: the fields of the release, `version` as utils.get_int_ver gives it', async () => {
    const state = await raw(sim, 'GET', '/state', { cookie: s.cookie });
    expect(state.body).toEqual({
      super_user: true,
      csrf_token: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      theme: 'dark',
      ...(since('stateUser') ? { user: false } : {}),
      active: false,
      plan: null,
      version: STATE_VERSION[version],
      sso: false,
    });
  });

  test('auth_session_post: the session cookie, and the token cookie pritunl-web checks from 1.32.4465.96', async () => {
    const login = await raw(sim, 'POST', '/auth/session', { body: sim.credentials });
    expect(login.setCookies.map((c) => c.split('=')[0])).toEqual(
      since('dataRoutes') ? ['session', 'token'] : ['session'],
    );
    const sessionOnly = cookieHeader(login.setCookies.filter((c) => c.startsWith('session=')));
    const state = await raw(sim, 'GET', '/state', { cookie: sessionOnly });
    expect([state.status, since('dataRoutes') ? state.text : 'served']).toEqual(
      since('dataRoutes') ? [401, '401 Missing token'] : [200, 'served'],
    );
    const out = await raw(sim, 'DELETE', '/auth/session', { cookie: cookieHeader(login.setCookies) });
    expect(out.setCookies.some((c) => /^token=;.*Max-Age=0/.test(c))).toBe(since('logoutClearsToken'));
  });

  test('_auth_plugin: an unknown administrator is auth_invalid_username from 1.32.4565.56, auth_invalid before', async () => {
    const res = await raw(sim, 'POST', '/auth/session', { body: { username: 'nobody', password: 'x' } });
    expect([res.status, (res.body as Json).error]).toEqual([
      401,
      since('invalidUsername') ? 'auth_invalid_username' : 'auth_invalid',
    ]);
  });

  test('filter_str: `%`, backtick, `{` and `}` are name characters until 1.32.4278.45', async () => {
    const created = await call('POST', '/organization', { name: 'a{b}%`c' });
    expect((created.body as Json).name).toBe(since('nameFilter') ? 'abc' : 'a{b}%`c');
  });

  test('Organization.dict() and User.dict(): expiration, last_active and devices as the release has them', async () => {
    const org = (await call('POST', '/organization', { name: 'fields' })).body as Json;
    expect('expiration' in org).toBe(since('expiration'));
    const [user] = (await call('POST', `/user/${org.id as string}`, { name: 'u' })).body as Json[];
    expect(['last_active' in (user ?? {}), 'devices' in (user ?? {})]).toEqual([
      since('yubicoAnyType'),
      since('devices'),
    ]);
    const read = (await call('GET', `/user/${org.id as string}/${user?.id as string}`)).body as Json;
    expect(since('authModes') ? read.auth_modes : read.otp_auth).toEqual(since('authModes') ? [] : false);
    expect(read.sso).toBe(false);
  });

  test('_create_user / user_put: yubico_id kept for the yubico type only, then any *yubico type, then any type', async () => {
    const org = ((await call('POST', '/organization', { name: 'yk' })).body as Json).id as string;
    const body = { name: 'k', auth_type: 'local', yubico_id: 'ccccccbcgujhingjrdejhgfnuetrgigvejhhgbkugded' };
    const [made] = (await call('POST', `/user/${org}`, body)).body as Json[];
    expect(made?.yubico_id).toBe(since('yubicoAnyType') ? 'ccccccbcgujh' : null);
    const put = await call('PUT', `/user/${org}/${made?.id as string}`, {
      ...body,
      yubico_id: 'vvvvvvcurikv',
    });
    expect((put.body as Json).yubico_id).toBe(since('yubicoAnyType') ? 'vvvvvvcurikv' : null);
    const [typed] = (await call('POST', `/user/${org}`, { ...body, auth_type: 'yubico' })).body as Json[];
    expect(typed?.yubico_id).toBe('ccccccbcgujh');
  });

  test('profiles: /data from 1.32.4465.96 (gin 404 before), /key before it (Flask 404 after), even without a session', async () => {
    const org = ((await call('POST', '/organization', { name: 'p' })).body as Json).id as string;
    const [u] = (await call('POST', `/user/${org}`, { name: 'u' })).body as Json[];
    const data = await call('GET', `/data/${org}/${u?.id as string}.tar`);
    const key = await call('GET', `/key/${org}/${u?.id as string}.tar`);
    const served = since('dataRoutes') ? data : key;
    const refused = since('dataRoutes') ? key : data;
    expect([served.status, served.type]).toEqual([200, 'application/octet-stream']);
    expect([refused.status, refused.text]).toEqual(
      since('dataRoutes') ? [404, '404: Not Found'] : [404, '404 page not found'],
    );
    const anonymous = await raw(sim, 'GET', since('dataRoutes') ? `/key/${org}/x.tar` : `/data/${org}/x.tar`);
    expect(anonymous.status).toBe(404);
  });

  test("the .tar's file name: the user's name in latin-1 until 1.30.3012.75, NFKD and ASCII only since", async () => {
    const org = ((await call('POST', '/organization', { name: 'n' })).body as Json).id as string;
    const [u] = (await call('POST', `/user/${org}`, { name: 'hôte' })).body as Json[];
    const path = `/${since('dataRoutes') ? 'data' : 'key'}/${org}/${u?.id as string}.tar`;
    const head = await rawHead(sim, path, s.cookie);
    const disposition = /^Content-Disposition: (.*)$/im.exec(head.toString('latin1'))?.[1];
    expect(disposition).toBe(`attachment; filename="${since('asciiFilename') ? 'hote' : 'hôte'}.tar"`);
  });

  test('pritunl-web answers HTTP/1.0 with 505 from 1.32.4512.98', async () => {
    expect(await http10(sim)).toBe(
      since('http10') ? 'HTTP/1.1 505 HTTP Version Not Supported' : 'HTTP/1.1 200 OK',
    );
  });
});
