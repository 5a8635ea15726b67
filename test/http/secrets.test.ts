/**
 * Secrets never leak (§3, §5): a VPN manager's password is accepted on write, sealed
 * before it is stored, read back as "********" whatever the projection or embedding, refused in
 * `where` and `sort`, and never written to a response body or a log line. Same for the nested
 * secrets of hosts and VPN organizations (the organizations' come from the VPN server: vpn-sim
 * here; test/vpn-integration/secrets.test.ts drives every VPN path and fault).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Response } from 'supertest';
import { startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import {
  auth,
  expectEnvelope,
  expectEveError,
  insertHost,
  startTestServer,
  uniqueName,
  vpnManagerBody,
  type TestServer,
} from '../helpers';

const MASK = '********';
/** The VPN server's administrator: managers that hold organizations log in as it. */
const VPN_ADMIN = { username: 'fleet-admin', password: 'pw-vpn-sim-8c2d4e6f0a' };
let s: TestServer;
let sim: VpnSim;
beforeAll(async () => {
  sim = await startVpnSim({ admins: [VPN_ADMIN] });
  s = await startTestServer({ logLevel: 'debug' });
});
afterAll(async () => {
  await s.close();
  await sim.close();
});

const admin = auth('admin');
const viewer = auth('viewer');

/** Creates a VPN manager (of the simulated VPN server with `onServer`); returns its id and the clear password sent. */
async function manager(
  onServer = false,
): Promise<{ id: string; name: string; password: string; res: Response }> {
  const body = vpnManagerBody(onServer ? { dashboard_address: sim.url, ...VPN_ADMIN } : {});
  const res = await s.request.post('/api/vpn_managers').set(admin).send(body);
  expect(res.status).toBe(201);
  return { id: String(res.body._id), name: String(body.name), password: String(body.password), res };
}

function expectNoLeak(res: Response, clear: string): void {
  expect(res.text).not.toContain(clear);
}

describe('vpn_managers password in responses', () => {
  test('the POST response does not carry it', async () => {
    const m = await manager();
    expect(m.res.body).not.toHaveProperty('password');
    expectNoLeak(m.res, m.password);
  });

  test('the item GET and the list show it masked', async () => {
    const m = await manager();
    const item = await s.request.get(`/api/vpn_managers/${m.id}`).set(viewer);
    expect(item.body.password).toBe(MASK);
    expect(item.body.username).toBe('fleet-admin');
    expectNoLeak(item, m.password);
    const list = await s.request
      .get('/api/vpn_managers')
      .query({ where: JSON.stringify({ name: m.name }) })
      .set(viewer);
    const body = expectEnvelope(list, { page: 1, maxResults: 25, total: 1 });
    expect(body._items[0]?.password).toBe(MASK);
    expectNoLeak(list, m.password);
  });

  test('a bulk POST and the whole collection never show a clear password', async () => {
    const bodies = [vpnManagerBody(), vpnManagerBody()];
    const res = await s.request.post('/api/vpn_managers').set(admin).send(bodies);
    expect(res.status).toBe(201);
    const all = await s.request.get('/api/vpn_managers').query({ max_results: '1000' }).set(viewer);
    for (const b of bodies) {
      expectNoLeak(res, String(b.password));
      expectNoLeak(all, String(b.password));
    }
    for (const item of all.body._items as Record<string, unknown>[]) expect(item.password).toBe(MASK);
  });

  test.each([
    ['{"password": 1}', MASK],
    ['{"password": 1, "name": 1}', MASK],
    ['{"username": 0}', MASK],
    ['{"password": 0}', undefined],
    ['{"name": 1}', undefined],
  ])('projection %s keeps it masked (or leaves it out)', async (projection, expected) => {
    const m = await manager();
    const item = await s.request.get(`/api/vpn_managers/${m.id}`).query({ projection }).set(viewer);
    expect(item.status).toBe(200);
    expect(item.body.password).toBe(expected);
    expectNoLeak(item, m.password);
    const list = await s.request
      .get('/api/vpn_managers')
      .query({ where: JSON.stringify({ name: m.name }), projection })
      .set(viewer);
    expect(expectEnvelope(list, { page: 1, maxResults: 25, total: 1 })._items[0]?.password).toBe(expected);
    expectNoLeak(list, m.password);
  });

  test('embedded in a VPN organization, the manager is masked too', async () => {
    const m = await manager(true);
    const org = await s.request
      .post('/api/vpn_organizations')
      .set(admin)
      .send({
        name: uniqueName('org'),
        vpn_manager: m.id,
        cipher_type: 'rsa',
        vpnsrv_representation: { name: 'org', cipher_type: 'rsa' },
      });
    expect(org.status).toBe(201);
    const item = await s.request
      .get(`/api/vpn_organizations/${String(org.body._id)}`)
      .query({ embedded: '{"vpn_manager": 1}' })
      .set(viewer);
    expect(item.body.vpn_manager).toMatchObject({ _id: m.id, password: MASK });
    expectNoLeak(item, m.password);
    const list = await s.request
      .get('/api/vpn_organizations')
      .query({ where: JSON.stringify({ vpn_manager: m.id }), embedded: '{"vpn_manager": 1}' })
      .set(viewer);
    expect(expectEnvelope(list, { page: 1, maxResults: 25, total: 1 })._items[0]?.vpn_manager).toMatchObject({
      password: MASK,
    });
    expectNoLeak(list, m.password);
  });

  test('a PATCH of the password answers without it and reads back masked', async () => {
    const m = await manager();
    const next = `new-${m.password}`;
    const res = await s.request.patch(`/api/vpn_managers/${m.id}`).set(admin).send({ password: next });
    expect(res.status).toBe(200);
    expectNoLeak(res, next);
    const item = await s.request.get(`/api/vpn_managers/${m.id}`).set(viewer);
    expect(item.body.password).toBe(MASK);
    expectNoLeak(item, next);
  });

  test('error responses do not echo it', async () => {
    const m = await manager();
    const duplicate = await s.request
      .post('/api/vpn_managers')
      .set(admin)
      .send(vpnManagerBody({ name: m.name, password: m.password }));
    expectEveError(duplicate, 409);
    expectNoLeak(duplicate, m.password);
    const invalid = await s.request
      .post('/api/vpn_managers')
      .set(admin)
      .send({ password: m.password, colour: 'red' });
    expectEveError(invalid, 422);
    expectNoLeak(invalid, m.password);
    const wrongType = await s.request
      .patch(`/api/vpn_managers/${m.id}`)
      .set(admin)
      .send({ password: [m.password] });
    expectEveError(wrongType, 422, { issues: ['password'] });
    expectNoLeak(wrongType, m.password);
  });
});

