/**
 * The statistics over a random fleet history (hosts flapping, upgrading, changing groups and
 * addresses, soft-deleted and back, coming and going, `_updated` moving with every heartbeat)
 * stored as full snapshots, the way versions before the compact history stored them: every
 * statistic answers as the plain computation over the full snapshots says, before and after the
 * conversion into the compact history, for ranges that start between snapshots, hold one or none,
 * and for `where` on the summary fields. Converted snapshots read back exactly as stored.
 */
import { formatHttpDate } from '../../engine/src';
import { convertSnapshots } from '../../packages/server/src/snapshots';
import { auth, startTestServer, type TestServer } from '../helpers';
import { asDoc, expected, KINDS, makeHistory, query, type Summary, type WhereCase } from './fixture';

const START = Date.UTC(2026, 4, 1, 8);
const STEP = 300_000;
const history = makeHistory({ seed: 7, hosts: 25, count: 160, start: START, stepMs: STEP });
const at = (i: number) => new Date(START + i * STEP);
const MID = at(80);

const WHERES: readonly (WhereCase | undefined)[] = [
  undefined,
  { json: '{"nodegroups":"web"}', test: (h) => (h.nodegroups as string[]).includes('web') },
  { json: '{"version":{"$regex":"^3006"}}', test: (h) => /^3006/.test(String(h.version)) },
  { json: '{"ip":{"$exists":false}}', test: (h) => !('ip' in h) },
  {
    json: '{"$or":[{"nodegroups":"db"},{"version":"3007.1"}]}',
    test: (h) => (h.nodegroups as string[]).includes('db') || h.version === '3007.1',
  },
  { json: `{"_updated":{"$gte":"${MID.toISOString()}"}}`, test: (h) => (h._updated as Date) >= MID },
];
const RANGES = [
  { start: new Date(START - 3_600_000), end: at(170) },
  { start: new Date(at(20).getTime() + 150_000), end: at(90) },
  { start: at(50), end: at(50) },
  { start: new Date(START - 7_200_000), end: new Date(START - 3_600_000) },
];

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ logLevel: 'info', env: { SNAPSHOT_RETENTION_DAYS: '3650' } });
  await s.store.insert('hosts_statistic', history.map(asDoc));
});
afterAll(() => s.close());

async function checkEveryStatistic(): Promise<number> {
  let checked = 0;
  for (const range of RANGES) {
    for (const where of WHERES) {
      for (const kind of KINDS) {
        const q = {
          ...range,
          ...(where ? { where } : {}),
          ...(kind === 'online' && where === undefined ? { interval: 600 } : {}),
        };
        const res = await s.request.get(`/api/hosts/statistics/${kind}?${query(q)}`).set(auth('viewer'));
        expect({ kind, q: query(q), status: res.status, body: res.body as unknown }).toEqual({
          kind,
          q: query(q),
          status: 200,
          body: expected(kind, history, q),
        });
        checked += 1;
      }
    }
  }
  return checked;
}

const rendered = (hosts: readonly Summary[]) =>
  hosts.map((h) =>
    Object.fromEntries(Object.entries(h).map(([k, v]) => [k, v instanceof Date ? formatHttpDate(v) : v])),
  );
/** A single snapshot names the deletion flag `_deleted` (the spec's item shape); lists keep `_soft_deleted`. */
const renderedItem = (hosts: readonly Summary[]) =>
  rendered(hosts).map(({ _soft_deleted, ...rest }) => ({ ...rest, _deleted: _soft_deleted }));

test('full snapshots: every statistic answers as the plain computation over them', async () => {
  expect(await checkEveryStatistic()).toBe(RANGES.length * WHERES.length * KINDS.length);
});

test('converted into the compact history: the conversion says what it did, and every statistic answers the same', async () => {
  await convertSnapshots({ runtime: s.engine.runtime, log: s.server.log, retentionDays: 3650 });
  const converted = [...s.logs().matchAll(/converted (\d+) full host-list snapshot/g)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
  expect(converted).toBe(history.length);
  const stored = await s.store.find('hosts_statistic', {}, { projection: { hosts: 1 } });
  expect(stored.every((d) => Array.isArray(d.hosts) && d.hosts.length === 0)).toBe(true);
  expect(await s.store.count('hosts_history', {})).toBeGreaterThan(0);
  await checkEveryStatistic();
});

test('a converted snapshot reads back exactly as it was stored, in the list and as an item', async () => {
  for (const i of [0, 1, 37, 80, 159]) {
    const snap = history[i];
    if (snap === undefined) throw new Error('no such snapshot');
    const item = await s.request.get(`/api/hosts_statistic/${snap._id}`).set(auth('viewer'));
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({
      _id: snap._id,
      index: snap.index,
      timestamp: formatHttpDate(snap.timestamp),
      hosts: renderedItem(snap.hosts),
    });
  }
  const page = await s.request
    .get('/api/hosts_statistic?sort=index&max_results=3&page=27')
    .set(auth('viewer'));
  const items = (page.body as { _items: { _id: string; hosts: unknown }[] })._items;
  expect(items.map((i) => i._id)).toEqual(history.slice(78, 81).map((h) => h._id));
  expect(items.map((i) => i.hosts)).toEqual(history.slice(78, 81).map((h) => rendered(h.hosts)));
  const bare = await s.request
    .get(`/api/hosts_statistic?sort=index&max_results=2&projection=${encodeURIComponent('{"hosts":0}')}`)
    .set(auth('viewer'));
  expect((bare.body as { _items: Record<string, unknown>[] })._items.every((i) => !('hosts' in i))).toBe(
    true,
  );
});
