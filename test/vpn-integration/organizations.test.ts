/**
 * vpn_organizations against vpn-sim over real HTTP: POST creates the organization on the server
 * and stores its record, DELETE deletes it there first (409 while hosts use it, before anything
 * is deleted anywhere), and every failure leaves nothing half-done: nothing stored when the server
 * fails, nothing left on the server when the store refuses the write.
 */
import { auth, expectEveError } from '../helpers';
import {
  ADMIN,
  alertsOf,
  createManager,
  createOrg,
  eventually,
  link,
  newHost,
  orgBody,
  simOrgIds,
  startVpnEnv,
  type VpnEnv,
} from './support';

let env: VpnEnv;
beforeAll(async () => {
  env = await startVpnEnv({ sim: { servers: [{ name: 'gw1' }, { name: 'gw2' }] } });
});
afterAll(() => env.close());

const MASK = '********';
const admin = auth('admin');

async function storedNamed(name: string): Promise<number> {
  return env.api.store.count('vpn_organizations', { name });
}

describe('POST', () => {
  it('creates the organization on the server and stores its record; cipher_type stays local', async () => {
    const body = orgBody(env.manager, {
      name: 'Ops Team',
      vpnsrv_representation: { name: 'Ops Team', cipher_type: 'rsa' },
    });
    const res = await env.api.request.post('/api/vpn_organizations').set(admin).send(body);
    expect(res.status).toBe(201);
    const item = await env.api.request
      .get(`/api/vpn_organizations/${(res.body as { _id: string })._id}`)
      .set(auth('viewer'));
    const rep = (item.body as { vpnsrv_representation: Record<string, unknown> }).vpnsrv_representation;
    const onServer = env.sim.state.organizations.get(String(rep.id));
    expect(onServer).toMatchObject({ name: 'OpsTeam', auth_api: false });
    expect(item.body).toMatchObject({
      name: 'Ops Team',
      cipher_type: 'rsa',
      type: 6,
      unreachable: false,
      vpn_manager: env.manager,
    });
    // The default release (1.30.2817.44) has no `expiration` (names.test.ts and the port test cover newer ones).
    expect(rep).toEqual({
      id: onServer?.id,
      name: 'OpsTeam',
      auth_api: false,
      auth_token: null,
      auth_secret: null,
      user_count: 0,
      cipher_type: 'rsa',
    });
  });

  it('auth_api: the server generates a token and a secret, stored sealed and read back masked', async () => {
    const { id, serverId } = await createOrg(env, {
      vpnsrv_representation: { name: 'api', cipher_type: 'rsa', auth_api: true },
    });
    const onServer = env.sim.state.organizations.get(serverId);
    expect(onServer?.auth_token).toMatch(/^[A-Za-z0-9]{32}$/);
    const item = await env.api.request.get(`/api/vpn_organizations/${id}`).set(auth('viewer'));
    expect(item.body).toMatchObject({
      vpnsrv_representation: { auth_api: true, auth_token: MASK, auth_secret: MASK },
    });
    const [doc] = await env.api.store.find('vpn_organizations', { _id: id });
    expect((doc?.vpnsrv_representation as Record<string, string>).auth_token).toMatch(/^enc:v1:/);
    for (const s of [onServer?.auth_token, onServer?.auth_secret]) expect(item.text).not.toContain(String(s));
  });

  it('embeds the manager with embedded={"vpn_manager":1}, its password masked', async () => {
    const { id } = await createOrg(env);
    const item = await env.api.request
      .get(`/api/vpn_organizations/${id}`)
      .query({ embedded: '{"vpn_manager": 1}' })
      .set(auth('viewer'));
    expect(item.body).toMatchObject({
      vpn_manager: { _id: env.manager, username: ADMIN.username, password: MASK },
    });
    expect(item.text).not.toContain(ADMIN.password);
  });

  it('an unknown manager is a 422 and makes no call', async () => {
    const before = env.proxy.calls.length;
    expectEveError(
      await env.api.request
        .post('/api/vpn_organizations')
        .set(admin)
        .send(orgBody('ffffffffffffffffffffffff')),
      422,
      { issues: ['vpn_manager'] },
    );
    expect(env.proxy.calls.length).toBe(before);
  });
});

