/**
 * Every error status the engine answers, each in the one error shape
 * `{"_status": "ERR", "_error": {"code", "message"}}` (+ `_issues` on 422 and 409) with the headers
 * that go with it: 400, 404 (item and route), 405 with Allow, 409, 412, 413, 415, 422.
 * (401 and 403 are in auth.test.ts.)
 */
import { startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import {
  auth,
  expectEveError,
  insertHosts,
  startTestServer,
  vpnManagerBody,
  type TestServer,
} from '../helpers';

let s: TestServer;
/** The VPN server the organizations are created on (a manager whose server answers). */
let vpn: VpnSim;
beforeAll(async () => {
  s = await startTestServer();
  vpn = await startVpnSim({ admins: [{ username: 'fleet-admin', password: 'vpn-errors-password-47' }] });
});
afterAll(async () => {
  await s.close();
  await vpn.close();
});

const admin = auth('admin');
const viewer = auth('viewer');

async function createManager(
  overrides: Record<string, unknown> = {},
): Promise<{ _id: string; _etag: string }> {
  const res = await s.request.post('/api/vpn_managers').set(admin).send(vpnManagerBody(overrides));
  expect(res.status).toBe(201);
  return res.body as { _id: string; _etag: string };
}

describe('400', () => {
  test('a body that is not valid JSON', async () => {
    const res = await s.request
      .post('/api/vpn_managers')
      .set(admin)
      .set('Content-Type', 'application/json')
      .send('{"name": "x",');
    expect(expectEveError(res, 400)._error.message).toMatch(/not valid JSON/);
  });

  test('a JSON body that is not an object', async () => {
    const res = await s.request
      .post('/api/vpn_managers')
      .set(admin)
      .set('Content-Type', 'application/json')
      .send('"just a string"');
    expectEveError(res, 400);
  });

  test('an empty bulk insert', async () => {
    const res = await s.request.post('/api/vpn_managers').set(admin).send([]);
    expect(expectEveError(res, 400)._error.message).toMatch(/empty bulk/i);
  });

  test('a malformed %-escape in the path', async () => {
    expectEveError(await s.request.get('/api/hosts/%E0%A4%A').set(viewer), 400);
  });

  test('a body whose Content-Encoding does not match its bytes', async () => {
    const res = await s.request
      .post('/api/vpn_managers')
      .set(admin)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('{"name": "x"}');
    expectEveError(res, 400);
  });

  test('a bad query parameter', async () => {
    expect(
      expectEveError(await s.request.get('/api/hosts?where=nope').set(viewer), 400)._error.message,
    ).toMatch(/^where/);
  });
});

describe('401 and 403 (the cases are in auth.test.ts)', () => {
  test('no token is a 401 with WWW-Authenticate; a role too low is a 403', async () => {
    const missing = await s.request.get('/api/vpn_managers');
    expectEveError(missing, 401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    expectEveError(await s.request.post('/api/vpn_managers').set(viewer).send(vpnManagerBody()), 403);
  });
});

describe('404', () => {
  test('an unknown item', async () => {
    const res = await s.request.get('/api/vpn_managers/ffffffffffffffffffffffff').set(viewer);
    expect(expectEveError(res, 404)._error.message).toContain('ffffffffffffffffffffffff');
  });

  test('PATCH and DELETE of an unknown item', async () => {
    expectEveError(
      await s.request.patch('/api/vpn_managers/ffffffffffffffffffffffff').set(admin).send({ username: 'x' }),
      404,
    );
    expectEveError(await s.request.delete('/api/vpn_managers/ffffffffffffffffffffffff').set(admin), 404);
  });

  test('an unknown route under /api and outside it', async () => {
    expectEveError(await s.request.get('/api/no_such_resource').set(viewer), 404);
    expectEveError(await s.request.get('/api/hosts/a/b/c').set(viewer), 404);
    expectEveError(await s.request.get('/nothing-here'), 404);
  });

  test('an unknown media id', async () => {
    expectEveError(await s.request.get('/api/media/ffffffffffffffffffffffff').set(viewer), 404);
  });
});

describe('405 with Allow', () => {
  test('a method the collection does not have', async () => {
    const res = await s.request.delete('/api/actions').set(admin);
    expectEveError(res, 405);
    expect(res.headers.allow?.split(', ').sort()).toEqual(['GET', 'HEAD']);
  });

  test('a method the item does not have lists the ones it has', async () => {
    const { _id } = await createManager();
    const res = await s.request.put(`/api/vpn_managers/${_id}`).set(admin).send(vpnManagerBody());
    expectEveError(res, 405);
    expect(res.headers.allow?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH']);
  });

  test('POST on a read-only resource', async () => {
    const res = await s.request
      .post('/api/actions')
      .set(admin)
      .send({ jid: '1', action: 'cmd.run', host: 'x' });
    expectEveError(res, 405);
    expect(res.headers.allow).toContain('GET');
    expect(res.headers.allow).not.toContain('POST');
  });
});

describe('409', () => {
  test('a duplicate unique field names the field', async () => {
    const body = vpnManagerBody();
    await createManager({ name: body.name });
    const res = await s.request
      .post('/api/vpn_managers')
      .set(admin)
      .send(vpnManagerBody({ name: body.name }));
    expectEveError(res, 409, { issues: ['name'] });
    const list = await s.request
      .get('/api/vpn_managers')
      .query({ where: JSON.stringify({ name: body.name }) })
      .set(viewer);
    expect(list.body._meta.total).toBe(1);
  });

  test('a bulk insert with one duplicate inserts nothing', async () => {
    const taken = vpnManagerBody();
    await createManager({ name: taken.name });
    const fresh = vpnManagerBody();
    expectEveError(
      await s.request
        .post('/api/vpn_managers')
        .set(admin)
        .send([fresh, vpnManagerBody({ name: taken.name })]),
      409,
    );
    const list = await s.request
      .get('/api/vpn_managers')
      .query({ where: JSON.stringify({ name: fresh.name }) })
      .set(viewer);
    expect(list.body._meta.total).toBe(0);
  });

  test('a PATCH onto a taken unique value', async () => {
    const taken = vpnManagerBody();
    await createManager({ name: taken.name });
    const { _id } = await createManager();
    expectEveError(
      await s.request.patch(`/api/vpn_managers/${_id}`).set(admin).send({ name: taken.name }),
      409,
      { issues: ['name'] },
    );
  });

  test('deleting a VPN manager that organizations still use', async () => {
    const { _id } = await createManager({ dashboard_address: vpn.url, ...vpn.credentials });
    const org = await s.request
      .post('/api/vpn_organizations')
      .set(admin)
      .send({ name: 'org', vpn_manager: _id });
    expect(org.status).toBe(201);
    expectEveError(await s.request.delete(`/api/vpn_managers/${_id}`).set(admin), 409);
    expect((await s.request.get(`/api/vpn_managers/${_id}`).set(viewer)).status).toBe(200);
  });
});

describe('412', () => {
  test('a stale If-Match leaves the item unchanged', async () => {
    const { _id, _etag } = await createManager();
    const changed = await s.request
      .patch(`/api/vpn_managers/${_id}`)
      .set(admin)
      .set('If-Match', `"${_etag}"`)
      .send({ username: 'first' });
    expect(changed.status).toBe(200);
    const stale = await s.request
      .patch(`/api/vpn_managers/${_id}`)
      .set(admin)
      .set('If-Match', `"${_etag}"`)
      .send({ username: 'second' });
    expect(expectEveError(stale, 412)._error.message).toMatch(/etag/i);
    expect((await s.request.get(`/api/vpn_managers/${_id}`).set(viewer)).body.username).toBe('first');
  });
});

describe('413', () => {
  test('a JSON body over the limit', async () => {
    const huge = vpnManagerBody({ username: 'x'.repeat(1024 * 1024 + 10) });
    const res = await s.request.post('/api/vpn_managers').set(admin).send(huge);
    expectEveError(res, 413);
    const list = await s.request
      .get('/api/vpn_managers')
      .query({ where: JSON.stringify({ name: huge.name }) })
      .set(viewer);
    expect(list.body._meta.total).toBe(0);
  });
});

describe('415', () => {
  test('a body that is not JSON', async () => {
    const res = await s.request
      .post('/api/vpn_managers')
      .set(admin)
      .set('Content-Type', 'text/plain')
      .send('name=x');
    expectEveError(res, 415);
  });

  test('a JSON body in an unsupported charset', async () => {
    const res = await s.request
      .post('/api/vpn_managers')
      .set(admin)
      .set('Content-Type', 'application/json; charset=latin1')
      .send('{"name": "x"}');
    expectEveError(res, 415);
  });

  test('a text/plain PATCH (form-encoded ones are accepted, as Eve does: test/http/eve/form-bodies.test.ts)', async () => {
    const { _id } = await createManager();
    const res = await s.request
      .patch(`/api/vpn_managers/${_id}`)
      .set(admin)
      .type('text/plain')
      .send('username=x');
    expectEveError(res, 415);
  });

  test('multipart on a resource without media', async () => {
    const res = await s.request.post('/api/vpn_managers').set(admin).field('name', 'x');
    expectEveError(res, 415);
  });
});

describe('422 with _issues', () => {
  test('missing required fields are each named', async () => {
    const res = await s.request.post('/api/vpn_managers').set(admin).send({ name: 'only-a-name' });
    const body = expectEveError(res, 422, {
      issues: ['server_address', 'dashboard_address', 'username', 'password'],
    });
    expect(body._issues?.username).toBe('required field');
  });

  test('an unknown field, a wrong type and a server-set field', async () => {
    const res = await s.request
      .post('/api/vpn_managers')
      .set(admin)
      .send(vpnManagerBody({ colour: 'red', username: 42, _created: 'Wed, 25 Nov 2026 21:08:02 GMT' }));
    const body = expectEveError(res, 422, { issues: ['colour', 'username', '_created'] });
    expect(body._issues?.colour).toBe('unknown field');
    expect(body._issues?.username).toBe('must be of string type');
    expect(body._issues?._created).toBe('field is read-only');
  });

  test('a PATCH of a field PATCH may not change', async () => {
    const { docs } = await insertHosts(s.store, 1);
    const res = await s.request
      .patch(`/api/hosts/${String(docs[0]?._id)}`)
      .set(admin)
      .send({ status: 'down' });
    expectEveError(res, 422, { issues: ['status'] });
  });

  test('a bulk insert with one invalid item inserts nothing, and says which (Eve: one status per document)', async () => {
    const good = vpnManagerBody();
    const res = await s.request
      .post('/api/vpn_managers')
      .set(admin)
      .send([good, { name: 'incomplete' }]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      _status: 'ERR',
      _error: { code: 422 },
      _items: [{ _status: 'OK' }, { _status: 'ERR', _issues: { username: 'required field' } }],
    });
    const list = await s.request
      .get('/api/vpn_managers')
      .query({ where: JSON.stringify({ name: good.name }) })
      .set(viewer);
    expect(list.body._meta.total).toBe(0);
  });
});
