/**
 * Host accounts against vpn-sim over real HTTP: PATCH /api/hosts/{id} with vpn_organization
 * creates the host's user in that organization and stores its record, `null` deletes it, another
 * organization moves it; the OTP secret never leaves (responses, projections, where, sort, logs);
 * and each failure point leaves host and server as they were.
 */
import { auth, expectEnvelope, expectEveError } from '../helpers';
import {
  createOrg,
  eventually,
  link,
  newHost,
  readHost,
  simSecrets,
  simUsers,
  startVpnEnv,
  type VpnEnv,
} from './support';

let env: VpnEnv;
let orgA: { id: string; serverId: string };
let orgB: { id: string; serverId: string };
beforeAll(async () => {
  env = await startVpnEnv({ env: { VPN_TIMEOUT_S: '1' } });
  orgA = await createOrg(env);
  orgB = await createOrg(env);
});
afterAll(() => env.close());

const MASK = '********';
const rep = (host: Record<string, unknown>) => host.vpnsrv_representation as Record<string, unknown> | null;

describe('link, unlink, move', () => {
  it('PATCH vpn_organization creates the host user in that organization and stores its record', async () => {
    const host = await newHost(env.api);
    const res = await link(env, host, orgA.id);
    expect(res.status).toBe(200);
    const [user, ...others] = simUsers(env.sim, orgA.serverId).filter((u) => u.name === host);
    expect(others).toEqual([]);
    const stored = rep(await readHost(env, host));
    expect(stored).toEqual({
      id: user?.id,
      organization: orgA.serverId,
      organization_name: expect.any(String),
      name: host,
      type: 'client',
      auth_type: 'local',
      otp_secret: MASK,
      yubico_id: null,
      client_to_client: false,
      pin: false,
      dns_suffix: null,
      disabled: false,
      mac_addresses: null,
      email: '',
      bypass_secondary: false,
      groups: [],
      port_forwarding: [],
      dns_servers: null,
    });
    expect(res.text).not.toContain(String(user?.otp_secret));
  });

  it('null deletes the user on the server and the record here', async () => {
    const host = await newHost(env.api);
    expect((await link(env, host, orgA.id)).status).toBe(200);
    expect(simUsers(env.sim, orgA.serverId).some((u) => u.name === host)).toBe(true);
    expect((await link(env, host, null)).status).toBe(200);
    expect(simUsers(env.sim, orgA.serverId).some((u) => u.name === host)).toBe(false);
    expect(await readHost(env, host)).toMatchObject({ vpn_organization: null, vpnsrv_representation: null });
  });

  it('another organization moves it: created in the new, deleted in the old', async () => {
    const host = await newHost(env.api);
    expect((await link(env, host, orgA.id)).status).toBe(200);
    expect((await link(env, host, orgB.id)).status).toBe(200);
    expect(simUsers(env.sim, orgA.serverId).some((u) => u.name === host)).toBe(false);
    const [moved] = simUsers(env.sim, orgB.serverId).filter((u) => u.name === host);
    expect(await readHost(env, host)).toMatchObject({
      vpn_organization: orgB.id,
      vpnsrv_representation: { id: moved?.id, organization: orgB.serverId },
    });
  });

  it('the same organization again changes nothing and calls nothing', async () => {
    const host = await newHost(env.api);
    expect((await link(env, host, orgA.id)).status).toBe(200);
    const calls = env.proxy.calls.length;
    expect((await link(env, host, orgA.id)).status).toBe(200);
    expect(env.proxy.calls.length).toBe(calls);
    expect(simUsers(env.sim, orgA.serverId).filter((u) => u.name === host)).toHaveLength(1);
  });

  it('an unknown organization is a 422 naming the field, with no call', async () => {
    const host = await newHost(env.api);
    const calls = env.proxy.calls.length;
    expectEveError(await link(env, host, 'ffffffffffffffffffffffff'), 422, { issues: ['vpn_organization'] });
    expect(env.proxy.calls.length).toBe(calls);
  });

  it('needs admin (operator: 403)', async () => {
    const host = await newHost(env.api);
    expectEveError(
      await env.api.request
        .patch(`/api/hosts/${host}`)
        .set(auth('operator'))
        .send({ vpn_organization: orgA.id }),
      403,
    );
  });
});

