/**
 * The fleet sync against salt-sim over real HTTP, into the real API on a temp SQLite file:
 * hosts of every key state with grains, status, fingerprints and nodegroups; nodegroups;
 * actions and failed patches from the job cache; a second run that writes nothing; down/up
 * and key-change alerts; soft-deleted and forgotten hosts; the leased loop.
 */
import type { Doc } from '@fleet/engine';
import { createSaltClient, type SaltClient } from '@fleet/salt';
import { leaseTimes } from '@fleet/duties';
import { createFleetSync, startSyncLoop, type SyncReport } from '@fleet/salt';
import {
  compoundMatches,
  nodegroupExpression,
  pemFinger,
  startSaltSim,
  type SaltSim,
  type SimMinion,
} from '@fleet/salt-sim';
import { auth, expectEnvelope, RFC1123, startTestServer, type TestServer } from '../helpers';
import { capturingLog } from '../helpers/log';
import { until } from '../helpers/until';

const DENIED = 'kiosk-900.lon.fleet.example.com';
const PATCH = 'patches.openssl-cve-2024-5535';

let sim: SaltSim;
let server: TestServer;
let client: SaltClient;
let sync: { runOnce(): Promise<SyncReport> };
let stateJid: string;
let cmdJid: string;
const { log, lines } = capturingLog();

const minions = (): SimMinion[] => [...sim.fleet.minions.values()];
const upHosts = (): SimMinion[] => minions().filter((m) => m.key === 'accepted' && m.up);
const host = async (id: string): Promise<Doc | undefined> =>
  (await server.store.find('hosts', { _id: id }))[0];
const alertsOf = (type: string, hostname: string): Promise<Doc[]> =>
  server.store.find('alerts', { type, 'payload.hostname': hostname });

async function etags(collection: string): Promise<Record<string, unknown>> {
  return Object.fromEntries((await server.store.find(collection, {})).map((d) => [d._id, d._etag]));
}

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 30, seed: 11, returnDelayMs: 5 });
  sim.controls.addMinion(DENIED, { key: 'denied' });
  // Beyond the generated ones: nesting, parentheses, `not`, and the plain id-list form (2016.11+).
  sim.fleet.nodegroups['mixed'] = 'N@databases or ( E@^web- and not G@os:Ubuntu )';
  sim.fleet.nodegroups['pinned'] = upHosts()
    .slice(0, 2)
    .map((m) => m.id);
  server = await startTestServer();
  client = createSaltClient({ url: sim.url, ...sim.credentials });
  // The job cache the first sync reads: a patch run (failing on some hosts) and a command.
  stateJid = (await client.local('*', 'state.apply', { arg: [PATCH] })).jid ?? '';
  const target = upHosts()[0]?.id ?? '';
  cmdJid = (await client.local(target, 'cmd.run', { arg: ['uname -r'] })).jid ?? '';
  sync = createFleetSync({ client, runtime: server.engine.runtime, log, toolKey: 'tool' });
});

afterAll(async () => {
  client.close();
  await sim.close();
  await server.close();
});

