/**
 * @fleet/client against a started server (the API on salt-sim, its fleet stored by a first sync):
 * the usages of usages.ts run as written, each answer the client receives checked against the
 * OpenAPI document as the supertest answers are (test/helpers/openapi-check.ts).
 */
import { createFleetClient, createOne, FleetApiError, ifMatch, ok, type FleetClient } from '@fleet/client';
import { apiDocument } from '../../engine/src';
import { auth, insertDoc, TOKENS, uniqueName } from '../helpers';
import { openApiChecker } from '../helpers/openapi-check';
import { startMasterEnv, type MasterEnv } from '../integrations/master-env';
import * as use from './usages';

let env: MasterEnv;
let client: FleetClient;
let viewer: FleetClient;
const problems: string[] = [];

/** A fetch that checks every answer against the document the server serves. */
function checkedFetch(doc: Record<string, unknown>): (req: Request) => Promise<Response> {
  const checker = openApiChecker(doc);
  return async (req) => {
    const res = await fetch(req);
    const text = await res.clone().text();
    const json = (res.headers.get('content-type') ?? '').includes('application/json') && text !== '';
    const problem = checker.check(req.method, req.url, {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: json ? JSON.parse(text) : undefined,
      text,
    });
    if (problem !== null) problems.push(problem);
    return res;
  };
}

beforeAll(async () => {
  env = await startMasterEnv();
  const fetch = checkedFetch(apiDocument(env.api.engine.registry));
  client = createFleetClient({ baseUrl: env.api.url, token: TOKENS.admin, fetch });
  viewer = createFleetClient({ baseUrl: `${env.api.url}/`, token: TOKENS.viewer, fetch });
}, 60_000);
afterAll(() => env.close());
afterEach(() => {
  expect(problems).toEqual([]);
});

const allHosts = (): string[] => [...env.sim.fleet.minions.keys()].sort();

describe('reading', () => {
  it('lists hosts (every _id), counts with a typed where, and builds filters', async () => {
    expect((await use.hostIds(viewer)).sort()).toEqual(allHosts());
    const up = await env.api.request
      .get('/api/hosts')
      .query({ where: '{"status": "up"}' })
      .set(auth('viewer'));
    expect(await use.countUp(viewer)).toBe(up.body._meta.total);
    expect(JSON.parse(use.hostFilter())).toEqual({
      $or: [{ status: 'down' }, { key: { $in: ['pending', 'rejected'] } }],
      'grain.osfullname': { $regex: '^Debian' },
    });
  });

  it('walks every page: by _links.next.href, by pages(), by items()', async () => {
    expect(await use.followNext(viewer, env.api.url, TOKENS.viewer)).toBe(allHosts().length);
    const every = await use.everyHost(viewer);
    expect(every.pages).toBe(Math.ceil(allHosts().length / 2));
    expect(every.ids.sort()).toEqual(allHosts());
  });

  it('reads an item, a projection, statistics, and a 404 as a FleetApiError', async () => {
    const id = env.up[0] ?? '';
    const item = await env.api.request.get(`/api/hosts/${id}`).set(auth('viewer'));
    expect(await use.hostStatus(viewer, id)).toEqual({
      status: 'up',
      cpu: item.body.grain.cpu_model,
      etag: item.body._etag,
    });
    const projected = await use.statusesOnly(viewer);
    expect(projected).toHaveLength(allHosts().length);
    for (const host of projected)
      expect(Object.keys(host).sort()).toEqual(['_created', '_etag', '_id', '_links', '_updated', 'status']);
    const online = await env.api.request
      .get('/api/hosts/statistics/online')
      .query({ 'range[]': ['2026-01-01T00:00:00Z', '2031-01-01T00:00:00Z'] })
      .set(auth('viewer'));
    expect(await use.onlinePoints(viewer)).toBe(online.body.length);
    expect(await use.missingHost(viewer)).toEqual({
      status: 404,
      message: expect.stringContaining('no-such-host.fleet.test'),
    });
  });
});

