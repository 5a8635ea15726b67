/**
 * Drift repair against vpn-sim: POST /api/vpn_managers/{id}/reconcile (admin) and the periodic
 * run compare a manager's organizations and accounts with the store, make again what the store
 * says should exist, refresh changed records, report what the store does not know (an alert,
 * once) and leave it alone; a manager that cannot be used marks its organizations unreachable
 * while host reads go on.
 */
import { startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import { auth, expectEveError, insertDoc, insertHost, uniqueName } from '../helpers';
import { startFaultProxy, type FaultProxy } from './proxy';
import {
  ADMIN,
  alertsOf,
  createManager,
  eventually,
  link,
  newHost,
  readHost,
  simUsers,
  startVpnEnv,
  type VpnEnv,
} from './support';

let env: VpnEnv;
const extra: { sim: VpnSim; proxy: FaultProxy }[] = [];
beforeAll(async () => {
  env = await startVpnEnv();
});
afterAll(async () => {
  for (const e of extra) {
    await e.proxy.close();
    await e.sim.close();
  }
  await env.close();
});

interface Side {
  readonly sim: VpnSim;
  readonly manager: string;
}

/** A simulator of its own and a manager for it, so each test reconciles only its own data. */
async function side(): Promise<Side> {
  const sim = await startVpnSim({ seed: extra.length + 100, admins: [ADMIN] });
  const proxy = await startFaultProxy(sim.url);
  extra.push({ sim, proxy });
  return { sim, manager: await createManager(env.api, proxy.url) };
}

async function org(s: Side): Promise<{ id: string; serverId: string }> {
  const name = uniqueName('org');
  const res = await env.api.request
    .post('/api/vpn_organizations')
    .set(auth('admin'))
    .send({ name, vpn_manager: s.manager, vpnsrv_representation: { name, cipher_type: 'rsa' } });
  expect(res.status).toBe(201);
  const id = (res.body as { _id: string })._id;
  const [doc] = await env.api.store.find('vpn_organizations', { _id: id });
  return { id, serverId: String((doc?.vpnsrv_representation as { id: string }).id) };
}

async function reconcile(s: Side): Promise<Record<string, unknown>> {
  const res = await env.api.request.post(`/api/vpn_managers/${s.manager}/reconcile`).set(auth('admin'));
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({
    status: 200,
    body: { _status: 'OK' },
  });
  const [report] = (res.body as { managers: Record<string, unknown>[] }).managers;
  return report ?? {};
}

async function storedOrg(id: string): Promise<Record<string, unknown>> {
  const [doc] = await env.api.store.find('vpn_organizations', { _id: id });
  return doc ?? {};
}

it('nothing drifted: everything checked, user_count refreshed, nothing made', async () => {
  const s = await side();
  const o = await org(s);
  const host = await newHost(env.api);
  expect((await link(env, host, o.id)).status).toBe(200);
  expect(await reconcile(s)).toEqual({
    _id: s.manager,
    name: expect.any(String),
    reachable: true,
    failures: [],
    organizations: { checked: 1, recreated: 0, refreshed: 1, extra: 0 },
    accounts: { checked: 1, recreated: 0, refreshed: 0, extra: 0 },
  });
  expect((await storedOrg(o.id)).vpnsrv_representation).toMatchObject({
    id: o.serverId,
    user_count: 1,
    cipher_type: 'rsa',
  });
  expect(await reconcile(s)).toMatchObject({ organizations: { refreshed: 0 }, accounts: { refreshed: 0 } });
});

it('an organization gone on the server is made again, its accounts with it; alerts say so', async () => {
  const s = await side();
  const o = await org(s);
  const host = await newHost(env.api);
  expect((await link(env, host, o.id)).status).toBe(200);
  s.sim.state.organizations.delete(o.serverId);
  expect(await reconcile(s)).toMatchObject({
    organizations: { recreated: 1 },
    accounts: { recreated: 1 },
    failures: [],
  });
  const made = [...s.sim.state.organizations.values()];
  expect(made).toHaveLength(1);
  expect((await storedOrg(o.id)).vpnsrv_representation).toMatchObject({
    id: made[0]?.id,
    cipher_type: 'rsa',
  });
  const [user] = simUsers(s.sim, made[0]?.id ?? '');
  expect((await readHost(env, host)).vpnsrv_representation).toMatchObject({
    id: user?.id,
    organization: made[0]?.id,
    name: host,
  });
  expect(
    (await alertsOf(env.api, 'vpn.organization.recreated')).some((a) => a.payload.previous === o.serverId),
  ).toBe(true);
  expect((await alertsOf(env.api, 'vpn.account.recreated')).some((a) => a.payload.hostname === host)).toBe(
    true,
  );
  expect(await reconcile(s)).toMatchObject({ organizations: { recreated: 0 }, accounts: { recreated: 0 } });
});

it('an account gone on the server is made again; one changed there is refreshed here', async () => {
  const s = await side();
  const o = await org(s);
  const [gone, changed] = [await newHost(env.api), await newHost(env.api)];
  for (const h of [gone, changed]) expect((await link(env, h, o.id)).status).toBe(200);
  const users = simUsers(s.sim, o.serverId);
  const goneUser = users.find((u) => u.name === gone);
  s.sim.state.users.delete(goneUser?.id ?? '');
  const changedUser = s.sim.state.users.get(users.find((u) => u.name === changed)?.id ?? '');
  if (changedUser) changedUser.disabled = true;
  expect(await reconcile(s)).toMatchObject({
    accounts: { checked: 2, recreated: 1, refreshed: 1, extra: 0 },
  });
  const remade = simUsers(s.sim, o.serverId).find((u) => u.name === gone);
  expect(remade?.id).not.toBe(goneUser?.id);
  expect((await readHost(env, gone)).vpnsrv_representation).toMatchObject({ id: remade?.id });
  expect((await readHost(env, changed)).vpnsrv_representation).toMatchObject({ disabled: true });
});

it('what the store does not know is reported once and left alone', async () => {
  const s = await side();
  const o = await org(s);
  const stranger = s.sim.state.organizations.get(o.serverId);
  s.sim.state.organizations.set('aaaaaaaaaaaaaaaaaaaaaaaa', {
    ...(stranger ?? { auth_api: false, auth_token: null, auth_secret: null, expiration: '' }),
    id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
    name: 'not-ours',
  });
  const someone = await newHost(env.api);
  expect((await link(env, someone, o.id)).status).toBe(200);
  await env.api.store.update(
    'hosts',
    { _id: someone },
    { $set: { vpn_organization: null, vpnsrv_representation: null } },
  );
  for (let run = 0; run < 2; run++)
    expect(await reconcile(s)).toMatchObject({ organizations: { extra: 1 }, accounts: { extra: 1 } });
  expect(s.sim.state.organizations.has('aaaaaaaaaaaaaaaaaaaaaaaa')).toBe(true);
  expect(simUsers(s.sim, o.serverId).some((u) => u.name === someone)).toBe(true);
  expect(
    (await alertsOf(env.api, 'vpn.organization.extra')).filter(
      (a) => a.payload.id === 'aaaaaaaaaaaaaaaaaaaaaaaa',
    ),
  ).toHaveLength(1);
  expect(
    (await alertsOf(env.api, 'vpn.account.extra')).filter((a) => a.payload.name === someone),
  ).toHaveLength(1);
});

it('an organization stored without a server id (made before the integration) is created there, its hosts get accounts', async () => {
  const s = await side();
  const id = 'cccccccccccccccccccccccc';
  await insertDoc(env.api.store, 'vpn_organizations', {
    _id: id,
    name: 'legacy',
    vpn_manager: s.manager,
    cipher_type: 'rsa',
    type: 6,
    vpnsrv_representation: { name: 'legacy', cipher_type: 'rsa' },
  });
  const host = (
    await insertHost(env.api.store, `${uniqueName('legacy')}.fleet.test`, { vpn_organization: id })
  )._id;
  expect(await reconcile(s)).toMatchObject({ organizations: { recreated: 1 }, accounts: { recreated: 1 } });
  const [made] = [...s.sim.state.organizations.values()];
  expect(made?.name).toBe('legacy');
  expect((await readHost(env, host)).vpnsrv_representation).toMatchObject({
    organization: made?.id,
    name: host,
  });
});

describe('a manager that cannot be used', () => {
  it('down: its organizations are marked unreachable (one alert), host reads go on; back up: reachable (one alert)', async () => {
    const s = await side();
    const o = await org(s);
    const host = await newHost(env.api);
    expect((await link(env, host, o.id)).status).toBe(200);
    await s.sim.close();
    for (let run = 0; run < 2; run++)
      expect(await reconcile(s)).toMatchObject({
        reachable: false,
        error: expect.stringMatching(/unreachable/),
      });
    expect(await storedOrg(o.id)).toMatchObject({ unreachable: true });
    expect(
      (await alertsOf(env.api, 'vpn.unreachable')).filter((a) => a.payload.manager_id === s.manager),
    ).toHaveLength(1);
    expect((await env.api.request.get(`/api/hosts/${host}`).set(auth('viewer'))).status).toBe(200);
    expect(
      (await env.api.request.get(`/api/vpn_organizations/${o.id}`).set(auth('viewer'))).body,
    ).toMatchObject({ unreachable: true });
    await s.sim.controls.down(false);
    expect(await reconcile(s)).toMatchObject({ reachable: true });
    expect(await storedOrg(o.id)).toMatchObject({ unreachable: false });
    expect(
      (await alertsOf(env.api, 'vpn.reachable')).filter((a) => a.payload.manager_id === s.manager),
    ).toHaveLength(1);
  });

  it('refusing the credentials: unreachable too, the error says why, the password nowhere', async () => {
    const s = await side();
    const o = await org(s);
    s.sim.controls.setPassword(ADMIN.username, 'changed-on-the-server-1');
    s.sim.controls.expireSessions();
    const report = await reconcile(s);
    expect(report).toMatchObject({
      reachable: false,
      error: expect.stringMatching(/refused the credentials/),
    });
    expect(JSON.stringify(report)).not.toContain(ADMIN.password);
    expect(await storedOrg(o.id)).toMatchObject({ unreachable: true });
  });
});

describe('the route', () => {
  it('POST /api/vpn_managers/reconcile covers every manager', async () => {
    const res = await env.api.request.post('/api/vpn_managers/reconcile').set(auth('admin'));
    expect(res.status).toBe(200);
    expect((res.body as { managers: { _id: string }[] }).managers.map((m) => m._id)).toContain(env.manager);
  });

  it('needs admin; an unknown manager is a 404', async () => {
    expectEveError(
      await env.api.request.post(`/api/vpn_managers/${env.manager}/reconcile`).set(auth('operator')),
      403,
    );
    expectEveError(
      await env.api.request.post('/api/vpn_managers/ffffffffffffffffffffffff/reconcile').set(auth('admin')),
      404,
    );
  });
});

it('runs by itself every VPN_RECONCILE_INTERVAL_S', async () => {
  const periodic = await startVpnEnv({ env: { VPN_RECONCILE_INTERVAL_S: '0.2' } });
  try {
    const res = await periodic.api.request
      .post('/api/vpn_organizations')
      .set(auth('admin'))
      .send({ name: 'p', vpn_manager: periodic.manager });
    expect(res.status).toBe(201);
    const [doc] = await periodic.api.store.find('vpn_organizations', {
      _id: (res.body as { _id: string })._id,
    });
    periodic.sim.state.organizations.delete(String((doc?.vpnsrv_representation as { id: string }).id));
    await eventually(
      () => (periodic.sim.state.organizations.size === 1 ? true : undefined),
      8000,
      'the organization made again',
    );
  } finally {
    await periodic.close();
  }
});