test('a first sync fills hosts of every key state with grains, status, fingerprints and nodegroups', async () => {
  const report = await sync.runOnce();
  expect(report).toMatchObject({
    masterReachable: true,
    hostsNew: sim.fleet.minions.size,
    hostsSeen: sim.fleet.minions.size,
    nodegroups: 9,
  });
  const list = expectEnvelope(await server.request.get('/api/hosts?max_results=100').set(auth('viewer')), {
    page: 1,
    maxResults: 100,
    total: sim.fleet.minions.size,
  });
  expect(new Set(list._items.map((h) => h.key))).toEqual(
    new Set(['accepted', 'pending', 'rejected', 'denied']),
  );
  for (const m of minions()) {
    const h = await host(m.id);
    expect(h).toMatchObject({ key: m.key, fingerprint: pemFinger(m.pem), groups: [], _soft_deleted: false });
    expect(h?.fingerprint_history).toEqual([{ added: expect.any(Date), fingerprint: pemFinger(m.pem) }]);
    // A host down since before the first sync never sent grains: only its id can match.
    const known = m.up ? m : { ...m, grains: {} };
    const groups =
      m.key !== 'accepted'
        ? []
        : Object.keys(sim.fleet.nodegroups).filter((g) =>
            compoundMatches(sim.fleet, known, nodegroupExpression(sim.fleet, g)),
          );
    expect(h?.nodegroups).toEqual(groups.sort());
    expect(h?.status).toBe(m.key === 'accepted' && m.up ? 'up' : 'down');
    if (m.key !== 'accepted' || !m.up) continue;
    const tool = m.grains['tool'] as Record<string, string>;
    expect(h).toMatchObject({
      grain: m.grains,
      version: m.grains['saltversion'],
      ip: (m.grains['fqdn_ip4'] as string[])[0],
      heartbeat: expect.any(Date),
    });
    expect(h?.last_stateapply).toEqual(new Date(String(tool['last_stateapply']).replace(' ', 'T')));
    expect(h?.last_distupgrade).toEqual(new Date(String(tool['last_distupgrade']).replace(' ', 'T')));
  }
  const one = upHosts()[0]?.id ?? '';
  const item = await server.request.get(`/api/hosts/${one}`).set(auth('viewer'));
  expect(item.status).toBe(200);
  expect(item.body).toMatchObject({ key: 'accepted', status: 'up', grain: { id: one } });
  expect(item.body.last_stateapply).toMatch(RFC1123);
});

test('nodegroups come from the master config: parsed info, raw expression, fetched by name', async () => {
  const list = expectEnvelope(await server.request.get('/api/nodegroups').set(auth('viewer')), {
    page: 1,
    maxResults: 25,
    total: 9,
  });
  expect(list._items.map((g) => g._id).sort()).toEqual(Object.keys(sim.fleet.nodegroups).sort());
  const get = async (name: string): Promise<Record<string, unknown>> =>
    (await server.request.get(`/api/nodegroups/${name}`).set(auth('viewer'))).body as Record<string, unknown>;
  expect(await get('databases')).toMatchObject({
    name: 'databases',
    type: 1,
    info: { grain: { roles: 'db' }, expression: 'G@roles:db' },
  });
  expect(await get('webservers')).toMatchObject({
    info: { regex: '^web-\\d+\\.', expression: 'E@^web-\\d+\\.' },
  });
  const core = String(sim.fleet.nodegroups['core']).slice(2).split(',');
  expect(await get('core')).toMatchObject({ info: { hosts: core } });
  expect(await get('edge')).toMatchObject({ info: { expression: 'G@roles:kiosk or G@roles:gw' } });
  expect(await get('pinned')).toMatchObject({
    info: { hosts: sim.fleet.nodegroups['pinned'], expression: expect.stringMatching(/^L@/) },
  });
  expect(await get('mixed')).toMatchObject({ info: { regex: '^web-', grain: { os: 'Ubuntu' } } });
  expect(await server.store.count('hosts', { nodegroups: 'mixed' })).toBeGreaterThan(0);
});

test('actions and failed patches are recorded from the job cache, bookkeeping jobs are not', async () => {
  const ups = upHosts()
    .map((m) => m.id)
    .sort();
  const actions = await server.store.find('actions', { jid: stateJid });
  expect(actions.map((a) => a.host).sort()).toEqual(ups);
  const failing = upHosts()
    .filter((m) => m.failingStates)
    .map((m) => m.id)
    .sort();
  expect(failing.length).toBeGreaterThan(0);
  const res = await server.request
    .get(`/api/failed_patches?where=${encodeURIComponent(JSON.stringify({ jid: stateJid }))}`)
    .set(auth('viewer'));
  const patches = expectEnvelope(res, { page: 1, maxResults: 25, total: failing.length })._items;
  expect(patches.map((p) => p.host).sort()).toEqual(failing);
  const steps = patches[0]?.return as Array<Record<string, unknown>>;
  expect(steps.map((s) => s.__run_num__)).toEqual([...steps.keys()]);
  expect(steps.some((s) => s.result === false && s.cmd === 'cmd.run')).toBe(true);
  const cmd = await server.store.find('actions', { jid: cmdJid });
  expect(cmd).toHaveLength(1);
  expect(cmd[0]).toMatchObject({
    action: 'cmd.run',
    state: 'finished',
    _id: `${cmdJid}${String(cmd[0]?.host)}`,
  });
  expect(await server.store.count('actions', { action: { $in: ['grains.items', 'test.ping'] } })).toBe(0);
  expect((await host(String(cmd[0]?.host)))?.last_action).toBe(`${cmdJid}${String(cmd[0]?.host)}`);
});

