/**
 * Secrets never leave, whatever happens: every VPN path and fault is driven over HTTP (create,
 * embed, link, move, unlink, profile, reconcile; down, reset, slow, 500, refused credentials,
 * expired sessions), every answer is kept, and neither the answers nor the logs (debug level) hold
 * the manager's password, a session cookie, a CSRF token, an OTP secret or an organization token.
 */
import type { Response } from 'supertest';
import { auth } from '../helpers';
import { ADMIN, createOrg, link, newHost, simSecrets, startVpnEnv, type VpnEnv } from './support';

let env: VpnEnv;
const answers: string[] = [];
/** Every secret the simulator held at some point (sessions expire, passwords change). */
const seen = new Set<string>([ADMIN.password]);
beforeAll(async () => {
  env = await startVpnEnv({ env: { VPN_TIMEOUT_S: '0.5' }, sim: { servers: [{ name: 'gw1' }] } });
});
afterAll(() => env.close());

/** Keeps the answer's text (a download's bytes as text). */
function keep(res: Response): Response {
  for (const s of simSecrets(env.sim)) seen.add(s);
  answers.push(
    `${res.status} ${JSON.stringify(res.headers)} ${res.text ?? ''} ${Buffer.isBuffer(res.body) ? res.body.toString('latin1') : JSON.stringify(res.body)}`,
  );
  return res;
}

const req = () => env.api.request;

async function everyPath(): Promise<void> {
  const api = await createOrg(env, {
    vpnsrv_representation: { name: 'api', cipher_type: 'rsa', auth_api: true },
  });
  const plain = await createOrg(env);
  env.sim.controls.attach([...env.sim.state.servers.keys()][0] ?? '', api.serverId);
  const host = await newHost(env.api);
  keep(await link(env, host, api.id));
  keep(await link(env, host, plain.id));
  keep(await link(env, host, api.id));
  for (const path of [
    `/api/hosts/${host}`,
    `/api/hosts?where={"_id":"${host}"}`,
    `/api/hosts?projection={"vpnsrv_representation":1}`,
    `/api/hosts?projection={"vpnsrv_representation.otp_secret":1}`,
  ]) {
    keep(await req().get(path).set(auth('viewer')));
  }
  for (const path of [
    `/api/vpn_organizations/${api.id}?embedded={"vpn_manager":1}`,
    '/api/vpn_organizations?embedded={"vpn_manager":1}',
    `/api/vpn_managers/${env.manager}`,
    '/api/vpn_managers?projection={"password":1}',
  ]) {
    keep(await req().get(path).set(auth('viewer')));
  }
  keep(await req().get(`/api/hosts/${host}/vpn_profile`).set(auth('operator')));
  keep(await req().post('/api/vpn_managers/reconcile').set(auth('admin')));
  keep(await req().get('/api/alerts?max_results=100').set(auth('viewer')));
}

async function everyFault(): Promise<void> {
  const host = await newHost(env.api);
  const org = await createOrg(env);
  for (const mode of ['refuse', 'reset'] as const) {
    await env.sim.controls.down(mode);
    keep(await link(env, host, org.id));
    keep(
      await req()
        .post('/api/vpn_organizations')
        .set(auth('admin'))
        .send({ name: 'down', vpn_manager: env.manager }),
    );
    keep(await req().post('/api/vpn_managers/reconcile').set(auth('admin')));
    await env.sim.controls.down(false);
  }
  env.sim.controls.slow(700);
  keep(await link(env, host, org.id));
  env.sim.controls.slow(0);
  env.proxy.fail({ method: 'POST', path: /^\/user\//, status: 500, when: 'after' });
  keep(await link(env, host, org.id));
  env.sim.controls.expireSessions('proxy');
  keep(await link(env, host, org.id));
  env.sim.controls.setPassword(ADMIN.username, 'a-new-password-on-the-server');
  env.sim.controls.expireSessions();
  keep(await link(env, host, null));
  keep(
    await req()
      .post('/api/vpn_organizations')
      .set(auth('admin'))
      .send({ name: 'refused', vpn_manager: env.manager }),
  );
  keep(await req().post('/api/vpn_managers/reconcile').set(auth('admin')));
  keep(await req().get('/api/alerts?max_results=100').set(auth('viewer')));
}

it('no answer and no log line holds a secret, on every path and every fault', async () => {
  await everyPath();
  await everyFault();
  // Every fault above answered an error, and the logs recorded the calls and the failures.
  expect(answers.filter((a) => /^5\d\d /.test(a)).length).toBeGreaterThanOrEqual(8);
  const logs = env.api.logs();
  expect(logs).toMatch(/VPN server call failed/);
  expect(logs).toMatch(/VPN server login refused/);
  for (const s of simSecrets(env.sim)) seen.add(s);
  const secrets = [...seen];
  expect(secrets.length).toBeGreaterThan(10);
  for (const secret of secrets) {
    expect(answers.filter((a) => a.includes(secret))).toEqual([]);
    expect(logs.includes(secret)).toBe(false);
  }
});
