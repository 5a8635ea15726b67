/**
 * The seed: `seedFleet` through the local API on a real SQLite file writes the documented
 * counts, deterministically, with the engine's own etags, and everything reads back through the
 * HTTP API: the hosts envelope, a host's grains, one host's actions newest first, a rule group's
 * host names.
 */
import type { Doc } from '../../engine/src';
import { etagOf } from '../../engine/src/ops/etag';
import { openSqliteStore } from '../../engine/src/store/sqlite';
import { actionBatches } from '../../packages/server/src/seed/action-batches';
import { planHosts } from '../../packages/server/src/seed/topology';
import { createRng } from '../../packages/server/src/seed/prng';
import { SEEDED_COLLECTIONS, seedFleet, type SeedResult } from '../../packages/server/src/seed';
import { parseSeedArgs } from '../../packages/server/src/seed/command';
import { auth, expectEnvelope, RFC1123, runtimeOver, startTestServer, type TestServer } from '../helpers';
import { capturingLog } from '../helpers/log';

const NOW = new Date('2026-11-20T12:00:00Z');
const HOSTS = 120;
const ACTIONS = 3000;
const GRAIN_KEYS = [
  'cpu_model',
  'cpuarch',
  'virtual',
  'kernel',
  'kernelrelease',
  'lsb_distrib_id',
  'osfullname',
  'host',
  'domain',
  'localhost',
  'ip',
  'mem_total',
  'num_cpus',
  'num_gpus',
  'gpus',
  'serialnumber',
  'biosversion',
  'lsb_distrib_description',
  'ip_interfaces',
];
const TOOL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00:00$/;

let ts: TestServer;
let seeded: SeedResult;

beforeAll(async () => {
  ts = await startTestServer();
  seeded = await seedFleet(ts.engine.runtime, { hosts: HOSTS, actions: ACTIONS, seed: 7, now: NOW });
});
afterAll(() => ts.close());

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

describe('seedFleet', () => {
  it('writes the documented counts', () => {
    expect(seeded.counts).toEqual({
      nodegroups: 9,
      groups: 17,
      updates: 5,
      actions: ACTIONS,
      hosts: HOSTS,
      failed_patches: Math.ceil(HOSTS / 10),
      alerts: Math.ceil(HOSTS / 4),
      tasks: 10,
      hosts_statistic: 24,
    });
  });

  it.each(SEEDED_COLLECTIONS)('%s: the API counts what was written', async (name) => {
    const res = await ts.request.get(`/api/${name}?max_results=1`).set(auth('viewer'));
    expect(res.status).toBe(200);
    expect((res.body as { _meta: { total: number } })._meta.total).toBe(seeded.counts[name]);
  });

  it('refuses a store that already has hosts unless reset', async () => {
    await expect(seedFleet(ts.engine.runtime, { hosts: 1 })).rejects.toThrow(/--reset/);
  });

  it('is deterministic, and every stored etag is the engine etag of the document', async () => {
    const dump = async () => {
      const store = openSqliteStore({ path: ':memory:' });
      await seedFleet(await runtimeOver(store, capturingLog().log), {
        hosts: 30,
        actions: 400,
        seed: 3,
        now: NOW,
      });
      const docs: Record<string, Doc[]> = {};
      for (const name of SEEDED_COLLECTIONS) docs[name] = await store.find(name, {}, { sort: [['_id', 1]] });
      await store.close();
      return docs;
    };
    const [a, b] = [await dump(), await dump()];
    for (const name of SEEDED_COLLECTIONS) {
      expect(JSON.stringify(a[name])).toEqual(JSON.stringify(b[name]));
      for (const doc of a[name] ?? []) expect(doc._etag).toBe(etagOf(doc));
    }
  });

  it('makes the same actions on the worker thread as inline', async () => {
    const targets = planHosts(createRng(5), 40).filter((h) => h.key === 'accepted');
    const options = { seed: 5, now: NOW.getTime(), total: 1500, spanDays: 90, batch: 400 };
    const collect = async (parallelFrom: number) => {
      const out: Doc[] = [];
      for await (const batch of actionBatches(targets, { ...options, parallelFrom })) out.push(...batch);
      return out;
    };
    const [inline, threaded] = [await collect(Infinity), await collect(0)];
    expect(threaded).toHaveLength(1500);
    expect(threaded).toEqual(inline);
  });

  it('parses the command line', () => {
    expect(parseSeedArgs([])).toEqual({
      hosts: 50,
      actions: undefined,
      seed: 1,
      snapshots: 24,
      reset: false,
    });
    expect(parseSeedArgs(['--hosts', '10', '--actions=200', '--seed', '4', '--reset'])).toMatchObject({
      hosts: 10,
      actions: 200,
      seed: 4,
      reset: true,
    });
    expect(() => parseSeedArgs(['--hosts', 'many'])).toThrow(/--hosts/);
    expect(() => parseSeedArgs(['--wat'])).toThrow(/usage/);
  });
});

