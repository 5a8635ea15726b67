/**
 * vpn-sim's data rules, each named after the Pritunl handler it copies (handlers/org.py,
 * user.py, key.py, server.py, before_request.py, pritunl-web's struct binding and routing),
 * checked with raw HTTP in a logged-in console session on the default release (the oldest the
 * service supports). The rules that differ by release are in sim-versions.test.ts.
 */
import { startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import { consoleLogin, raw, type RawAnswer, type RawSession } from './helpers';

let sim: VpnSim;
let s: RawSession;
const call = (method: string, path: string, body?: unknown): Promise<RawAnswer> =>
  raw(sim, method, path, { ...s, body });
type Json = Record<string, unknown>;

async function org(name: string): Promise<string> {
  return ((await call('POST', '/organization', { name })).body as Json).id as string;
}

async function user(orgId: string, body: Json): Promise<Json> {
  return ((await call('POST', `/user/${orgId}`, body)).body as Json[])[0] ?? {};
}

beforeAll(async () => {
  sim = await startVpnSim({ seed: 21, servers: [{ name: 'east' }, { name: 'west' }] });
  s = await consoleLogin(sim);
});

afterAll(async () => {
  await sim.close();
});

describe('org_post / org_get / org_delete', () => {
  test('org_post: 200 with the dict, the name filtered, unknown fields (cipher_type) dropped', async () => {
    const res = await call('POST', '/organization', { name: 'My Org (eu)', cipher_type: 'rsa' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'MyOrgeu',
      auth_api: false,
      auth_token: null,
      auth_secret: null,
      user_count: 0,
    });
    expect(res.text).not.toContain('cipher_type');
  });

  test('org_get: a missing organization is 500 (text), a malformed id answers the list, the list is sorted by name', async () => {
    const missing = await call('GET', '/organization/5f1c0c7a9f1b2a0012345678');
    expect([missing.status, missing.text]).toEqual([500, '500: Internal Server Error']);
    await org('zz-last');
    const list = await call('GET', '/organization/not-a-valid-object-id');
    expect(list.status).toBe(200);
    const names = (list.body as Json[]).map((o) => o.name as string);
    expect(names).toEqual([...names].sort());
    const page = await call('GET', '/organization?page=0');
    expect(page.body).toMatchObject({
      page: 0,
      page_total: expect.any(Number),
      organizations: expect.any(Array),
    });
  });

  test('org_delete: {} and the users go too; missing -> 500; malformed -> {} doing nothing', async () => {
    const id = await org('doomed');
    const u = await user(id, { name: 'h' });
    expect((await call('DELETE', `/organization/${id}`)).body).toEqual({});
    expect(sim.state.users.has(u.id as string)).toBe(false);
    expect((await call('DELETE', `/organization/${id}`)).status).toBe(500);
    const before = sim.state.organizations.size;
    expect((await call('DELETE', '/organization/zzzzzzzzzzzzzzzzzzzzzzzz')).body).toEqual({});
    expect(sim.state.organizations.size).toBe(before);
  });

  test('org_delete (organization.remove): every online server it is attached to is stopped, none restarted, only one detached', async () => {
    const id = await org('linked');
    const [east, west] = [...sim.state.servers.values()];
    sim.controls.attach(east?.id ?? '', id);
    sim.controls.attach(west?.id ?? '', id);
    sim.controls.setServerStatus(east?.id ?? '', 'online');
    sim.controls.setServerStatus(west?.id ?? '', 'online');
    expect((await call('DELETE', `/organization/${id}`)).body).toEqual({});
    expect([east?.status, west?.status]).toEqual(['offline', 'offline']);
    expect(east?.organizations).not.toContain(id);
    // The other keeps a stale reference, which its organization list no longer shows.
    expect(west?.organizations).toContain(id);
    expect((await call('GET', `/server/${west?.id ?? ''}/organization`)).body).toEqual([]);
  });
});

describe('user_post', () => {
  test('answers an array; a body {"name"} gets the defaults of the proxy zero values', async () => {
    const id = await org('defaults');
    const res = await call('POST', `/user/${id}`, { name: 'Web 01' });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect((res.body as Json[])[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      organization: id,
      organization_name: 'defaults',
      name: 'Web01',
      email: '',
      groups: [],
      pin: false,
      type: 'client',
      auth_type: 'local',
      yubico_id: null,
      otp_secret: expect.stringMatching(/^[A-Z2-7]{16}$/),
      disabled: false,
      bypass_secondary: false,
      client_to_client: false,
      mac_addresses: null,
      dns_servers: null,
      dns_suffix: null,
      port_forwarding: [],
    });
  });

  test('a missing organization is 500; PIN rules are 400 with {error, error_msg}', async () => {
    expect((await call('POST', '/user/5f1c0c7a9f1b2a0012345678', { name: 'x' })).status).toBe(500);
    const id = await org('pins');
    expect((await call('POST', `/user/${id}`, { name: 'a', pin: '12ab56' })).body).toMatchObject({
      error: 'pin_not_digits',
    });
    expect((await call('POST', `/user/${id}`, { name: 'a', pin: '123' })).body).toMatchObject({
      error: 'pin_too_short',
    });
    expect(
      (await call('POST', `/user/${id}`, { name: 'a', pin: '123456', bypass_secondary: true })).body,
    ).toMatchObject({ error: 'pin_bypass_secondary' });
  });

  test('a bad network link answers 400 after the user was created (partial success)', async () => {
    const id = await org('links');
    const res = await call('POST', `/user/${id}`, { name: 'half', network_links: ['10.0.0.0/33'] });
    expect(res.body).toMatchObject({ error: 'network_link_invalid' });
    expect([...sim.state.users.values()].filter((u) => u.orgId === id).map((u) => u.name)).toEqual(['half']);
  });

  test('more than 10 users in one POST (/multi) go to the background: 202', async () => {
    const id = await org('bulk');
    const res = await call(
      'POST',
      `/user/${id}/multi`,
      Array.from({ length: 11 }, (_, i) => ({ name: `u${i}` })),
    );
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'users_background' });
  });
});

