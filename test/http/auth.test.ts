/**
 * Bearer tokens and the three roles of no token or an unknown one is a 401 with
 * WWW-Authenticate, a role too low is a 403, and each role reaches exactly what it should.
 */
import {
  auth,
  expectEveError,
  insertHosts,
  startTestServer,
  TOKENS,
  vpnManagerBody,
  type TestServer,
} from '../helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

function taskBody(): Record<string, unknown> {
  return {
    name: 'nightly uptime',
    fun: 'cmd.run',
    kwarg: { cmd: 'uptime' },
    tgt: ['web-01.fleet.test'],
    start: '2026-12-01 04:00',
    interval: 3600,
  };
}

describe('401', () => {
  test.each([
    ['GET', '/api/hosts'],
    ['GET', '/api/hosts/some-host.fleet.test'],
    ['GET', '/api/'],
    ['GET', '/api/media/ffffffffffffffffffffffff'],
    ['GET', '/api/groups/ffffffffffffffffffffffff/hostnames'],
    ['POST', '/api/vpn_managers'],
  ] as const)('%s %s without a token, with WWW-Authenticate', async (method, path) => {
    const res = await s.request[method === 'GET' ? 'get' : 'post'](path);
    expectEveError(res, 401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm=/);
  });

  test('an unknown token', async () => {
    const res = await s.request.get('/api/hosts').set('Authorization', 'Bearer not-a-token-of-this-server');
    expectEveError(res, 401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  test('a malformed Authorization header', async () => {
    expectEveError(
      await s.request
        .get('/api/hosts')
        .set('Authorization', `Basic ${Buffer.from('admin:admin').toString('base64')}`),
      401,
    );
    expectEveError(await s.request.get('/api/hosts').set('Authorization', 'Bearer'), 401);
    expectEveError(await s.request.get('/api/hosts').set('Authorization', TOKENS.admin), 401);
  });

  test('a token in the query string is not accepted', async () => {
    expectEveError(
      await s.request.get('/api/hosts').query({ token: TOKENS.admin, access_token: TOKENS.admin }),
      401,
    );
  });

  test('the 401 does not tell whether the item exists', async () => {
    const { docs } = await insertHosts(s.store, 1);
    const existing = await s.request.get(`/api/hosts/${String(docs[0]?._id)}`);
    const missing = await s.request.get('/api/hosts/no-such-host.fleet.test');
    expectEveError(existing, 401);
    expectEveError(missing, 401);
    expect(existing.body).toEqual(missing.body);
  });

  test('an unauthenticated write changes nothing', async () => {
    const body = vpnManagerBody();
    expectEveError(await s.request.post('/api/vpn_managers').send(body), 401);
    const list = await s.request
      .get('/api/vpn_managers')
      .query({ where: JSON.stringify({ name: body.name }) })
      .set(auth('viewer'));
    expect(list.body._meta.total).toBe(0);
  });

  test('the health check needs no token', async () => {
    const res = await s.request.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', store: 'sqlite' });
  });

  test('"Token" is accepted as the scheme too, case-insensitively', async () => {
    expect((await s.request.get('/api/hosts').set('Authorization', `token ${TOKENS.viewer}`)).status).toBe(
      200,
    );
    expect((await s.request.get('/api/hosts').set('Authorization', `bearer ${TOKENS.viewer}`)).status).toBe(
      200,
    );
  });
});

describe('viewer', () => {
  test('reads collections, items and the home document', async () => {
    const { docs } = await insertHosts(s.store, 1);
    expect((await s.request.get('/api/hosts').set(auth('viewer'))).status).toBe(200);
    expect((await s.request.get(`/api/hosts/${String(docs[0]?._id)}`).set(auth('viewer'))).status).toBe(200);
    const home = await s.request.get('/api/').set(auth('viewer'));
    expect(home.status).toBe(200);
    expect(home.body._links.child).toContainEqual({ title: 'hosts', href: 'hosts' });
  });

  test('POST is a 403 naming the role needed, and nothing is created', async () => {
    const body = vpnManagerBody();
    const res = await s.request.post('/api/vpn_managers').set(auth('viewer')).send(body);
    expect(expectEveError(res, 403)._error.message).toMatch(/admin/);
    const list = await s.request
      .get('/api/vpn_managers')
      .query({ where: JSON.stringify({ name: body.name }) })
      .set(auth('viewer'));
    expect(list.body._meta.total).toBe(0);
  });

  test('a task POST, a host PATCH and a DELETE are 403', async () => {
    const { docs } = await insertHosts(s.store, 1);
    const id = String(docs[0]?._id);
    expect(
      expectEveError(await s.request.post('/api/tasks').set(auth('viewer')).send(taskBody()), 403)._error
        .message,
    ).toMatch(/operator/);
    expectEveError(
      await s.request.patch(`/api/hosts/${id}`).set(auth('viewer')).send({ identification_number: 'x' }),
      403,
    );
    expectEveError(await s.request.delete(`/api/hosts/${id}`).set(auth('viewer')), 403);
    expect((await s.request.get(`/api/hosts/${id}`).set(auth('viewer'))).body.identification_number).toBe(
      docs[0]?.identification_number,
    );
  });

  test('mark_as_read (a write hidden in a GET) needs the operator role', async () => {
    expectEveError(await s.request.get('/api/alerts').query({ mark_as_read: '1' }).set(auth('viewer')), 403);
  });
});

describe('operator', () => {
  test('creates and deletes tasks', async () => {
    const created = await s.request.post('/api/tasks').set(auth('operator')).send(taskBody());
    expect(created.status).toBe(201);
    expect(
      (await s.request.delete(`/api/tasks/${String(created.body._id)}`).set(auth('operator'))).status,
    ).toBe(204);
  });

  test('cannot do what only an admin can', async () => {
    const { docs } = await insertHosts(s.store, 1);
    const id = String(docs[0]?._id);
    expect(
      expectEveError(
        await s.request.post('/api/vpn_managers').set(auth('operator')).send(vpnManagerBody()),
        403,
      )._error.message,
    ).toMatch(/admin/);
    expectEveError(
      await s.request.patch(`/api/hosts/${id}`).set(auth('operator')).send({ identification_number: 'x' }),
      403,
    );
    expectEveError(await s.request.delete(`/api/hosts/${id}`).set(auth('operator')), 403);
    expectEveError(
      await s.request.delete('/api/groups').query({ where: '{"type": 3}' }).set(auth('operator')),
      403,
    );
  });
});

describe('admin', () => {
  test('does what an operator cannot', async () => {
    const { docs } = await insertHosts(s.store, 1);
    const id = String(docs[0]?._id);
    expect((await s.request.post('/api/vpn_managers').set(auth('admin')).send(vpnManagerBody())).status).toBe(
      201,
    );
    expect(
      (
        await s.request
          .patch(`/api/hosts/${id}`)
          .set(auth('admin'))
          .send({ identification_number: 'INV-0042' })
      ).status,
    ).toBe(200);
    expect((await s.request.get(`/api/hosts/${id}`).set(auth('viewer'))).body.identification_number).toBe(
      'INV-0042',
    );
  });

  test('inherits every operator and viewer right', async () => {
    const created = await s.request.post('/api/tasks').set(auth('admin')).send(taskBody());
    expect(created.status).toBe(201);
    expect((await s.request.get('/api/alerts').query({ mark_as_read: '1' }).set(auth('admin'))).status).toBe(
      200,
    );
  });
});