describe('vpn_managers password in queries', () => {
  test.each([
    ['where equality', { where: '{"password": "x"}' }],
    ['where $regex', { where: '{"password": {"$regex": "^pw-"}}' }],
    ['where $exists', { where: '{"password": {"$exists": true}}' }],
    ['where inside $or', { where: '{"$or": [{"name": "x"}, {"password": "x"}]}' }],
    ['sort', { sort: 'password' }],
    ['sort descending', { sort: 'name,-password' }],
    ['sort in Eve syntax', { sort: '[("password", 1)]' }],
  ])('%s is a 400', async (_name, query) => {
    const res = await s.request.get('/api/vpn_managers').query(query).set(viewer);
    expect(expectEveError(res, 400)._error.message).toMatch(/secret/);
  });

  test('a where on the password cannot be used to guess it', async () => {
    const m = await manager();
    const exact = await s.request
      .get('/api/vpn_managers')
      .query({ where: JSON.stringify({ name: m.name, password: m.password }) })
      .set(viewer);
    expectEveError(exact, 400);
    expectNoLeak(exact, m.password);
  });
});

describe('at rest and in the logs', () => {
  test('the stored value is sealed, not the clear text, in the store and in the SQLite files', async () => {
    const m = await manager();
    const [doc] = await s.store.find('vpn_managers', { _id: m.id });
    expect(typeof doc?.password).toBe('string');
    expect(doc?.password).not.toContain(m.password);
    expect(String(doc?.password)).toMatch(/^enc:v1:/);
    // Sealing is randomised: the same password stored twice gives two different values.
    const twin = await s.request
      .post('/api/vpn_managers')
      .set(admin)
      .send(vpnManagerBody({ password: m.password }));
    const [other] = await s.store.find('vpn_managers', { _id: twin.body._id });
    expect(other?.password).not.toBe(doc?.password);
    for (const file of [s.dbPath, `${s.dbPath}-wal`]) {
      if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(m.password))).toBe(false);
    }
  });

  test('the clear password never reaches the logs, which do record the requests', async () => {
    const m = await manager();
    await s.request
      .patch(`/api/vpn_managers/${m.id}`)
      .set(admin)
      .send({ password: `${m.password}-2` });
    await s.request.post('/api/vpn_managers').set(admin).send({ password: m.password });
    await s.request
      .get('/api/vpn_managers')
      .query({ where: JSON.stringify({ password: m.password }) })
      .set(viewer);
    const logs = s.logs();
    const requests = logs
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg?: string; method?: string; path?: string; status?: number })
      .filter((l) => l.msg === 'request');
    expect(requests).toContainEqual(
      expect.objectContaining({ method: 'POST', path: '/api/vpn_managers', status: 201 }),
    );
    expect(requests).toContainEqual(
      expect.objectContaining({ method: 'PATCH', path: `/api/vpn_managers/${m.id}`, status: 200 }),
    );
    expect(logs).not.toContain(m.password);
    for (const token of [auth('admin').Authorization, auth('viewer').Authorization])
      expect(logs).not.toContain(token.split(' ')[1]);
  });
});

