/**
 * Metrics on METRICS_PORT: a scrape parsed by a Prometheus text parser holds requests by route
 * template (never an item's id), method and status with their latency; store operations' latency;
 * the sync runs, their duration and the hosts seen; salt events by tag family; salt-api and VPN
 * server calls by function and outcome; rate-limit refusals; and the default process metrics. The
 * API's own port does not serve them.
 */
import { startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import { auth, vpnManagerBody } from '../helpers';
import { samples, scrape, total, type Scrape } from '../helpers/metrics';
import { until } from '../helpers/until';
import { startMasterEnv, syncNow, type MasterEnv } from './master-env';

const VPN_ADMIN = { username: 'fleet-api', password: 'vpn-admin-pw-metrics-8d0e' };

let env: MasterEnv;
let vpn: VpnSim;
let port: number;

beforeAll(async () => {
  vpn = await startVpnSim({ seed: 6, admins: [VPN_ADMIN] });
  env = await startMasterEnv({
    env: { METRICS_PORT: '0', RATE_LIMIT_EXEC_PER_MIN: '1', VPN_RECONCILE_INTERVAL_S: '0' },
  });
  port = env.api.server.metricsPort ?? 0;
}, 60_000);

afterAll(async () => {
  await env?.close();
  await vpn?.close();
});

const metrics = (): Promise<Scrape> => scrape(port);

it('listens on its own port, in the Prometheus text format', async () => {
  expect(port).toBeGreaterThan(0);
  expect(port).not.toBe(env.api.server.port);
  const s = await metrics();
  expect(s.status).toBe(200);
  expect(s.contentType).toContain('text/plain; version=0.0.4');
  expect((await env.api.request.get('/metrics')).status).not.toBe(200);
  expect((await scrape(port, '/other')).status).toBe(404);
});

it('counts requests by route template, method and status, with a latency histogram', async () => {
  const id = env.up[0] ?? '';
  await env.api.request.get(`/api/hosts/${id}`).set(auth('viewer')).expect(200);
  await env.api.request.get('/api/hosts/no-such-host').set(auth('viewer')).expect(404);
  const s = await metrics();
  const item = samples(s, 'fleet_http_requests_total', { method: 'GET', status: '200' }).map(
    (m) => m.labels?.['route'],
  );
  expect(item).toContain('/api/hosts/:id');
  expect(
    total(s, 'fleet_http_requests_total', { route: '/api/hosts/:id', status: '404' }),
  ).toBeGreaterThanOrEqual(1);
  expect(s.text).not.toContain(id);
  expect(s.families.get('fleet_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
  expect(total(s, 'fleet_http_request_duration_seconds', { route: '/api/hosts/:id' })).toBeGreaterThanOrEqual(
    2,
  );
});

it('times store operations by operation and collection', async () => {
  const s = await metrics();
  expect(
    total(s, 'fleet_store_operation_duration_seconds', { op: 'find', collection: 'hosts' }),
  ).toBeGreaterThan(0);
  expect(total(s, 'fleet_store_operation_duration_seconds', { outcome: 'ok' })).toBeGreaterThan(0);
});

it('counts sync runs, their duration and the hosts seen, and salt-api calls by function', async () => {
  await syncNow(env.api);
  const s = await metrics();
  expect(total(s, 'fleet_sync_runs_total', { result: 'ok' })).toBeGreaterThanOrEqual(2);
  expect(total(s, 'fleet_sync_duration_seconds')).toBeGreaterThanOrEqual(2);
  expect(total(s, 'fleet_sync_hosts_seen')).toBe(env.sim.fleet.minions.size);
  expect(
    total(s, 'fleet_salt_api_calls_total', { function: 'wheel:key.finger', outcome: 'ok' }),
  ).toBeGreaterThan(0);
  expect(total(s, 'fleet_salt_api_call_duration_seconds')).toBeGreaterThan(0);
});

it('counts salt events by tag family, executions and their refusal by the rate limit', async () => {
  const body = { fun: 'test.ping', exec_client: 'local' };
  const host = env.up[0] ?? '';
  await env.api.request.post(`/api/hosts/${host}`).set(auth('operator')).send(body).expect(200);
  await env.api.request.post(`/api/hosts/${host}`).set(auth('operator')).send(body).expect(429);
  await until(
    async () => total(await metrics(), 'fleet_salt_events_total', { family: 'salt/job' }) > 0,
    'a job event counted',
  );
  const s = await metrics();
  expect(total(s, 'fleet_rate_limit_refusals_total', { kind: 'exec' })).toBe(1);
  expect(total(s, 'fleet_salt_api_calls_total', { function: 'local:test.ping', outcome: 'ok' })).toBe(1);
});

it('counts VPN server calls by call and outcome, their ids cut', async () => {
  const res = await env.api.request
    .post('/api/vpn_managers')
    .set(auth('admin'))
    .send(vpnManagerBody({ dashboard_address: vpn.url, ...VPN_ADMIN }));
  expect(res.status).toBe(201);
  await env.api.request.post('/api/vpn_managers/reconcile').set(auth('admin'));
  await until(
    async () => total(await metrics(), 'fleet_vpn_calls_total', { outcome: 'ok' }) > 0,
    'a VPN call counted',
  );
  const s = await metrics();
  const calls = samples(s, 'fleet_vpn_calls_total').map((m) => m.labels?.['function'] ?? '');
  expect(calls.some((c) => /^(GET|POST|PUT|DELETE) \//.test(c))).toBe(true);
  expect(calls.every((c) => !/[0-9a-f]{24}/.test(c))).toBe(true);
  expect(s.text).not.toContain(vpn.url);
});

it('carries the default process metrics', async () => {
  const s = await metrics();
  for (const name of [
    'process_cpu_user_seconds_total',
    'process_resident_memory_bytes',
    'nodejs_eventloop_lag_seconds',
  ])
    expect(s.families.has(name)).toBe(true);
});
