/**
 * request_ips -> build_graph -> not-linked end to end over HTTP against salt-sim:
 * hosts behind two NATs, direct hosts, and hosts the probe fails for (the resolver
 * answers 503 to one, a firewall drops another, a third has no HTTP client). The job is polled
 * as a client would; hosts get `ip` and `nat`, new outward addresses become unlinked gateways,
 * the sync keeps the NAT addresses (asked with `Prefer: respond-async`; without it the answer waits
 * for the job, request-ips-wait.test.ts), build_graph puts a root over the gateways and the direct
 * group, and a new NAT later shows up as not linked until the next build.
 */
import { auth, expectEveError } from '../helpers';
import { eventually, startMasterEnv, syncNow, type MasterEnv } from '../integrations/master-env';
import { graph, group, ids, links, type Node } from './support';

let env: MasterEnv;
const RESOLVER = 'resolver.example.net';
const URL = `http://${RESOLVER}/ip?format=text`;
const NAT_A = '203.0.113.10';
const NAT_B = '198.18.0.7';
const NAT_C = '203.0.113.77';
let natA: string[];
let natB: string[];
let direct: string[];
let failing: { rateLimited: string; firewalled: string; noClient: string };

type Job = Record<string, unknown> & {
  _id: string;
  state: string;
  failures: Array<{ host: string; reason: string }>;
};

/** The host's own first address (what a direct host's resolver sees). */
function ownAddress(id: string): string {
  const grains = env.sim.fleet.minions.get(id)?.grains ?? {};
  return (grains['fqdn_ip4'] as string[])[0] ?? '';
}

async function startJob(
  body: Record<string, unknown> = { action: 'request_ips', ip_resolver: URL },
): Promise<Job> {
  const res = await env.api.request
    .post('/api/graph')
    .set(auth('admin'))
    .set('Prefer', 'respond-async')
    .send(body);
  expect(res.status).toBe(202);
  expect(res.headers['preference-applied']).toBe('respond-async');
  const job = res.body as Job;
  expect(res.headers['location']).toBe(`/api/graph/jobs/${job._id}`);
  return job;
}

/** Polls the job until it is no longer running. */
async function finished(id: string): Promise<Job> {
  return eventually(
    async () => {
      const res = await env.api.request.get(`/api/graph/jobs/${id}`).set(auth('viewer'));
      expect(res.status).toBe(200);
      const job = res.body as Job;
      return job.state === 'running' ? undefined : job;
    },
    20_000,
    `job ${id}`,
  );
}

async function host(id: string): Promise<{ ip: string; nat: boolean; groups: string[] }> {
  const res = await env.api.request.get(`/api/hosts/${id}`).set(auth('viewer'));
  expect(res.status).toBe(200);
  return res.body as { ip: string; nat: boolean; groups: string[] };
}

async function notLinked(): Promise<Node[]> {
  const res = await env.api.request.get('/api/graph/not-linked').set(auth('viewer'));
  expect(res.status).toBe(200);
  expect(Object.keys(res.body as object)).toEqual(['nodes']);
  return (res.body as { nodes: Node[] }).nodes;
}

beforeAll(async () => {
  env = await startMasterEnv({ sim: { hosts: 14, seed: 11 } });
  const up = [...env.up];
  expect(up.length).toBeGreaterThanOrEqual(11);
  natA = up.slice(0, 3);
  natB = up.slice(3, 5);
  failing = { rateLimited: up[5] ?? '', firewalled: up[6] ?? '', noClient: up[7] ?? '' };
  direct = up.slice(8);
  const net = env.sim.controls;
  net.setResolver(RESOLVER, { failing: [failing.rateLimited] });
  for (const id of natA) net.setNetwork(id, { publicIp: NAT_A });
  for (const id of natB) net.setNetwork(id, { publicIp: NAT_B, httpTools: ['wget'] });
  for (const id of direct) net.setNetwork(id, { publicIp: ownAddress(id) });
  net.setNetwork(failing.firewalled, { egress: 'blocked', httpTools: ['curl', 'wget'] });
  net.setNetwork(failing.noClient, { httpTools: [] });
});

afterAll(async () => {
  await env.close();
});

test('request_ips with Prefer: respond-async answers 202 with a job; polled to its end, it sets ip and nat and makes one unlinked gateway per NAT', async () => {
  const before = await host(failing.firewalled);
  const started = await startJob();
  const hostsTotal = env.sim.fleet.minions.size;
  expect(started).toMatchObject({
    _status: 'OK',
    action: 'request_ips',
    resolver: `http://${RESOLVER}/ip`,
    total: hostsTotal,
    targeted: env.up.length,
    skipped: hostsTotal - env.up.length,
  });
  const job = await finished(started._id);
  expect(job).toMatchObject({
    state: 'done',
    probed: env.up.length,
    resolved: env.up.length - 3,
    failed: 3,
    nat: 5,
    direct: direct.length,
    error: null,
  });
  expect(Object.fromEntries(job.failures.map((f) => [f.host, f.reason]))).toEqual({
    [failing.rateLimited]: 'exit 22: curl: (22) The requested URL returned error: 503',
    [failing.firewalled]: 'exit 28: curl: (28) Connection timed out after 10000 milliseconds',
    [failing.noClient]: 'exit 127: /bin/sh: 1: wget: not found',
  });
  for (const id of natA) expect(await host(id)).toMatchObject({ ip: NAT_A, nat: true });
  for (const id of natB) expect(await host(id)).toMatchObject({ ip: NAT_B, nat: true });
  for (const id of direct) expect(await host(id)).toMatchObject({ ip: ownAddress(id), nat: false });
  expect(await host(failing.firewalled)).toMatchObject({ ip: before.ip, nat: before.nat });

  const gateways = await notLinked();
  expect(gateways.map((g) => g.info)).toEqual([{ ip: NAT_B }, { ip: NAT_A }]);
  expect([...(job['gateways_created'] as string[])].sort()).toEqual(ids(gateways).sort());
  expect(
    gateways.every((g) => g.itemStyle.color === '#fac858' && g.type === 0 && g.name === g.info['ip']),
  ).toBe(true);
  const members = await env.api.request
    .get(`/api/groups/${gateways[1]?.id ?? ''}/hostnames`)
    .set(auth('viewer'));
  expect(members.body).toEqual(natA);
});