describe('pritunl-web binding and routing', () => {
  test('a body that does not fit the Go struct is 400 with an empty body (array to /user/<org>, numeric pin)', async () => {
    const id = await org('bind');
    const array = await call('POST', `/user/${id}`, [{ name: 'a' }]);
    expect([array.status, array.text]).toEqual([400, '']);
    const numeric = await call('POST', `/user/${id}`, { name: 'a', pin: 123456 });
    expect([numeric.status, numeric.text]).toEqual([400, '']);
  });

  test('a body that is not JSON is 520; one over 50,000 bytes is 400', async () => {
    const form = await raw(sim, 'POST', '/organization', {
      ...s,
      text: 'name=x',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(520);
    const big = await call('POST', '/organization', { name: 'x'.repeat(50_001) });
    expect(big.status).toBe(400);
  });

  test("routes it does not register are gin's 404 page not found; /key/... reaches Flask, which has no .ovpn route", async () => {
    const res = await call('GET', '/keys/5f1c0c7a9f1b2a0012345678');
    expect([res.status, res.type, res.text]).toEqual([404, 'text/plain', '404 page not found']);
    expect((await call('PATCH', '/organization')).text).toBe('404 page not found');
    const ovpn = await call('GET', '/key/5f1c0c7a9f1b2a0012345678/5f1c0c7a9f1b2a0012345678.ovpn');
    expect([ovpn.status, ovpn.text]).toEqual([404, '404: Not Found']);
  });
});

describe('user_put / user_get / user_delete', () => {
  test('user_put: every key is applied, so an omitted one is reset; pin true keeps the PIN', async () => {
    const id = await org('put');
    const u = await user(id, {
      name: 'db',
      email: 'db@x.io',
      groups: ['ops'],
      pin: '123456',
      disabled: true,
      dns_servers: ['10.0.0.2'],
    });
    const res = await call('PUT', `/user/${id}/${u.id as string}`, { pin: true });
    expect(res.body).toMatchObject({
      name: 'undefined',
      email: null,
      groups: [],
      pin: true,
      disabled: false,
      dns_servers: null,
    });
    const numeric = await call('PUT', `/user/${id}/${u.id as string}`, { name: 'db', pin: 123456 });
    expect(numeric.status).toBe(500);
  });

  test('user_get: clients by name then server users, with the console fields; unknown user or org -> 404', async () => {
    const id = await org('get');
    const east = [...sim.state.servers.values()][0];
    sim.controls.attach(east?.id ?? '', id);
    await user(id, { name: 'b' });
    await user(id, { name: 'a' });
    const list = (await call('GET', `/user/${id}`)).body as Json[];
    expect(list.map((u) => [u.name, u.type])).toEqual([
      ['a', 'client'],
      ['b', 'client'],
      [`server_${east?.id ?? ''}`, 'server'],
    ]);
    expect(list[0]).toMatchObject({
      status: false,
      network_links: [],
      servers: [expect.objectContaining({ name: 'east' })],
    });
    expect((await call('GET', `/user/${id}/5f1c0c7a9f1b2a0012345678`)).status).toBe(404);
    expect((await call('GET', '/user/5f1c0c7a9f1b2a0012345678')).status).toBe(404);
    expect(((await call('GET', `/organization/${id}`)).body as Json).user_count).toBe(2);
  });

  test("user_get finds a user by id alone (labelled with the URL's org); ?search=id: is scoped to the org", async () => {
    const a = await org('scope-a');
    const b = await org('scope-b');
    const u = await user(a, { name: 'owned' });
    expect((await call('GET', `/user/${b}/${u.id as string}`)).body).toMatchObject({
      id: u.id,
      organization: b,
    });
    const scoped = await call('GET', `/user/${b}?search=id:${u.id as string}&limit=1`);
    expect(scoped.body).toMatchObject({ search: `id:${u.id as string}`, users: [] });
    expect(
      (
        (await call('GET', `/user/${a}?search=id:${u.id as string}&limit=1`)).body as { users: Json[] }
      ).users.map((x) => x.id),
    ).toEqual([u.id]);
  });

  test('user_delete: {} once, then 500', async () => {
    const id = await org('del');
    const u = await user(id, { name: 'x' });
    expect((await call('DELETE', `/user/${id}/${u.id as string}`)).body).toEqual({});
    expect((await call('DELETE', `/user/${id}/${u.id as string}`)).status).toBe(500);
  });
});

describe('user_key_tar_archive_get (/key before 1.32.4465.96) and server_org_put', () => {
  test('the tar needs no CSRF; without an attached server it is an empty archive (one 10240-byte record); a missing user is 500', async () => {
    const id = await org('tar');
    const u = await user(id, { name: 'h' });
    const res = await fetch(`${sim.url}/key/${id}/${u.id as string}.tar`, { headers: { Cookie: s.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="h.tar"');
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.alloc(10_240))).toBe(true);
    expect((await call('GET', `/key/${id}/5f1c0c7a9f1b2a0012345678.tar`)).status).toBe(500);
  });

  test('server_org_put: an online server refuses (400 server_not_offline); attaching adds a server user', async () => {
    const id = await org('attach');
    const west = [...sim.state.servers.values()][1];
    sim.controls.setServerStatus(west?.id ?? '', 'online');
    const refused = await call('PUT', `/server/${west?.id ?? ''}/organization/${id}`);
    expect([refused.status, refused.body]).toEqual([
      400,
      { error: 'server_not_offline', error_msg: 'Server must be offline to attach an organization.' },
    ]);
    await call('PUT', `/server/${west?.id ?? ''}/operation/stop`);
    expect((await call('PUT', `/server/${west?.id ?? ''}/organization/${id}`)).body).toEqual({
      id,
      server: west?.id,
      name: 'attach',
    });
    expect([...sim.state.users.values()].filter((u) => u.orgId === id).map((u) => u.type)).toEqual([
      'server',
    ]);
  });
});

test('ids, secrets and key material are seeded: the same seed gives the same ids', async () => {
  const one = await startVpnSim({ seed: 99 });
  const two = await startVpnSim({ seed: 99 });
  try {
    const ids = await Promise.all(
      [one, two].map(async (x) => {
        const session = await consoleLogin(x);
        const created = await raw(x, 'POST', '/organization', { ...session, body: { name: 'same' } });
        return (created.body as Json).id;
      }),
    );
    expect(ids[0]).toBe(ids[1]);
  } finally {
    await one.close();
    await two.close();
  }
});
