/**
 * Readiness (`GET /api/health/ready`): no token; each part with its state and age. With the
 * simulated master and a VPN server up, every part is ok once the event stream is open; with the
 * master down, the answer is `degraded` (200: the API still serves), the master `down` and the
 * next sync `failed`; with the VPN server gone, its manager is `down`. The answer never carries an
 * address, a password, a token or an error text. `/api/health` stays the cheap liveness check.
 */
import { startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import { auth, vpnManagerBody } from '../helpers';
import { until } from '../helpers/until';
import { startMasterEnv, syncNow, type MasterEnv } from './master-env';

const VPN_ADMIN = { username: 'fleet-api', password: 'vpn-admin-pw-readiness-51c2' };

let env: MasterEnv;
let vpn: VpnSim;
let managerId: string;

interface Part {
  state: string;
  age_s?: number;
  [k: string]: unknown;
}
interface Ready {
  status: string;
  parts: {
    store: Part;
    master: Part;
    sync: Part;
    events: Part;
    vpn_managers: Record<string, Part>;
    duties: Record<string, Part>;
  };
}

async function ready(): Promise<{ status: number; body: Ready; text: string }> {
  const res = await env.api.request.get('/api/health/ready');
  return { status: res.status, body: res.body as Ready, text: res.text };
}

/** Every string that must never appear in a readiness answer. */
function secrets(): string[] {
  const salt = new URL(env.sim.url);
  const pritunl = new URL(vpn.url);
  return [
    env.sim.url,
    salt.host,
    `:${salt.port}`,
    vpn.url,
    pritunl.host,
    `:${pritunl.port}`,
    env.sim.credentials.password,
    VPN_ADMIN.password,
    'test-admin-token',
  ];
}

beforeAll(async () => {
  vpn = await startVpnSim({ seed: 5, admins: [VPN_ADMIN] });
  env = await startMasterEnv({ env: { VPN_RECONCILE_INTERVAL_S: '0' } });
  const res = await env.api.request
    .post('/api/vpn_managers')
    .set(auth('admin'))
    .send(vpnManagerBody({ dashboard_address: vpn.url, ...VPN_ADMIN }));
  expect(res.status).toBe(201);
  managerId = (res.body as { _id: string })._id;
}, 60_000);

afterAll(async () => {
  await env?.close();
  await vpn?.close();
});

it('answers without a token: every part ok once the event stream is open', async () => {
  await until(async () => (await ready()).body.parts.events.state === 'ok', 'the event stream open');
  const r = await ready();
  expect(r.status).toBe(200);
  expect(r.body.status).toBe('ok');
  expect(r.body.parts.store).toMatchObject({ state: 'ok', kind: 'sqlite', writable: true });
  expect(r.body.parts.master).toMatchObject({ state: 'ok', age_s: expect.any(Number) });
  expect(r.body.parts.sync).toMatchObject({ state: 'ok', age_s: expect.any(Number) });
  expect(r.body.parts.vpn_managers[managerId]).toMatchObject({ state: 'ok' });
  expect(r.body.parts.duties['fleet-sync']).toMatchObject({ state: 'ok', running: false });
  expect(r.body.parts.duties['salt-events']).toMatchObject({ state: 'never' });
  for (const s of secrets()) expect(r.text).not.toContain(s);
});

it('counts the last event: its age shows once one arrives', async () => {
  await env.api.request
    .post(`/api/hosts/${env.up[0] ?? ''}`)
    .set(auth('operator'))
    .send({
      fun: 'test.ping',
      exec_client: 'local',
    });
  await until(
    async () => typeof (await ready()).body.parts.events['last_event_age_s'] === 'number',
    'an event counted',
  );
});

it('with the master down: degraded (still 200), the master down, the next sync failed', async () => {
  await env.sim.controls.masterDown(true);
  try {
    await until(async () => (await ready()).body.parts.master.state === 'down', 'the master seen down');
    const report = await syncNow(env.api);
    expect(report['masterReachable']).toBe(false);
    await until(async () => (await ready()).body.parts.sync.state === 'failed', 'the sync seen failed');
    const r = await ready();
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('degraded');
    expect(r.body.parts.store.state).toBe('ok');
    expect(r.body.parts.duties['fleet-sync']?.state).toBe('failed');
    for (const s of secrets()) expect(r.text).not.toContain(s);
    // Liveness is unmoved: the store answers.
    expect((await env.api.request.get('/api/health')).status).toBe(200);
  } finally {
    await env.sim.controls.masterDown(false);
  }
  await syncNow(env.api);
  await until(async () => (await ready()).body.status === 'ok', 'readiness ok again');
});

it('a VPN manager whose server is gone is down, by its id only', async () => {
  await vpn.close();
  await until(
    async () => (await ready()).body.parts.vpn_managers[managerId]?.state === 'down',
    'the VPN manager seen down',
  );
  const r = await ready();
  expect(r.body.status).toBe('degraded');
  for (const s of secrets()) expect(r.text).not.toContain(s);
});
