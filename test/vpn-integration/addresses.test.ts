/**
 * Where the service sends a VPN manager's login: `dashboard_address` is an http(s) URL naming a
 * host, never a link-local address (cloud metadata) in any spelling, nor a private one under
 * VPN_PRIVATE_ADDRESSES=refuse. A host name is checked when it resolves: the login never leaves
 * for a refused address, whatever was stored.
 */
import { startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import { addressRange, callableUrlIssue } from '@fleet/engine';
import { loadConfig } from '../../packages/server/src/config';
import { auth, expectEveError, startTestServer, vpnManagerBody, type TestServer } from '../helpers';
import { ADMIN } from './support';

describe('address ranges', () => {
  it.each([
    ['169.254.169.254', 'link-local'],
    ['[fe80::1]', 'link-local'],
    ['[::ffff:a9fe:a9fe]', 'link-local'],
    ['[fd00:ec2::254]', 'link-local'],
    ['100.100.100.200', 'link-local'],
    ['127.0.0.1', 'private'],
    ['[::1]', 'private'],
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.10', 'private'],
    ['100.64.0.1', 'private'],
    ['[fd12::1]', 'private'],
    ['0.0.0.0', 'private'],
    ['172.32.0.1', 'public'],
    ['93.184.216.34', 'public'],
    ['[2001:db8::1]', 'public'],
    ['vpn.example.com', null],
  ])('%s is %s', (address, range) => {
    expect(addressRange(address)).toBe(range);
  });

  it.each([
    'http://2852039166/',
    'http://0xa9.0xfe.0xa9.0xfe/',
    'http://169.254.169.254./',
    'http://[::ffff:169.254.169.254]/',
    'https://[fe80::1%25eth0]/',
  ])('%s, another spelling of a link-local address, is refused', (url) => {
    expect(callableUrlIssue(url, 'allow')).toMatch(/link-local|must be an http or https URL/);
  });

  it('reads VPN_PRIVATE_ADDRESSES: allow by default, refuse, nothing else', () => {
    expect(loadConfig({}).VPN_PRIVATE_ADDRESSES).toBe('allow');
    expect(loadConfig({ VPN_PRIVATE_ADDRESSES: 'refuse' }).VPN_PRIVATE_ADDRESSES).toBe('refuse');
    expect(() => loadConfig({ VPN_PRIVATE_ADDRESSES: 'deny' })).toThrow(/VPN_PRIVATE_ADDRESSES/);
  });
});

async function post(api: TestServer, dashboard: string) {
  return api.request
    .post('/api/vpn_managers')
    .set(auth('admin'))
    .send(vpnManagerBody({ dashboard_address: dashboard, ...ADMIN }));
}

describe('by default (private addresses allowed)', () => {
  let api: TestServer;
  let sim: VpnSim;
  beforeAll(async () => {
    sim = await startVpnSim({ seed: 7, admins: [ADMIN] });
    api = await startTestServer({ env: { VPN_RECONCILE_INTERVAL_S: '0', VPN_TIMEOUT_S: '3' } });
  });
  afterAll(async () => {
    await api.close();
    await sim.close();
  });

  it.each([
    ['file:///etc/passwd', /must be an http or https URL/],
    ['gopher://vpn.fleet.test/', /must be an http or https URL/],
    ['vpn.fleet.test', /must be an http or https URL/],
    ['http://admin:pw@vpn.fleet.test/', /must not carry credentials/],
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a link-local address/],
    ['http://2852039166/', /169\.254\.169\.254 is a link-local address/],
    ['http://[fe80::1]/', /link-local/],
  ])('POST with dashboard_address %s answers 422 naming it, and stores nothing', async (address, why) => {
    const before = await api.store.count('vpn_managers', {});
    const res = await post(api, address);
    const body = expectEveError(res, 422);
    expect(JSON.stringify(body._issues)).toMatch(/dashboard_address/);
    expect(String((body._issues as Record<string, unknown>).dashboard_address)).toMatch(why);
    expect(await api.store.count('vpn_managers', {})).toBe(before);
  });

  it('POST with a dashboard_address of 2,100 characters answers 422 naming it', async () => {
    const res = await post(api, `https://vpn.fleet.test/${'a'.repeat(2100)}`);
    expect(JSON.stringify(expectEveError(res, 422)._issues)).toMatch(/dashboard_address/);
  });

  it('a loopback manager is accepted; PATCH to a metadata address is refused and the address kept', async () => {
    const created = await post(api, sim.url);
    expect(created.status).toBe(201);
    const id = (created.body as { _id: string })._id;
    const patched = await api.request
      .patch(`/api/vpn_managers/${id}`)
      .set(auth('admin'))
      .send({ dashboard_address: 'http://[::ffff:169.254.169.254]/' });
    expect(JSON.stringify(expectEveError(patched, 422)._issues)).toMatch(/dashboard_address.*link-local/);
    const read = await api.request.get(`/api/vpn_managers/${id}`).set(auth('admin'));
    expect((read.body as { dashboard_address: string }).dashboard_address).toBe(sim.url);
    const report = await api.request.post(`/api/vpn_managers/${id}/reconcile`).set(auth('admin'));
    expect(report.body).toMatchObject({ managers: [{ _id: id, reachable: true }] });
  });
});

describe('VPN_PRIVATE_ADDRESSES=refuse', () => {
  let api: TestServer;
  let sim: VpnSim;
  beforeAll(async () => {
    sim = await startVpnSim({ seed: 8, admins: [ADMIN] });
    api = await startTestServer({
      env: { VPN_RECONCILE_INTERVAL_S: '0', VPN_TIMEOUT_S: '3', VPN_PRIVATE_ADDRESSES: 'refuse' },
    });
  });
  afterAll(async () => {
    await api.close();
    await sim.close();
  });

  it.each(['http://10.0.0.1/', 'http://127.0.0.1:9/', 'https://[::1]/', 'http://192.168.1.1/'])(
    'POST with dashboard_address %s answers 422: a private address',
    async (address) => {
      const res = await post(api, address);
      expect(JSON.stringify(expectEveError(res, 422)._issues)).toMatch(/dashboard_address.*private address/);
    },
  );

  it('a host name that resolves to a private address is stored, and never called', async () => {
    // `localhost` passes the check of the written address; it resolves to loopback when called.
    const created = await post(api, sim.url.replace('127.0.0.1', 'localhost'));
    expect(created.status).toBe(201);
    const id = (created.body as { _id: string })._id;
    const before = sim.controls.stats.requests;
    const report = await api.request.post(`/api/vpn_managers/${id}/reconcile`).set(auth('admin'));
    expect(report.status).toBe(200);
    const [manager] = (report.body as { managers: { reachable: boolean; error?: string }[] }).managers;
    expect(manager?.reachable).toBe(false);
    expect(manager?.error).toMatch(/localhost resolves to (127\.0\.0\.1|::1), which is a private address/);
    expect(sim.controls.stats.requests).toBe(before);
  });
});
