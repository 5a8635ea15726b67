/**
 * The snapshot loop's recording: a fleet changing under the loop (hosts flapping, upgraded,
 * soft-deleted, added and deleted for good), snapshot after snapshot, across a two-day pause
 * (a new block) and a restart (a new runtime continuing the stored history). Each recorded
 * snapshot reads back as the host list was, with one rule: `_updated` is the host's `_updated`
 * as of its last summary change (the heartbeat moves it every 5 minutes; recording that alone
 * would store hosts x snapshots). The statistics over the recording agree with the plain
 * computation over those snapshots.
 */
import { createEngine, formatHttpDate, type Engine } from '../../engine/src';
import { takeSnapshot } from '../../packages/server/src/snapshots';
import { allResources } from '../../resources';
import { auth, hostDoc, insertDoc, startTestServer, type TestServer } from '../helpers';
import { expected, KINDS, makeHistory, query, type FullSnapshot, type Summary } from './fixture';

const START = Date.UTC(2026, 3, 1, 6);
const PAUSE = 2 * 86_400_000;
const history = makeHistory({
  seed: 11,
  hosts: 20,
  count: 60,
  start: START,
  stepMs: 300_000,
  prefix: 'rec',
}).map((s, i) => (i < 30 ? s : { ...s, timestamp: new Date(s.timestamp.getTime() + PAUSE) }));
const FIELDS = [
  'version',
  'ip',
  'nodegroups',
  'status',
  'last_stateapply',
  'last_distupgrade',
  '_created',
  '_soft_deleted',
];

/** Same summary but for `_updated`. */
function sameBut_updated(a: Summary, b: Summary): boolean {
  return FIELDS.every((f) => f in a === f in b && JSON.stringify(a[f]) === JSON.stringify(b[f]));
}

/** The snapshots as recorded: a host whose summary did not change keeps its recorded `_updated`. */
function asRecorded(snaps: readonly FullSnapshot[]): FullSnapshot[] {
  let before = new Map<string, Summary>();
  return snaps.map((s) => {
    const hosts = s.hosts.map((h) => {
      const prev = before.get(h._id);
      return prev !== undefined && sameBut_updated(prev, h) ? prev : h;
    });
    before = new Map(hosts.map((h) => [h._id, h]));
    return { ...s, hosts };
  });
}
const recorded = asRecorded(history);

let s: TestServer;
const ids: string[] = [];
beforeAll(async () => {
  s = await startTestServer({ env: { SNAPSHOT_RETENTION_DAYS: '3650' } });
});
afterAll(() => s.close());

/** Puts the fleet of `snap` in the hosts collection, as the sync would have left it. */
async function fleetAs(snap: FullSnapshot): Promise<void> {
  await s.store.delete('hosts', {});
  for (const h of snap.hosts) {
    const { _created, _updated, ...fields } = h;
    const doc = hostDoc(h._id, fields);
    if (!('ip' in h)) delete doc.ip;
    await insertDoc(s.store, 'hosts', doc, { created: _created as Date, updated: _updated as Date });
  }
}

async function record(engine: Engine, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i += 1) {
    const snap = history[i] as FullSnapshot;
    await fleetAs(snap);
    const taken = await takeSnapshot(engine.runtime, snap.timestamp);
    expect(taken.index).toBe(i);
    ids.push(taken.id);
  }
}

const rendered = (hosts: readonly Summary[]) =>
  hosts.map((h) =>
    Object.fromEntries(Object.entries(h).map(([k, v]) => [k, v instanceof Date ? formatHttpDate(v) : v])),
  );
/** A single snapshot names the deletion flag `_deleted` (the spec's item shape); lists keep `_soft_deleted`. */
const renderedItem = (hosts: readonly Summary[]) =>
  rendered(hosts).map(({ _soft_deleted, ...rest }) => ({ ...rest, _deleted: _soft_deleted }));

test('snapshots recorded across a pause and a restart read back as the host list was', async () => {
  await record(s.engine, 0, 40);
  // A restart: a new runtime knows nothing of the history but what is stored.
  const restarted = createEngine({
    definitions: allResources,
    store: s.store,
    secrets: s.secrets,
    log: s.server.log,
  });
  await record(restarted, 40, history.length);
  for (const i of [0, 1, 29, 30, 31, 39, 40, 59]) {
    const res = await s.request.get(`/api/hosts_statistic/${ids[i] ?? ''}`).set(auth('viewer'));
    const snap = recorded[i] as FullSnapshot;
    expect(res.body).toMatchObject({
      index: i,
      timestamp: formatHttpDate(snap.timestamp),
      hosts: renderedItem(snap.hosts),
    });
  }
  const blocks = await s.store.count('hosts_history', { column: 'snapshots' });
  expect(blocks).toBeGreaterThanOrEqual(2);
});

test('the statistics over the recording agree with the plain computation', async () => {
  const ranges = [
    { start: new Date(START), end: new Date(START + PAUSE + 86_400_000) },
    { start: new Date(START + 20 * 300_000 + 1), end: new Date(START + PAUSE + 35 * 300_000) },
  ];
  const wheres = [
    undefined,
    { json: '{"nodegroups":"db"}', test: (h: Summary) => (h.nodegroups as string[]).includes('db') },
  ];
  for (const range of ranges) {
    for (const where of wheres) {
      for (const kind of KINDS) {
        const q = { ...range, ...(where ? { where } : {}) };
        const res = await s.request.get(`/api/hosts/statistics/${kind}?${query(q)}`).set(auth('viewer'));
        expect({ kind, q: query(q), body: res.body as unknown }).toEqual({
          kind,
          q: query(q),
          body: expected(kind, recorded, q),
        });
      }
    }
  }
});

test('a snapshot at or before the newest one is refused: the history only grows at its end', async () => {
  const last = history[history.length - 1] as FullSnapshot;
  await expect(takeSnapshot(s.engine.runtime, last.timestamp)).rejects.toThrow(
    /not after the newest snapshot/,
  );
});