test('a second sync changes nothing', async () => {
  const before = {
    hosts: await etags('hosts'),
    nodegroups: await etags('nodegroups'),
    actions: await server.store.count('actions', {}),
    alerts: await server.store.count('alerts', {}),
  };
  const report = await sync.runOnce();
  expect(report).toMatchObject({
    hostsChanged: 0,
    hostsNew: 0,
    actionsRecorded: 0,
    failedPatches: 0,
    alertsRaised: 0,
    masterReachable: true,
  });
  expect(await etags('hosts')).toEqual(before.hosts);
  expect(await etags('nodegroups')).toEqual(before.nodegroups);
  expect(await server.store.count('actions', {})).toBe(before.actions);
  expect(await server.store.count('alerts', {})).toBe(before.alerts);
});

test('a host going down raises host.down and keeps its heartbeat; coming back raises host.up', async () => {
  const id = upHosts()[1]?.id ?? '';
  const before = await host(id);
  sim.controls.setUp(id, false);
  expect(await sync.runOnce()).toMatchObject({ hostsChanged: 1, alertsRaised: 1 });
  expect(await host(id)).toMatchObject({
    status: 'down',
    heartbeat: before?.heartbeat,
    grain: before?.grain,
  });
  expect(await alertsOf('host.down', id)).toEqual([
    expect.objectContaining({ level: 'warning', read: false, payload: { hostname: id, status: 'down' } }),
  ]);
  sim.controls.setUp(id, true);
  const upAt = Math.floor(Date.now() / 1000) * 1000;
  expect(await sync.runOnce()).toMatchObject({ hostsChanged: 1, alertsRaised: 1 });
  const after = await host(id);
  expect(after?.status).toBe('up');
  expect((after?.heartbeat as Date).getTime()).toBeGreaterThanOrEqual(upAt);
  expect((after?.heartbeat as Date).getTime() % 1000).toBe(0);
  expect(after?._created).toEqual(before?._created);
  expect(after?._etag).not.toBe(before?._etag);
  expect(await alertsOf('host.up', id)).toEqual([
    expect.objectContaining({ level: 'info', payload: { hostname: id, status: 'up' } }),
  ]);
});

test('a reinstalled host: its new key, denied beside the accepted one, is shown with a key.denied warning', async () => {
  const id = upHosts().at(-1)?.id ?? '';
  const accepted = (await host(id))?.fingerprint;
  const denied = sim.controls.changeKey(id);
  await sync.runOnce();
  const h = await host(id);
  expect(h).toMatchObject({ key: 'accepted', fingerprint: accepted, denied_fingerprint: denied });
  expect(await alertsOf('key.denied', id)).toEqual([
    expect.objectContaining({
      level: 'warning',
      payload: expect.objectContaining({ status: 'denied', fingerprint: accepted, denied }),
    }),
  ]);
  expect((await sync.runOnce()).alertsRaised).toBe(0);
  // The administrator deletes the old key and accepts the new one: the fingerprint changes.
  sim.controls.acceptNewKey(id);
  await sync.runOnce();
  expect(await host(id)).toMatchObject({ key: 'accepted', fingerprint: denied, denied_fingerprint: null });
});