describe('nested secrets', () => {
  test("a host's vpnsrv_representation.otp_secret is masked everywhere and not queryable", async () => {
    const id = `${uniqueName('otp')}.fleet.test`;
    const otp = `OTP${uniqueName('secret').replace(/-/g, '').toUpperCase()}`;
    await insertHost(s.store, id, {
      identification_number: id,
      vpnsrv_representation: {
        auth_type: 'local',
        otp_secret: otp,
        name: id,
        disabled: false,
        email: 'ops@fleet.test',
        type: 'client',
        id: 'u-1',
      },
    });
    const item = await s.request.get(`/api/hosts/${id}`).set(viewer);
    expect(item.body.vpnsrv_representation).toMatchObject({ otp_secret: MASK, name: id, auth_type: 'local' });
    expectNoLeak(item, otp);
    for (const projection of [
      '{"vpnsrv_representation": 1}',
      '{"vpnsrv_representation.otp_secret": 1}',
      '{"grain": 0}',
    ]) {
      const list = await s.request
        .get('/api/hosts')
        .query({ where: JSON.stringify({ identification_number: id }), projection })
        .set(viewer);
      expect(
        expectEnvelope(list, { page: 1, maxResults: 25, total: 1 })._items[0]?.vpnsrv_representation,
      ).toMatchObject({ otp_secret: MASK });
      expectNoLeak(list, otp);
    }
    expect(
      expectEveError(
        await s.request
          .get('/api/hosts')
          .query({ where: JSON.stringify({ 'vpnsrv_representation.otp_secret': otp }) })
          .set(viewer),
        400,
      )._error.message,
    ).toMatch(/secret/);
    expectEveError(
      await s.request.get('/api/hosts').query({ sort: 'vpnsrv_representation.otp_secret' }).set(viewer),
      400,
    );
  });

  test("a VPN organization's auth_token and auth_secret are sealed and masked", async () => {
    const m = await manager(true);
    const org = await s.request
      .post('/api/vpn_organizations')
      .set(admin)
      .send({
        name: uniqueName('org'),
        vpn_manager: m.id,
        vpnsrv_representation: { name: 'org', cipher_type: 'rsa', auth_api: true },
      });
    expect(org.status).toBe(201);
    const item = await s.request.get(`/api/vpn_organizations/${String(org.body._id)}`).set(viewer);
    expect(item.body.vpnsrv_representation).toMatchObject({
      auth_token: MASK,
      auth_secret: MASK,
      auth_api: true,
      name: 'org',
    });
    // The server made them (auth_api); they are 32 characters there and never leave here.
    const onServer = sim.state.organizations.get(String(item.body.vpnsrv_representation.id));
    const token = String(onServer?.auth_token);
    const secret = String(onServer?.auth_secret);
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    for (const clear of [token, secret]) {
      expectNoLeak(org, clear);
      expectNoLeak(item, clear);
      expect(s.logs()).not.toContain(clear);
    }
    const [doc] = await s.store.find('vpn_organizations', { _id: org.body._id });
    const stored = doc?.vpnsrv_representation as Record<string, string>;
    expect(stored.auth_token).toMatch(/^enc:v1:/);
    expect(stored.auth_secret).toMatch(/^enc:v1:/);
    expectEveError(
      await s.request
        .get('/api/vpn_organizations')
        .query({ where: '{"vpnsrv_representation.auth_token": {"$exists": true}}' })
        .set(viewer),
      400,
    );
  });
});