describe('POST failures leave nothing half-done', () => {
  it('server down: 503, nothing stored, nothing on the server', async () => {
    const body = orgBody(env.manager);
    const orgs = simOrgIds(env.sim).length;
    await env.sim.controls.down('refuse');
    try {
      const res = await env.api.request.post('/api/vpn_organizations').set(admin).send(body);
      expect(expectEveError(res, 503)._error.message).toMatch(/unreachable/);
    } finally {
      await env.sim.controls.down(false);
    }
    expect(await storedNamed(String(body.name))).toBe(0);
    expect(simOrgIds(env.sim)).toHaveLength(orgs);
  });

  it('server error before the create: 502, nothing stored', async () => {
    const body = orgBody(env.manager);
    env.proxy.fail({ method: 'POST', path: /^\/organization$/, status: 500, when: 'before' });
    expectEveError(await env.api.request.post('/api/vpn_organizations').set(admin).send(body), 502);
    expect(await storedNamed(String(body.name))).toBe(0);
  });

  it('server error after the create (done, answered 500): 502, and what it made is deleted', async () => {
    const body = orgBody(env.manager);
    const orgs = new Set(simOrgIds(env.sim));
    env.proxy.fail({ method: 'POST', path: /^\/organization$/, status: 500, when: 'after' });
    expectEveError(await env.api.request.post('/api/vpn_organizations').set(admin).send(body), 502);
    expect(await storedNamed(String(body.name))).toBe(0);
    expect(simOrgIds(env.sim).filter((id) => !orgs.has(id))).toEqual([]);
  });

  it('an answer the client cannot read, naming what the server made: 502, that id deleted and no other', async () => {
    const body = orgBody(env.manager);
    const orgs = new Set(simOrgIds(env.sim));
    env.proxy.fail({
      method: 'POST',
      path: /^\/organization$/,
      status: 200,
      when: 'after',
      rewrite: (text) => JSON.stringify({ ...(JSON.parse(text) as object), name: null }),
    });
    const calls = env.proxy.calls.length;
    const res = await env.api.request.post('/api/vpn_organizations').set(admin).send(body);
    expect(expectEveError(res, 502)._error.message).toMatch(/unexpected answer: name is not a string/);
    expect(await storedNamed(String(body.name))).toBe(0);
    expect(simOrgIds(env.sim).filter((id) => !orgs.has(id))).toEqual([]);
    const after = env.proxy.calls.slice(calls);
    const made = after.find((c) => c.startsWith('DELETE /organization/'));
    expect(made).toMatch(/^DELETE \/organization\/[0-9a-f]{24}$/);
    // Deleted by its id: no listing by name after the create.
    expect(after.slice(after.indexOf('POST /organization') + 1)).not.toContain('GET /organization');
  });

  it('the store refuses the write after the server made it (a bulk POST with a bad second document): 422, deleted on the server', async () => {
    const good = orgBody(env.manager);
    const orgs = new Set(simOrgIds(env.sim));
    const calls = env.proxy.calls.length;
    const res = await env.api.request
      .post('/api/vpn_organizations')
      .set(admin)
      .send([good, { name: 'no manager' }]);
    expect(res.status).toBe(422);
    expect((res.body as { _items: { _status: string }[] })._items.map((i) => i._status)).toEqual([
      'OK',
      'ERR',
    ]);
    expect(await storedNamed(String(good.name))).toBe(0);
    expect(env.proxy.calls.slice(calls).filter((c) => /^(POST|DELETE) \/organization/.test(c))).toEqual([
      'POST /organization',
      expect.stringMatching(/^DELETE \/organization\/[0-9a-f]{24}$/),
    ]);
    expect(simOrgIds(env.sim).filter((id) => !orgs.has(id))).toEqual([]);
  });

  it('bad credentials: 502 naming the manager, nothing stored', async () => {
    const wrong = await createManager(env.api, env.proxy.url, { password: 'not-the-password-123' });
    const body = orgBody(wrong);
    const res = await env.api.request.post('/api/vpn_organizations').set(admin).send(body);
    expect(expectEveError(res, 502)._error.message).toMatch(/refused the credentials/);
    expect(res.text).not.toContain('not-the-password-123');
    expect(await storedNamed(String(body.name))).toBe(0);
  });
});