test('the sync keeps the NAT addresses the probe found (derive leaves ip alone once nat is set)', async () => {
  await syncNow(env.api);
  for (const id of natA) expect(await host(id)).toMatchObject({ ip: NAT_A, nat: true });
  for (const id of direct) expect(await host(id)).toMatchObject({ ip: ownAddress(id), nat: false });
});

test('build_graph puts a root named after the master over the gateways and the direct group; types 0 and 1 untouched', async () => {
  const rule = await group(env.api, { type: 1, info: { regex: 'web-' } });
  const container = await group(env.api, { subgroups: [rule] });
  const etags = async () =>
    Promise.all(
      [rule, container].map(
        async (id) => (await env.api.request.get(`/api/groups/${id}`).set(auth('viewer'))).headers['etag'],
      ),
    );
  const etagsBefore = await etags();
  const res = await env.api.request
    .post('/api/graph')
    .set(auth('admin'))
    .send({ action: 'build_graph', master: 'salt-master.fleet.example.com' });
  expect(res.status).toBe(200);
  const built = res.body as { _id: string; name: string; gateways: string[]; direct: string };
  expect(built).toMatchObject({
    _status: 'OK',
    name: 'salt-master.fleet.example.com',
    _links: { self: { title: 'Group', href: `groups/${built._id}` } },
  });
  const drawn = await graph(env.api, built._id);
  expect(ids(drawn.nodes)).toEqual([built._id, ...built.gateways, built.direct]);
  expect(links(drawn.edges)).toEqual([...built.gateways, built.direct].map((id) => `${built._id}>${id}`));
  expect(drawn.nodes.map((n) => n.itemStyle.color)).toEqual(['#ee6666', '#fac858', '#fac858', '#73c0de']);
  expect(await notLinked()).toEqual([]);
  const directHosts = await env.api.request.get(`/api/groups/${built.direct}/hostnames`).set(auth('viewer'));
  expect(directHosts.body).toEqual(expect.arrayContaining(direct));
  expect(directHosts.body).not.toEqual(expect.arrayContaining([natA[0]]));
  expect(await etags()).toEqual(etagsBefore);
  // Building again changes the same groups: same root, same gateways.
  const again = await env.api.request
    .post('/api/graph')
    .set(auth('admin'))
    .send({ action: 'build_graph', master: 'salt-master.fleet.example.com' });
  expect(again.body).toMatchObject({ _id: built._id, gateways: built.gateways, direct: built.direct });
});

test('a new NAT found later is a gateway nobody links, until the next build_graph', async () => {
  const moved = direct[0] ?? '';
  env.sim.controls.setNetwork(moved, { publicIp: NAT_C });
  const job = await finished((await startJob())._id);
  expect(job).toMatchObject({ state: 'done', nat: 6, gateways_created: [expect.any(String) as string] });
  expect((await notLinked()).map((g) => g.info)).toEqual([{ ip: NAT_C }]);
  expect(await host(moved)).toMatchObject({ ip: NAT_C, nat: true });
  const built = (
    await env.api.request
      .post('/api/graph')
      .set(auth('admin'))
      .send({ action: 'build_graph', master: 'salt-master.fleet.example.com' })
  ).body as {
    _id: string;
    gateways: string[];
    direct: string;
  };
  expect(built.gateways).toHaveLength(3);
  expect(await notLinked()).toEqual([]);
  const directHosts = await env.api.request.get(`/api/groups/${built.direct}/hostnames`).set(auth('viewer'));
  expect(directHosts.body).not.toContain(moved);
});

test('one graph action at a time: a second request_ips while one runs is a 409 naming the job', async () => {
  env.sim.controls.slow(800);
  try {
    const first = await startJob();
    const second = await env.api.request
      .post('/api/graph')
      .set(auth('admin'))
      .send({ action: 'request_ips', ip_resolver: URL });
    expect(expectEveError(second, 409)._error.message).toContain(first._id);
    const build = await env.api.request
      .post('/api/graph')
      .set(auth('admin'))
      .send({ action: 'build_graph', master: 'm' });
    expectEveError(build, 409);
    await finished(first._id);
  } finally {
    env.sim.controls.slow(0);
  }
});

test("without ip_resolver the settings' resolver_address is used (set in the spec's flat form)", async () => {
  const patched = await env.api.request
    .patch('/api/settings/0')
    .set(auth('admin'))
    .send({ resolver_address: `http://${RESOLVER}/` });
  expect(patched.status).toBe(200);
  const job = await finished((await startJob({ action: 'request_ips' }))._id);
  expect(job).toMatchObject({ state: 'done', resolver: `http://${RESOLVER}/`, failed: 3 });
});

test("a master that fails mid-run ends the job as failed, with the master's error", async () => {
  env.sim.controls.masterUnavailable(true);
  try {
    const job = await finished((await startJob())._id);
    expect(job).toMatchObject({ state: 'failed', probed: 0 });
    expect(String(job['error'])).toMatch(/Salt Master is not available|master/i);
  } finally {
    env.sim.controls.masterUnavailable(false);
  }
  expect((await finished((await startJob())._id)).state).toBe('done');
});
