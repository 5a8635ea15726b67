/**
 * One client per manager: made on first use, reused (one login for many actions: the server caps
 * sessions and logins per administrator), made again when the manager changes (a new password is
 * used at once; a wrong one is a 502), forgotten when the manager is deleted, logged out when the
 * server stops.
 */
import { auth, expectEveError } from '../helpers';
import { ADMIN, createManager, createOrg, link, newHost, startVpnEnv, type VpnEnv } from './support';

let env: VpnEnv;
beforeAll(async () => {
  env = await startVpnEnv();
});
afterAll(() => env.close());

const logins = () => env.proxy.calls.filter((c) => c === 'POST /auth/session').length;

it('many actions, one login', async () => {
  const before = logins();
  const org = await createOrg(env);
  for (let i = 0; i < 5; i++) expect((await link(env, await newHost(env.api), org.id)).status).toBe(200);
  expect(
    (await env.api.request.post(`/api/vpn_managers/${env.manager}/reconcile`).set(auth('admin'))).status,
  ).toBe(200);
  expect(logins() - before).toBeLessThanOrEqual(1);
});

it('a changed manager gets a new client: the new password at once, a wrong one a 502', async () => {
  const manager = await createManager(env.api, env.proxy.url);
  const first = await env.api.request
    .post('/api/vpn_organizations')
    .set(auth('admin'))
    .send({ name: 'first', vpn_manager: manager });
  expect(first.status).toBe(201);
  env.sim.controls.setPassword(ADMIN.username, 'rotated-password-77');
  expect(
    (
      await env.api.request
        .patch(`/api/vpn_managers/${manager}`)
        .set(auth('admin'))
        .send({ password: 'rotated-password-77' })
    ).status,
  ).toBe(200);
  const before = logins();
  expect(
    (
      await env.api.request
        .post('/api/vpn_organizations')
        .set(auth('admin'))
        .send({ name: 'second', vpn_manager: manager })
    ).status,
  ).toBe(201);
  expect(logins() - before).toBe(1);
  expect(
    (
      await env.api.request
        .patch(`/api/vpn_managers/${manager}`)
        .set(auth('admin'))
        .send({ password: 'not-it-at-all-99' })
    ).status,
  ).toBe(200);
  const refused = await env.api.request
    .post('/api/vpn_organizations')
    .set(auth('admin'))
    .send({ name: 'third', vpn_manager: manager });
  expect(expectEveError(refused, 502)._error.message).toMatch(/refused the credentials of user "fleet-api"/);
  env.sim.controls.setPassword(ADMIN.username, ADMIN.password);
});

it('the server logs every client out when it stops', async () => {
  const own = await startVpnEnv();
  await createOrg(own);
  const sessions = () => [...own.sim.state.admins.values()].reduce((n, a) => n + a.sessions.length, 0);
  expect(sessions()).toBe(1);
  await own.api.close();
  expect(own.proxy.calls).toContain('DELETE /auth/session');
  expect(sessions()).toBe(0);
  await own.close();
});