describe('a slow server', () => {
  let slow: VpnEnv;
  beforeAll(async () => {
    // VPN_TIMEOUT_S 0.25: organization creation may take 1 s; the server takes 1.6 s.
    slow = await startVpnEnv({
      env: { VPN_TIMEOUT_S: '0.25' },
      sim: { settings: { orgCreateDelayMs: 1600 }, servers: [{ name: 'gw1' }] },
    });
  });
  afterAll(() => slow.close());

  it('504; the organization the server makes after the time limit is deleted by a later look', async () => {
    const body = orgBody(slow.manager);
    const res = await slow.api.request.post('/api/vpn_organizations').set(admin).send(body);
    expect(expectEveError(res, 504)._error.message).toMatch(/did not answer within 1000 ms/);
    expect(await slow.api.store.count('vpn_organizations', { name: body.name })).toBe(0);
    // The server made it after 1.6 s; the service looks again 1 s after the failure, and deletes it.
    // The proxy records a call as it arrives: wait for the server to have carried it out too.
    const deleted = () =>
      slow.proxy.calls.some((c) => c.startsWith('DELETE /organization/')) && simOrgIds(slow.sim).length === 0;
    await eventually(() => (deleted() ? true : undefined), 8000, 'the leftover deleted');
    expect(simOrgIds(slow.sim)).toEqual([]);
  });

  it('a leftover its administrator attached to a running VPN server meanwhile is kept (vpn.leftover names the server)', async () => {
    // Made after 3 s: the look 1 s after the failure finds nothing, the next (4 s later) finds it.
    slow.sim.controls.settings.orgCreateDelayMs = 3000;
    const body = orgBody(slow.manager);
    const calls = slow.proxy.calls.length;
    expectEveError(await slow.api.request.post('/api/vpn_organizations').set(admin).send(body), 504);
    const made = await eventually(() => simOrgIds(slow.sim)[0], 8000, 'the late organization');
    const gw1 = [...slow.sim.state.servers.values()][0];
    slow.sim.controls.attach(gw1?.id ?? '', made);
    slow.sim.controls.setServerStatus(gw1?.id ?? '', 'online');
    const alert = await eventually(
      async () => (await alertsOf(slow.api, 'vpn.leftover')).find((a) => a.payload.id === made),
      10_000,
      'the leftover alert',
    );
    expect(alert.payload.error).toMatch(/attached to VPN server "gw1" \(online\)/);
    expect(slow.sim.state.organizations.has(made)).toBe(true);
    expect(gw1?.status).toBe('online');
    expect(slow.proxy.calls.slice(calls).filter((c) => c.startsWith('DELETE /organization/'))).toEqual([]);
  });
});

