/**
 * vpn_managers and vpn_organizations through HTTP: the manager's password accepted on write,
 * stored encrypted and masked on every read path; organizations linked to a manager (related link,
 * embedded), and refused deletion while something still uses them (409). Organizations live on a
 * VPN server (vpn-sim here): the managers that hold them point at it; test/vpn-integration covers
 * the server's side and its faults.
 */
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
} from '../../helpers';
import { q } from './_support';

let t: TestServer;
let sim: VpnSim;
beforeAll(async () => {
  sim = await startVpnSim({ admins: [{ username: 'fleet-admin', password: 'vpn-test-password-31' }] });
  t = await startTestServer({ logLevel: 'debug' });
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

const MASK = '********';

/** A manager of the simulated VPN server (organizations are created there). */
async function createManager(
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; body: Record<string, unknown> }> {
  const body = vpnManagerBody({ dashboard_address: sim.url, ...sim.credentials, ...overrides });
  const res = await t.request.post('/api/vpn_managers').set(auth('admin')).send(body);
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status: 201 });
  return { id: (res.body as { _id: string })._id, body };
}

function orgBody(manager: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const name = uniqueName('org');
  return {
    name,
    vpn_manager: manager,
    cipher_type: 'rsa',
    vpnsrv_representation: { name, cipher_type: 'rsa' },
    ...overrides,
  };
}

async function createOrg(manager: string): Promise<string> {
  const res = await t.request.post('/api/vpn_organizations').set(auth('admin')).send(orgBody(manager));
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status: 201 });
  return (res.body as { _id: string })._id;
}

describe('vpn_managers', () => {
  it('POST answers the write response; GET returns every field with the password masked', async () => {
    const body = vpnManagerBody();
    const res = await t.request.post('/api/vpn_managers').set(auth('admin')).send(body);
    expect(res.status).toBe(201);
    const id = (res.body as { _id: string })._id;
    expect(Object.keys(res.body as object).sort()).toEqual([
      '_created',
      '_etag',
      '_id',
      '_links',
      '_status',
      '_updated',
    ]);
    expect(res.body).toMatchObject({
      _status: 'OK',
      _links: { self: { title: 'Vpn_manager', href: `vpn_managers/${id}` } },
    });
    const item = await t.request.get(`/api/vpn_managers/${id}`).set(auth('viewer'));
    expect(item.body).toMatchObject({ ...body, password: MASK });
  });

  it('stores the password encrypted, never in clear', async () => {
    const { id, body } = await createManager();
    const [stored] = await t.store.find('vpn_managers', { _id: id });
    expect(typeof stored?.password).toBe('string');
    expect(stored?.password).not.toBe(body.password);
    expect(JSON.stringify(stored)).not.toContain(String(body.password));
  });

  it('masks the password in lists and in any projection', async () => {
    const { body } = await createManager();
    const where = `where=${q({ name: body.name })}`;
    for (const extra of ['', `&projection=${q({ password: 1 })}`, `&projection=${q({ name: 0 })}`]) {
      const page = expectEnvelope(
        await t.request.get(`/api/vpn_managers?${where}${extra}`).set(auth('viewer')),
        { page: 1, maxResults: 25, total: 1 },
      );
      expect(page._items[0]?.password).toBe(MASK);
    }
  });

  it('refuses the password in where and sort (400)', async () => {
    const { body } = await createManager();
    expectEveError(
      await t.request.get(`/api/vpn_managers?where=${q({ password: body.password })}`).set(auth('viewer')),
      400,
    );
    expectEveError(await t.request.get('/api/vpn_managers?sort=password').set(auth('viewer')), 400);
  });

  it('never writes the password to the logs', async () => {
    const { id, body } = await createManager();
    await t.request.get(`/api/vpn_managers/${id}`).set(auth('viewer')).expect(200);
    expect(t.logs()).not.toContain(String(body.password));
  });

  it('refuses a body without the required fields (422) and a role below admin (403)', async () => {
    expectEveError(
      await t.request
        .post('/api/vpn_managers')
        .set(auth('admin'))
        .send({ name: uniqueName('vpn') }),
      422,
      {
        issues: ['server_address', 'dashboard_address', 'username', 'password'],
      },
    );
    expectEveError(
      await t.request.post('/api/vpn_managers').set(auth('operator')).send(vpnManagerBody()),
      403,
    );
  });

  it('refuses a duplicate name with 409', async () => {
    const { body } = await createManager();
    expectEveError(
      await t.request
        .post('/api/vpn_managers')
        .set(auth('admin'))
        .send(vpnManagerBody({ name: body.name })),
      409,
    );
  });

  it('DELETE removes the manager', async () => {
    const { id } = await createManager();
    expect((await t.request.delete(`/api/vpn_managers/${id}`).set(auth('admin'))).status).toBe(204);
    expectEveError(await t.request.get(`/api/vpn_managers/${id}`).set(auth('viewer')), 404);
    expect(await t.store.count('vpn_managers', { _id: id })).toBe(0);
  });

  it('DELETE is refused (409) while an organization uses the manager', async () => {
    const { id } = await createManager();
    await createOrg(id);
    expectEveError(await t.request.delete(`/api/vpn_managers/${id}`).set(auth('admin')), 409);
    expect(await t.store.count('vpn_managers', { _id: id })).toBe(1);
  });
});