describe('the seeded fleet through HTTP', () => {
  it('lists hosts in the envelope, without grains', async () => {
    const res = await ts.request.get('/api/hosts').set(auth('viewer'));
    const body = expectEnvelope(res, { page: 1, maxResults: 25, total: HOSTS });
    const first = body._items[0] as Record<string, unknown>;
    expect(first).not.toHaveProperty('grain');
    expect(first._created).toMatch(RFC1123);
    expect(['up', 'down']).toContain(first.status);
  });

  it('serves a host with its full grains on item GET', async () => {
    const id = seeded.hostIds.find((h) => h.startsWith('ws-')) ?? seeded.hostIds[0] ?? '';
    const res = await ts.request.get(`/api/hosts/${id}`).set(auth('viewer'));
    expect(res.status).toBe(200);
    const grain = (res.body as { grain: Record<string, unknown> }).grain;
    for (const key of GRAIN_KEYS) expect(grain).toHaveProperty(key);
    const tool = grain.tool as Record<string, string>;
    expect(tool.last_distupgrade).toMatch(TOOL_TIME);
    expect(tool.last_stateapply).toMatch(TOOL_TIME);
    expect(res.body.heartbeat === null || RFC1123.test(res.body.heartbeat as string)).toBe(true);
    expect(JSON.stringify(res.body)).not.toMatch(/enc:v1:/);
  });

  it("pages one host's actions, newest first", async () => {
    const newest = await ts.request.get('/api/actions?max_results=1').set(auth('viewer'));
    const host = (newest.body as { _items: Array<{ host: string }> })._items[0]?.host ?? '';
    const res = await ts.request.get(`/api/actions?where=${q({ host })}&sort=-_created`).set(auth('viewer'));
    expect(res.status).toBe(200);
    const items = (res.body as { _items: Array<Record<string, unknown>> })._items;
    expect(items.length).toBeGreaterThan(0);
    const times = items.map((a) => Date.parse(a._created as string));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    for (const action of items) {
      expect(action.host).toBe(host);
      expect(action._id).toBe(`${String(action.jid)}${host}`);
      expect(action.jid).toMatch(/^\d{20}$/);
      expect(action.state).toBe('finished');
      for (const arg of action.args as Array<Record<string, unknown>>) expect(arg.__kwarg__).toBe(true);
    }
    const hostDoc = await ts.request.get(`/api/hosts/${host}`).set(auth('viewer'));
    expect(hostDoc.body.last_action).toBe(items[0]?._id);
  });

  it('resolves the host names of rule groups, nested ones included', async () => {
    const names: string[][] = [];
    for (const id of seeded.ruleGroupIds) {
      const res = await ts.request.get(`/api/groups/${id}/hostnames`).set(auth('viewer'));
      expect(res.status).toBe(200);
      names.push(res.body as string[]);
    }
    expect(names.some((n) => n.length > 0)).toBe(true);
    const dc1Web = await ts.request
      .get(`/api/groups/${seeded.ruleGroupIds[0] ?? ''}/hostnames`)
      .set(auth('viewer'));
    expect((dc1Web.body as string[]).length).toBeGreaterThan(0);
    for (const name of dc1Web.body as string[]) expect(name).toMatch(/^web-\d+\.dc1\./);
    const groups = await ts.request.get(`/api/groups?where=${q({ name: 'Fleet' })}`).set(auth('viewer'));
    const root = (groups.body as { _items: Array<{ _id: string }> })._items[0]?._id ?? '';
    const all = await ts.request.get(`/api/groups/${root}/hostnames`).set(auth('viewer'));
    expect(all.body as string[]).toEqual(expect.arrayContaining(dc1Web.body as string[]));
  });
});
