/**
 * docs/operations.md holds to its word. Its `external_auth` block, read from the page, is exactly
 * the permissions of the simulated master's user: a sync, an execution of a listed function and
 * the event stream work with them, and a function left out is refused by the master. Its `curl`
 * line registering a Pritunl manager, run by bash as written (the token, the password and the
 * address filled in), creates a manager the service reaches.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSaltSim, type SaltSim, type SimUser } from '@fleet/salt-sim';
import { startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import { auth, startTestServer, TOKENS, type TestServer } from '../helpers';
import { until } from '../helpers/until';
import { saltEnv, syncNow } from './master-env';

const GUIDE = readFileSync(join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');

type Perm = string | Record<string, string[]>;

/** The guide's `external_auth` entries of the `fleet-api` user, as Salt reads that YAML. */
function guidePerms(): Perm[] {
  const start = GUIDE.indexOf('external_auth:\n  pam:\n    fleet-api:\n');
  if (start < 0) throw new Error('docs/operations.md no longer has the external_auth block');
  const block = GUIDE.slice(start, GUIDE.indexOf('```', start)).split('\n').slice(3);
  const perms: Perm[] = [];
  let list: string[] | undefined;
  for (const line of block) {
    const dict = /^ {6}- '(@\w+)':$/.exec(line);
    const item = /^ {10}- (\S+)$/.exec(line);
    const plain = /^ {6}- (\S+)$/.exec(line);
    if (dict?.[1]) perms.push({ [dict[1]]: (list = []) });
    else if (item?.[1] && list) list.push(item[1]);
    else if (plain?.[1]) {
      perms.push(plain[1]);
      list = undefined;
    } else if (line.trim() !== '') throw new Error(`unexpected line in the external_auth block: ${line}`);
  }
  return perms;
}

/** The guide's `curl` line that registers a VPN manager. */
function guideCurl(): string {
  const at = GUIDE.indexOf('curl -X POST -H "Authorization: Bearer $ADMIN_TOKEN"');
  if (at < 0) throw new Error('docs/operations.md no longer has the VPN manager curl line');
  return GUIDE.slice(at, GUIDE.indexOf('\n```', at));
}

describe('the external_auth permissions of the guide', () => {
  const user: SimUser = { username: 'fleet-api', password: 'guide-salt-pw-2b7e', perms: guidePerms() };
  let sim: SaltSim;
  let api: TestServer;

  beforeAll(async () => {
    sim = await startSaltSim({ hosts: 6, seed: 4, users: [user] });
    api = await startTestServer({ env: saltEnv(sim) });
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await sim?.close();
  });

  it('are the ones the guide lists', () => {
    expect(user.perms).toContainEqual({ '@wheel': ['key.finger', 'key.finger_master'] });
    expect(user.perms).toContain('status.all_status');
  });

  it('let the sync, an execution of a listed function and the event stream work', async () => {
    const report = await syncNow(api);
    expect(report).toMatchObject({ masterReachable: true, hostsSeen: sim.fleet.minions.size });
    expect(report['failed']).toBeUndefined();
    const up = [...sim.fleet.minions.values()].find((m) => m.key === 'accepted' && m.up)?.id ?? '';
    const run = await api.request
      .post(`/api/hosts/${up}`)
      .set(auth('operator'))
      .send({ fun: 'test.ping', exec_client: 'local' });
    expect(run.status).toBe(200);
    await until(async () => {
      const r = await api.request.get('/api/health/ready');
      return (r.body as { parts: { events: { state: string } } }).parts.events.state === 'ok';
    }, 'the event stream open');
  });

  it('leave out what is not listed: the master refuses it', async () => {
    const up = [...sim.fleet.minions.values()].find((m) => m.key === 'accepted' && m.up)?.id ?? '';
    const run = await api.request
      .post(`/api/hosts/${up}`)
      .set(auth('operator'))
      .send({ fun: 'pkg.list_pkgs', exec_client: 'local' });
    // Salt 2018.3.2 (the simulator's default) answers a refused publication with its JSON 500.
    expect(run.status).toBe(502);
    expect(JSON.stringify(run.body)).toContain('salt-api answered 500');
  });
});

describe('the curl line registering a Pritunl manager', () => {
  const admin = { username: 'fleet-api', password: 'guide-vpn-pw-9c1d' };
  let vpn: VpnSim;
  let api: TestServer;

  beforeAll(async () => {
    vpn = await startVpnSim({ seed: 3, admins: [admin] });
    api = await startTestServer({ env: { VPN_RECONCILE_INTERVAL_S: '0' } });
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await vpn?.close();
  });

  it('creates the manager, which the service reaches', async () => {
    const line = guideCurl()
      .replace('https://vpn-eu.example.net', vpn.url)
      .replace('http://127.0.0.1:5000', api.url);
    // Not execFileSync: the server answering curl runs in this process.
    const { stdout: out } = await promisify(execFile)('bash', ['-c', `${line} -sS`], {
      env: { ...process.env, ADMIN_TOKEN: TOKENS.admin, PRITUNL_PASSWORD: admin.password },
      encoding: 'utf8',
    });
    const created = JSON.parse(out) as { _id: string; _status: string };
    expect(created._status).toBe('OK');
    const item = await api.request.get(`/api/vpn_managers/${created._id}`).set(auth('admin'));
    expect(item.body).toMatchObject({ name: 'vpn-eu', dashboard_address: vpn.url, password: '********' });
    const reconciled = await api.request
      .post(`/api/vpn_managers/${created._id}/reconcile`)
      .set(auth('admin'));
    expect(reconciled.status).toBe(200);
  });
});