test('a changed key adds to fingerprint_history and raises a key.changed warning', async () => {
  const id = upHosts()[2]?.id ?? '';
  const old = (await host(id))?.fingerprint;
  const fresh = sim.controls.acceptNewKey(id);
  await sync.runOnce();
  const h = await host(id);
  expect(h?.fingerprint).toBe(fresh);
  expect(h?.fingerprint_history).toEqual([
    { added: expect.any(Date), fingerprint: old },
    { added: expect.any(Date), fingerprint: fresh },
  ]);
  expect(await alertsOf('key.changed', id)).toEqual([
    expect.objectContaining({
      level: 'warning',
      payload: expect.objectContaining({ previous: old, fingerprint: fresh }),
    }),
  ]);
  expect((await sync.runOnce()).alertsRaised).toBe(0);
});

test('a soft-deleted host stays hidden and quiet; operator fields survive a key acceptance', async () => {
  const hidden = upHosts()[3]?.id ?? '';
  expect((await server.request.delete(`/api/hosts/${hidden}`).set(auth('admin'))).status).toBe(204);
  sim.controls.setUp(hidden, false);
  const pending = minions().find((m) => m.key === 'pending')?.id ?? '';
  const patch = await server.request
    .patch(`/api/hosts/${pending}`)
    .set(auth('admin'))
    .send({ identification_number: 'INV-42' });
  expect(patch.status).toBe(200);
  await client.wheel('key.accept', { match: pending });
  await sync.runOnce();
  expect((await server.request.get(`/api/hosts/${hidden}`).set(auth('viewer'))).status).toBe(404);
  const shown = await server.request.get(`/api/hosts/${hidden}?show_soft_deleted=1`).set(auth('viewer'));
  expect(shown.body).toMatchObject({ _soft_deleted: true, status: 'down' });
  expect(await alertsOf('host.down', hidden)).toEqual([]);
  expect(await host(pending)).toMatchObject({
    key: 'accepted',
    status: 'up',
    identification_number: 'INV-42',
    grain: { id: pending },
  });
});

test('hosts the master forgets are kept (key denied, down); removed nodegroups are deleted', async () => {
  const gone = upHosts()[4]?.id ?? '';
  sim.controls.removeMinion(gone);
  delete sim.fleet.nodegroups['edge'];
  await sync.runOnce();
  expect(await host(gone)).toMatchObject({ key: 'denied', status: 'down', nodegroups: [] });
  expect(lines.some((l) => l.startsWith('warn') && l.includes('no longer knows') && l.includes(gone))).toBe(
    true,
  );
  expect((await server.request.get('/api/nodegroups/edge').set(auth('viewer'))).status).toBe(404);
  expect(await server.store.count('hosts', { nodegroups: 'edge' })).toBe(0);
  expect((await sync.runOnce()).hostsChanged).toBe(0);
});

test('the loop runs on the instance holding the fleet-sync lease only; a sync asked of another instance runs on the holder', async () => {
  const pings = (): number => sim.controls.stats.byFun['runner:manage.status'] ?? 0;
  const before = pings();
  const instance = (holder: string) => {
    const captured = capturingLog();
    const loop = startSyncLoop({
      client,
      toolKey: 'tool',
      intervalMs: 300,
      duty: { runtime: server.engine.runtime, log: captured.log, holder, times: leaseTimes(900) },
    });
    const synced = (): boolean => captured.lines.some((l) => l.startsWith('info fleet sync done'));
    return { loop, synced };
  };
  const a = instance('instance-a');
  await until(() => a.loop.held, 'instance-a to hold the lease');
  const b = instance('instance-b');
  try {
    await until(() => pings() >= before + 2, 'two periodic runs');
    expect(b.loop.held).toBe(false);
    expect(await b.loop.runNow()).toMatchObject({ masterReachable: true, hostsChanged: 0 });
    expect(b.synced()).toBe(false);
    await a.loop.stop();
    await until(() => b.loop.held, 'instance-b to take the lease over');
    expect(await b.loop.runNow()).toMatchObject({ masterReachable: true, hostsChanged: 0 });
    expect(b.synced()).toBe(true);
  } finally {
    await a.loop.stop();
    await b.loop.stop();
  }
  // Released on stop: another instance gets it at once.
  expect(await server.store.leases.acquire('fleet-sync', 'someone-else', 1000)).not.toBeNull();
});