describe('the OTP secret never leaves', () => {
  let host: string;
  let otp: string;
  beforeAll(async () => {
    host = await newHost(env.api);
    expect((await link(env, host, orgA.id)).status).toBe(200);
    otp = simUsers(env.sim, orgA.serverId).find((u) => u.name === host)?.otp_secret ?? '';
    expect(otp).toMatch(/^[A-Z2-7]{16}$/);
  });

  it('is stored sealed', async () => {
    const [doc] = await env.api.store.find('hosts', { _id: host });
    expect((doc?.vpnsrv_representation as Record<string, string>).otp_secret).toMatch(/^enc:v1:/);
  });

  it('is masked in the item, the list and every projection', async () => {
    const item = await env.api.request.get(`/api/hosts/${host}`).set(auth('viewer'));
    expect(rep(item.body as Record<string, unknown>)?.otp_secret).toBe(MASK);
    expect(item.text).not.toContain(otp);
    for (const projection of [
      '{"vpnsrv_representation": 1}',
      '{"vpnsrv_representation.otp_secret": 1}',
      '{"vpnsrv_representation.name": 0}',
      '{"grain": 0}',
    ]) {
      const list = await env.api.request
        .get('/api/hosts')
        .query({ where: JSON.stringify({ _id: host }), projection })
        .set(auth('viewer'));
      expect(
        expectEnvelope(list, { page: 1, maxResults: 25, total: 1 })._items[0]?.vpnsrv_representation,
      ).toMatchObject({ otp_secret: MASK });
      expect(list.text).not.toContain(otp);
    }
  });

  it.each([
    ['equality', { 'vpnsrv_representation.otp_secret': 'x' }],
    ['$regex', { 'vpnsrv_representation.otp_secret': { $regex: '^A' } }],
    ['$exists', { 'vpnsrv_representation.otp_secret': { $exists: true } }],
    ['a sub-path', { 'vpnsrv_representation.otp_secret.length': 16 }],
    ['inside $or', { $or: [{ _id: 'x' }, { 'vpnsrv_representation.otp_secret': 'x' }] }],
  ])('a where on it (%s) is a 400', async (_name, where) => {
    const res = await env.api.request
      .get('/api/hosts')
      .query({ where: JSON.stringify(where) })
      .set(auth('viewer'));
    expect(expectEveError(res, 400)._error.message).toMatch(/secret/);
  });

  it('a sort on it is a 400', async () => {
    expectEveError(
      await env.api.request
        .get('/api/hosts')
        .query({ sort: 'vpnsrv_representation.otp_secret' })
        .set(auth('viewer')),
      400,
    );
    expectEveError(
      await env.api.request
        .get('/api/hosts')
        .query({ sort: '-vpnsrv_representation.otp_secret' })
        .set(auth('viewer')),
      400,
    );
  });

  it('never reaches the logs, nor any secret of the server', () => {
    const logs = env.api.logs();
    expect(logs).toContain('VPN account created');
    for (const secret of simSecrets(env.sim)) expect(logs).not.toContain(secret);
  });
});