describe('DELETE', () => {
  it('deletes on the server first, then here', async () => {
    const { id, serverId } = await createOrg(env);
    expect((await env.api.request.delete(`/api/vpn_organizations/${id}`).set(admin)).status).toBe(204);
    expect(env.sim.state.organizations.has(serverId)).toBe(false);
    expectEveError(await env.api.request.get(`/api/vpn_organizations/${id}`).set(auth('viewer')), 404);
  });

  it('already gone on the server is fine', async () => {
    const { id, serverId } = await createOrg(env);
    env.sim.state.organizations.delete(serverId);
    expect((await env.api.request.delete(`/api/vpn_organizations/${id}`).set(admin)).status).toBe(204);
    expect(await env.api.store.count('vpn_organizations', { _id: id })).toBe(0);
  });

  it('409 while a host uses it, before anything is deleted anywhere (no call to the server)', async () => {
    const { id, serverId } = await createOrg(env);
    const host = await newHost(env.api);
    expect((await link(env, host, id)).status).toBe(200);
    const calls = env.proxy.calls.length;
    expectEveError(await env.api.request.delete(`/api/vpn_organizations/${id}`).set(admin), 409);
    expect(env.proxy.calls.slice(calls)).toEqual([]);
    expect(env.sim.state.organizations.has(serverId)).toBe(true);
    expect((await link(env, host, null)).status).toBe(200);
    expect((await env.api.request.delete(`/api/vpn_organizations/${id}`).set(admin)).status).toBe(204);
    expect(env.sim.state.organizations.has(serverId)).toBe(false);
  });

  it('409 naming the VPN servers that hold it, before anything is deleted anywhere: Pritunl would stop them', async () => {
    const { id, serverId } = await createOrg(env);
    const [gw1, gw2] = [...env.sim.state.servers.values()];
    env.sim.controls.attach(gw1?.id ?? '', serverId);
    env.sim.controls.attach(gw2?.id ?? '', serverId);
    env.sim.controls.setServerStatus(gw1?.id ?? '', 'online');
    const calls = env.proxy.calls.length;
    const res = await env.api.request.delete(`/api/vpn_organizations/${id}`).set(admin);
    expect(expectEveError(res, 409)._error.message).toMatch(
      /^VPN organization "[^"]+" is attached to VPN servers "gw1" \(online\), "gw2" \(offline\) of VPN manager "vpn-[^"]+": deleting it there would stop every one of them that is online/,
    );
    expect(env.proxy.calls.slice(calls).filter((c) => !c.startsWith('GET '))).toEqual([]);
    expect(env.sim.state.organizations.has(serverId)).toBe(true);
    expect(gw1?.status).toBe('online');
    expect(await env.api.store.count('vpn_organizations', { _id: id })).toBe(1);
    // Its administrator detaches it from both (stopping gw1 to do so): then it goes.
    env.sim.controls.setServerStatus(gw1?.id ?? '', 'offline');
    for (const s of [gw1, gw2]) if (s) s.organizations = s.organizations.filter((o) => o !== serverId);
    expect((await env.api.request.delete(`/api/vpn_organizations/${id}`).set(admin)).status).toBe(204);
    expect(env.sim.state.organizations.has(serverId)).toBe(false);
  });

  it('server down: 503 and the organization stays, here and there', async () => {
    const { id, serverId } = await createOrg(env);
    await env.sim.controls.down('refuse');
    try {
      expectEveError(await env.api.request.delete(`/api/vpn_organizations/${id}`).set(admin), 503);
    } finally {
      await env.sim.controls.down(false);
    }
    expect(await env.api.store.count('vpn_organizations', { _id: id })).toBe(1);
    expect(env.sim.state.organizations.has(serverId)).toBe(true);
  });

  it('server error on the delete: 502 and the organization stays', async () => {
    const { id, serverId } = await createOrg(env);
    env.proxy.fail({ method: 'DELETE', path: /^\/organization\//, status: 500, when: 'before' });
    expectEveError(await env.api.request.delete(`/api/vpn_organizations/${id}`).set(admin), 502);
    expect(await env.api.store.count('vpn_organizations', { _id: id })).toBe(1);
    expect(env.sim.state.organizations.has(serverId)).toBe(true);
  });

  it('a hidden host does not block it; its stale account record goes too', async () => {
    const { id } = await createOrg(env);
    const host = await newHost(env.api);
    expect((await link(env, host, id)).status).toBe(200);
    await env.api.store.update('hosts', { _id: host }, { $set: { _soft_deleted: true } });
    expect((await env.api.request.delete(`/api/vpn_organizations/${id}`).set(admin)).status).toBe(204);
    const [doc] = await env.api.store.find('hosts', { _id: host });
    expect(doc).toMatchObject({ vpn_organization: null, vpnsrv_representation: null });
  });
});