describe('vpn_organizations', () => {
  it('POST with a manager answers _links.related.vpn_manager; GET returns the fields', async () => {
    const { id: manager } = await createManager();
    const body = orgBody(manager);
    const res = await t.request.post('/api/vpn_organizations').set(auth('admin')).send(body);
    expect(res.status).toBe(201);
    const id = (res.body as { _id: string })._id;
    expect(res.body).toMatchObject({
      _status: 'OK',
      _links: {
        self: { title: 'Vpn_organization', href: `vpn_organizations/${id}` },
        related: { vpn_manager: { title: 'Vpn_manager', href: `vpn_managers/${manager}` } },
      },
    });
    const item = await t.request.get(`/api/vpn_organizations/${id}`).set(auth('viewer'));
    expect(item.body).toMatchObject({
      name: body.name,
      vpn_manager: manager,
      cipher_type: 'rsa',
      type: 6,
      vpnsrv_representation: { name: body.name, cipher_type: 'rsa' },
    });
    // The server's record: its id, name, user count and tokens.
    const rep = (item.body as { vpnsrv_representation: { id: string } }).vpnsrv_representation;
    expect(sim.state.organizations.get(rep.id)?.name).toBe(body.name);
    expect(rep).toMatchObject({ auth_api: false, auth_token: null, auth_secret: null, user_count: 0 });
  });

  it('embeds the manager with embedded={"vpn_manager":1}, its password still masked', async () => {
    const { id: manager, body } = await createManager();
    const id = await createOrg(manager);
    const item = await t.request
      .get(`/api/vpn_organizations/${id}?embedded=${q({ vpn_manager: 1 })}`)
      .set(auth('viewer'));
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({
      vpn_manager: { _id: manager, name: body.name, username: body.username, password: MASK },
    });
    const page = expectEnvelope(
      await t.request
        .get(`/api/vpn_organizations?where=${q({ _id: id })}&embedded=${q({ vpn_manager: 1 })}`)
        .set(auth('viewer')),
      {
        page: 1,
        maxResults: 25,
        total: 1,
      },
    );
    expect(page._items[0]).toMatchObject({ vpn_manager: { _id: manager, password: MASK } });
  });

  it('masks the secrets of its VPN-side representation', async () => {
    const { id: manager } = await createManager();
    const res = await t.request
      .post('/api/vpn_organizations')
      .set(auth('admin'))
      .send(orgBody(manager, { vpnsrv_representation: { name: 'x', cipher_type: 'rsa', auth_api: true } }));
    expect(res.status).toBe(201);
    const item = await t.request
      .get(`/api/vpn_organizations/${(res.body as { _id: string })._id}`)
      .set(auth('viewer'));
    expect(item.body).toMatchObject({
      vpnsrv_representation: { auth_api: true, auth_token: MASK, auth_secret: MASK, user_count: 0 },
    });
    const onServer = sim.state.organizations.get(
      String((item.body as { vpnsrv_representation: { id: string } }).vpnsrv_representation.id),
    );
    for (const secret of [onServer?.auth_token, onServer?.auth_secret])
      expect(item.text).not.toContain(String(secret));
  });

  it('refuses an unknown or missing manager with 422', async () => {
    expectEveError(
      await t.request
        .post('/api/vpn_organizations')
        .set(auth('admin'))
        .send(orgBody('ffffffffffffffffffffffff')),
      422,
      {
        issues: ['vpn_manager'],
      },
    );
    const { vpn_manager: _omit, ...noManager } = orgBody('x');
    expectEveError(await t.request.post('/api/vpn_organizations').set(auth('admin')).send(noManager), 422, {
      issues: ['vpn_manager'],
    });
  });

  it('DELETE is refused (409) while a host uses the organization, and allowed once it does not', async () => {
    const { id: manager } = await createManager();
    const org = await createOrg(manager);
    const host = (await insertHost(t.store, `${uniqueName('h')}.fleet.test`))._id;
    await t.request
      .patch(`/api/hosts/${host}`)
      .set(auth('admin'))
      .send({ vpn_organization: org })
      .expect(200);
    expectEveError(await t.request.delete(`/api/vpn_organizations/${org}`).set(auth('admin')), 409);
    expect((await t.request.get(`/api/vpn_organizations/${org}`).set(auth('viewer'))).status).toBe(200);
    await t.request
      .patch(`/api/hosts/${host}`)
      .set(auth('admin'))
      .send({ vpn_organization: null })
      .expect(200);
    expect((await t.request.delete(`/api/vpn_organizations/${org}`).set(auth('admin'))).status).toBe(204);
    expectEveError(await t.request.get(`/api/vpn_organizations/${org}`).set(auth('viewer')), 404);
  });

  it('a soft-deleted host does not keep the organization alive', async () => {
    const { id: manager } = await createManager();
    const org = await createOrg(manager);
    await insertHost(t.store, `${uniqueName('h')}.fleet.test`, {
      vpn_organization: org,
      _soft_deleted: true,
    });
    expect((await t.request.delete(`/api/vpn_organizations/${org}`).set(auth('admin'))).status).toBe(204);
  });

  it('has no PATCH (405) and needs admin to create', async () => {
    const { id: manager } = await createManager();
    const org = await createOrg(manager);
    expectEveError(
      await t.request.patch(`/api/vpn_organizations/${org}`).set(auth('admin')).send({ name: 'x' }),
      405,
    );
    expectEveError(
      await t.request.post('/api/vpn_organizations').set(auth('operator')).send(orgBody(manager)),
      403,
    );
  });
});