describe('failures leave host and server as they were', () => {
  async function expectUnchanged(
    host: string,
    org: { id: string; serverId: string } | null,
    users: number,
  ): Promise<void> {
    expect((await readHost(env, host)).vpn_organization).toBe(org?.id ?? null);
    if (org !== null)
      expect(simUsers(env.sim, org.serverId).filter((u) => u.name === host)).toHaveLength(users);
  }

  it('server down on a link: 503, nothing anywhere', async () => {
    const host = await newHost(env.api);
    await env.sim.controls.down('refuse');
    try {
      expect(expectEveError(await link(env, host, orgA.id), 503)._error.message).toMatch(/unreachable/);
    } finally {
      await env.sim.controls.down(false);
    }
    await expectUnchanged(host, null, 0);
    expect(simUsers(env.sim, orgA.serverId).some((u) => u.name === host)).toBe(false);
  });

  it('server error on the create: 502, nothing anywhere', async () => {
    const host = await newHost(env.api);
    env.proxy.fail({ method: 'POST', path: /^\/user\//, status: 500, when: 'before' });
    expectEveError(await link(env, host, orgA.id), 502);
    await expectUnchanged(host, null, 0);
    expect(simUsers(env.sim, orgA.serverId).some((u) => u.name === host)).toBe(false);
  });

  it('server error after the create (done, answered 500): 502, and the user it made is deleted', async () => {
    const host = await newHost(env.api);
    env.proxy.fail({ method: 'POST', path: /^\/user\//, status: 500, when: 'after' });
    expectEveError(await link(env, host, orgA.id), 502);
    await expectUnchanged(host, null, 0);
    expect(simUsers(env.sim, orgA.serverId).some((u) => u.name === host)).toBe(false);
  });

  it('a move whose delete in the old organization fails: 502, the new user deleted again, the host still in the old', async () => {
    const host = await newHost(env.api);
    expect((await link(env, host, orgA.id)).status).toBe(200);
    const before = await readHost(env, host);
    env.proxy.fail({
      method: 'DELETE',
      path: new RegExp(`^/user/${orgA.serverId}/`),
      status: 500,
      when: 'before',
    });
    expectEveError(await link(env, host, orgB.id), 502);
    expect(await readHost(env, host)).toMatchObject({
      vpn_organization: orgA.id,
      vpnsrv_representation: rep(before),
    });
    await expectUnchanged(host, orgA, 1);
    expect(simUsers(env.sim, orgB.serverId).some((u) => u.name === host)).toBe(false);
  });

  it('an unlink with the server down: 503, the host keeps its account', async () => {
    const host = await newHost(env.api);
    expect((await link(env, host, orgA.id)).status).toBe(200);
    await env.sim.controls.down('reset');
    try {
      expectEveError(await link(env, host, null), 503);
    } finally {
      await env.sim.controls.down(false);
    }
    await expectUnchanged(host, orgA, 1);
  });

  it('a slow server: 504, nothing stored', async () => {
    const host = await newHost(env.api);
    env.sim.controls.slow(1500);
    try {
      expect(expectEveError(await link(env, host, orgA.id), 504)._error.message).toMatch(
        /did not answer within 1000 ms/,
      );
    } finally {
      env.sim.controls.slow(0);
    }
    await expectUnchanged(host, null, 0);
  });

  it('the store refuses the write after the account was made (If-Match, another writer first): 412, the account deleted again', async () => {
    const host = await newHost(env.api);
    const etag = String((await readHost(env, host))._etag);
    const calls = env.proxy.calls.length;
    env.sim.controls.slow(200);
    try {
      const linking = env.api.request
        .patch(`/api/hosts/${host}`)
        .set(auth('admin'))
        .set('If-Match', `"${etag}"`)
        .send({ vpn_organization: orgA.id })
        .then((r) => r);
      // Another instance changes the host while the account is being made on the server. (Within
      // one process the writes of one item run in turn, so this race is only ever across
      // instances: the other instance's write is what this one's store then holds.)
      await eventually(
        () => (env.proxy.calls.slice(calls).some((c) => c.startsWith('GET /user/')) ? true : undefined),
        5000,
        'the account lookup',
      );
      const changed = await env.api.store.update(
        'hosts',
        { _id: host },
        { $set: { identification_number: 'changed meanwhile', _etag: 'etag-of-another-instance' } },
      );
      expect(changed).toMatchObject({ matched: 1 });
      expectEveError(await linking, 412);
    } finally {
      env.sim.controls.slow(0);
    }
    const made = env.proxy.calls.slice(calls).filter((c) => /^(POST|DELETE) \/user\//.test(c));
    expect(made).toEqual([
      `POST /user/${orgA.serverId}`,
      expect.stringMatching(new RegExp(`^DELETE /user/${orgA.serverId}/[0-9a-f]{24}$`)),
    ]);
    await expectUnchanged(host, null, 0);
    expect(simUsers(env.sim, orgA.serverId).some((u) => u.name === host)).toBe(false);
  });
});