describe('writing', () => {
  it('creates, patches with If-Match, pauses and changes a task by PUT; a stale version is a 412', async () => {
    const id = await use.newTask(client);
    const before = await ok(client.GET('/api/tasks/{id}', { params: { path: { id } } }));
    const etag = await use.retimeTask(client, id);
    expect(etag).not.toBe(before._etag);
    const stale = client.PATCH('/api/tasks/{id}', {
      params: { path: { id }, header: ifMatch(before) },
      body: { interval: 60 },
    });
    await expect(ok(stale)).rejects.toMatchObject({ status: 412 });
    expect(await use.pauseAndRetarget(client, id)).toBe('OK');
    const after = await ok(client.GET('/api/tasks/{id}', { params: { path: { id } } }));
    expect(after).toMatchObject({ interval: 300, status: 'paused', tgt: ['web-1.fleet.test'] });
    const [a, b] = await use.twoTasks(client);
    expect([a, b].every((t) => typeof t === 'string' && t !== id)).toBe(true);
  });

  it('uploads a file as multipart; its link opens the bytes', async () => {
    const file = await use.uploadMotd(client, 'hello fleet\n');
    expect(file.data).toMatch(new RegExp(`^/api/media/[0-9a-f]{24}\\?expires=\\d+&signature=`));
    const bytes = await fetch(`${env.api.url}${file.data ?? ''}`);
    expect(await bytes.text()).toBe('hello fleet\n');
  });

  it('creates a group of hosts, and reads a refusal as typed _issues', async () => {
    const members = env.up.slice(0, 2);
    const { id, refused } = await use.groupOf(client, members);
    expect(refused).toEqual({ name: 'min length is 1' });
    const names = await env.api.request.get(`/api/groups/${id}/hostnames`).set(auth('viewer'));
    expect(names.body.sort()).toEqual(members);
  });

  it("embeds an organization's VPN manager", async () => {
    const manager = await createOne(client, '/api/vpn_managers', {
      name: uniqueName('vpn'),
      server_address: 'vpn.fleet.test:443',
      dashboard_address: 'https://vpn.fleet.test/',
      username: 'fleet',
      password: 'pw-1c0d3',
    });
    const org = uniqueName('org');
    // Stored as the VPN integration stores one (creating it through the API needs a VPN server).
    await insertDoc(env.api.store, 'vpn_organizations', {
      _id: org,
      name: org,
      vpn_manager: manager._id,
      vpnsrv_representation: {},
      cipher_type: 'rsa',
      type: 6,
      unreachable: false,
    });
    const stored = await env.api.request.get(`/api/vpn_managers/${manager._id}`).set(auth('viewer'));
    expect(await use.managerOf(viewer, org)).toBe(stored.body.name);
  });

  it('patches the settings in the flat form and marks alerts read', async () => {
    await env.api.request
      .post('/api/alerts')
      .set(auth('operator'))
      .send({ type: 'host.down', payload: { hostname: env.down[0] ?? 'h', status: 'down' } });
    expect(await use.settingsAndAlerts(client)).toEqual({
      resolver: 'http://resolver.fleet.test/ip',
      unread: 0,
    });
    const left = await env.api.request
      .get('/api/alerts')
      .query({ where: '{"read": false}' })
      .set(auth('viewer'));
    expect(left.body._meta.total).toBe(0);
  });

  it('runs a command on a host through the master', async () => {
    const host = env.up[0] ?? '';
    const run = await use.uptime(client, host);
    expect(run.jid).toMatch(/^\d{20}$/);
    expect(run.outputs.some((o) => Object.keys(o).includes(host))).toBe(true);
    const refused = await client.POST('/api/hosts/{id}', {
      params: { path: { id: host } },
      body: { exec_client: 'local', fun: 'rm -rf /' },
    });
    expect(refused.response.status).toBe(422);
    await expect(
      ok(
        viewer.POST('/api/hosts/{id}', {
          params: { path: { id: host } },
          body: { exec_client: 'local', fun: 'test.ping' },
        }),
      ),
    ).rejects.toBeInstanceOf(FleetApiError);
  });
});
