/**
 * vpn-sim's rules of detail, the same in every release from 1.30 to 1.34, each checked against
 * the Pritunl code it copies: what `iter_users` yields for a search or a page (the limit and the
 * counts cover clients; server users follow only when the clients fit), the page totals of
 * `get_org_page_total` and `Organization.page_total`, `user_put` committing the user last (a 400
 * changes nothing but the network links, which are written at once), `GET /server`, the
 * background create of `user_post` and the tokens of `org_put`.
 */
import { startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import { consoleLogin, raw, type RawAnswer, type RawSession } from './helpers';

type Json = Record<string, unknown>;

let sim: VpnSim;
let s: RawSession;
const call = (method: string, path: string, body?: unknown): Promise<RawAnswer> =>
  raw(sim, method, path, { ...s, body });
const json = async (method: string, path: string, body?: unknown): Promise<Json> =>
  (await call(method, path, body)).body as Json;

async function org(name: string): Promise<string> {
  return (await json('POST', '/organization', { name })).id as string;
}

async function users(orgId: string, names: string[]): Promise<Json[]> {
  const made: Json[] = [];
  for (const name of names) made.push(...((await call('POST', `/user/${orgId}`, { name })).body as Json[]));
  return made;
}

const names = (answer: Json): string[] => (answer.users as Json[]).map((u) => u.name as string);

beforeAll(async () => {
  sim = await startVpnSim({ seed: 41, servers: [{ name: 'zeta' }, { name: 'alpha', groups: ['ops'] }] });
  s = await consoleLogin(sim);
});
afterAll(() => sim.close());

describe('iter_users: limit, search_count and search_more cover clients; server users are appended', () => {
  let id: string;
  let serverUsers: string[];
  beforeAll(async () => {
    id = await org('search');
    for (const server of sim.state.servers.values()) sim.controls.attach(server.id, id);
    await users(id, ['web-3', 'web-1', 'web-2']);
    serverUsers = [...sim.state.users.values()]
      .filter((u) => u.orgId === id && u.type === 'server')
      .map((u) => u.name)
      .sort();
  });

  test('the clients fit the limit: all of them, then every server user; the count is the clients', async () => {
    const answer = await json('GET', `/user/${id}?search=e&limit=3`);
    expect(names(answer)).toEqual(['web-1', 'web-2', 'web-3', ...serverUsers]);
    expect(answer).toMatchObject({ search_count: 3, search_more: false, search_limit: 3, server_count: 2 });
  });

  test('more clients than the limit: that many clients, no server user, search_more', async () => {
    const answer = await json('GET', `/user/${id}?search=e&limit=2`);
    expect(names(answer)).toEqual(['web-1', 'web-2']);
    expect(answer).toMatchObject({ search_count: 3, search_more: true });
  });

  test('id: and type: narrow the search to one type: no server user is appended', async () => {
    expect(names(await json('GET', `/user/${id}?search=type:client e`))).toEqual(['web-1', 'web-2', 'web-3']);
    const servers = await json('GET', `/user/${id}?search=type:server&limit=1`);
    expect([names(servers).length, servers.search_count, servers.search_more]).toEqual([1, 2, true]);
  });

  test('limit 0 reads as the page count (`search_limit or page_count`); a limit that is not a number is a 500', async () => {
    const zero = await json('GET', `/user/${id}?search=e&limit=0`);
    expect([names(zero).length, zero.search_limit, zero.search_more]).toEqual([5, 0, true]);
    expect((await call('GET', `/user/${id}?search=e&limit=ten`)).status).toBe(500);
  });

  test('pages: 10 clients a page; the server users come after the last page of clients only', async () => {
    const many = await org('pages');
    for (const server of sim.state.servers.values()) sim.controls.attach(server.id, many);
    const clients = Array.from({ length: 11 }, (_, i) => `h${String(i).padStart(2, '0')}`);
    await users(many, clients);
    const first = await json('GET', `/user/${many}?page=0`);
    expect([names(first), first.page_total]).toEqual([clients.slice(0, 10), 1]);
    const last = await json('GET', `/user/${many}?page=1`);
    expect(names(last)).toEqual([clients[10], ...names(last).slice(1)]);
    expect(names(last)).toHaveLength(3);
    expect((await call('GET', `/user/${many}?page=-1`)).status).toBe(500);
  });

  test('page_total is floor((clients - 1) / 10): 10 clients are one page', async () => {
    const ten = await org('ten');
    await users(
      ten,
      Array.from({ length: 10 }, (_, i) => `u${i}`),
    );
    expect((await json('GET', `/user/${ten}?page=0`)).page_total).toBe(0);
    await users(ten, ['u10']);
    expect((await json('GET', `/user/${ten}?page=0`)).page_total).toBe(1);
  });
});

test('get_org_page_total is floor((organizations - 1) / 5): 5 organizations are one page', async () => {
  const own = await startVpnSim({ seed: 42 });
  try {
    const session = await consoleLogin(own);
    const total = async (): Promise<unknown> =>
      ((await raw(own, 'GET', '/organization?page=0', session)).body as Json).page_total;
    expect(await total()).toBe(0);
    for (let i = 0; i < 5; i += 1)
      await raw(own, 'POST', '/organization', { ...session, body: { name: `o${i}` } });
    expect(await total()).toBe(0);
    await raw(own, 'POST', '/organization', { ...session, body: { name: 'o5' } });
    expect(await total()).toBe(1);
  } finally {
    await own.close();
  }
});

describe('user_put commits the user last: a 400 changes nothing but the network links', () => {
  let id: string;
  beforeAll(async () => {
    id = await org('put');
  });
  const put = (user: Json, body: Json): Promise<RawAnswer> =>
    call('PUT', `/user/${id}/${user.id as string}`, { ...user, pin: true, ...body });

  test('a PIN refused (400): the name sent with it is not kept', async () => {
    const [user] = await users(id, ['before']);
    const res = await put(user ?? {}, { name: 'after', pin: '12ab56' });
    expect((res.body as Json).error).toBe('pin_not_digits');
    expect(sim.state.users.get(user?.id as string)?.name).toBe('before');
  });

  test('a bypass refused after the links (400): the links are written, the rest is not', async () => {
    const [user] = (await call('POST', `/user/${id}`, { name: 'pinned', pin: '123456' })).body as Json[];
    const res = await put(user ?? {}, {
      name: 'renamed',
      network_links: ['10.9.0.0/24'],
      bypass_secondary: true,
    });
    expect((res.body as Json).error).toBe('pin_bypass_secondary');
    expect(sim.state.users.get(user?.id as string)).toMatchObject({
      name: 'pinned',
      bypass_secondary: false,
      network_links: ['10.9.0.0/24'],
    });
  });

  test('a bad link (400) writes none; an online server the user can use refuses new links (400 network_link_not_offline)', async () => {
    const [user] = await users(id, ['linked']);
    const bad = await put(user ?? {}, { network_links: ['10.9.1.0/24', '10.9.2.1/24'] });
    expect((bad.body as Json).error).toBe('network_link_invalid');
    expect(sim.state.users.get(user?.id as string)?.network_links).toEqual([]);
    const zeta = [...sim.state.servers.values()].find((x) => x.name === 'zeta');
    sim.controls.attach(zeta?.id ?? '', id);
    sim.controls.setServerStatus(zeta?.id ?? '', 'online');
    try {
      const online = await put(user ?? {}, { name: 'still', network_links: ['10.9.1.0/24'] });
      expect((online.body as Json).error).toBe('network_link_not_offline');
      expect(sim.state.users.get(user?.id as string)).toMatchObject({ name: 'linked', network_links: [] });
    } finally {
      sim.controls.setServerStatus(zeta?.id ?? '', 'offline');
    }
  });
});

test('GET /server: sorted by name; a server dict does not list its organizations', async () => {
  const list = (await call('GET', '/server')).body as Json[];
  expect(list.map((x) => x.name)).toEqual(['alpha', 'zeta']);
  expect(list.every((x) => !('organizations' in x))).toBe(true);
});

test('user_post: more than 10 users go to a background thread, 202 before the organization is looked at', async () => {
  const bodies = Array.from({ length: 11 }, (_, i) => ({ name: `b${i}` }));
  const res = await call('POST', '/user/5f1c0c7a9f1b2a0012345678/multi', bodies);
  expect([res.status, res.body]).toEqual([
    202,
    {
      status: 'users_background',
      status_msg:
        'Users will be created in background. This task will take several seconds for each user being created.',
    },
  ]);
});

test('org_put: auth_token and auth_secret true regenerate them even with auth_api false', async () => {
  const id = await org('tokens');
  const answer = await json('PUT', `/organization/${id}`, {
    name: 'tokens',
    auth_api: false,
    auth_token: true,
    auth_secret: true,
  });
  expect(answer).toMatchObject({
    auth_api: false,
    auth_token: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
    auth_secret: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
  });
});
