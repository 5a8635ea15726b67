/**
 * Full snapshots meeting a compact history already recorded: older ones are converted into blocks
 * before it, newer ones (an older instance still writing during a rolling upgrade) appended after
 * it, one inside its span stays as stored and is read as it is; a snapshot whose item write was
 * lost gets its item back; pruning keeps what is left readable. The statistics agree with the
 * plain computation throughout.
 */
import { convertSnapshots, pruneSnapshots, takeSnapshot } from '../../packages/server/src/snapshots';
import { auth, hostDoc, insertDoc, startTestServer, type TestServer } from '../helpers';
import { asDoc, expected, KINDS, makeHistory, query, type FullSnapshot, type Summary } from './fixture';

const START = Date.UTC(2026, 2, 1, 6);
const STEP = 300_000;
const history = makeHistory({ seed: 5, hosts: 12, count: 25, start: START, stepMs: STEP, prefix: 'mig' });
const at = (i: number) => new Date(START + i * STEP);
const snap = (i: number) => history[i] as FullSnapshot;
/** A full snapshot written between the recorded 12th and 13th, by hand. */
const inside: FullSnapshot = {
  ...snap(12),
  _id: 'miginside000000000000000',
  index: 1000,
  timestamp: new Date(at(12).getTime() + 60_000),
};

let s: TestServer;
const recordedIds = new Map<number, string>();
beforeAll(async () => {
  s = await startTestServer({ logLevel: 'info', env: { SNAPSHOT_RETENTION_DAYS: '3650' } });
  // 10..19 recorded by the loop, in a fleet whose `_updated` only moves with its summary.
  for (let i = 10; i < 20; i += 1) {
    await s.store.delete('hosts', {});
    for (const h of snap(i).hosts) {
      const { _created, _updated, ...fields } = h;
      const doc = hostDoc(h._id, fields);
      if (!('ip' in h)) delete doc.ip;
      await insertDoc(s.store, 'hosts', doc, { created: _created as Date, updated: _updated as Date });
    }
    recordedIds.set(i, (await takeSnapshot(s.engine.runtime, at(i))).id);
  }
  await s.store.insert('hosts_statistic', [...history.slice(0, 10), ...history.slice(20), inside].map(asDoc));
});
afterAll(() => s.close());

/** What the recorded part reads as: `_updated` as of each host's last summary change (from 10 on). */
function readable(): FullSnapshot[] {
  const out: FullSnapshot[] = [];
  let before = new Map<string, Summary>();
  history.forEach((x, i) => {
    if (i < 10 || i >= 20) return out.push(x);
    const same = (a: Summary, b: Summary) =>
      JSON.stringify({ ...a, _updated: 0 }) === JSON.stringify({ ...b, _updated: 0 });
    const hosts = x.hosts.map((h) =>
      before.has(h._id) && same(before.get(h._id) as Summary, h) ? (before.get(h._id) as Summary) : h,
    );
    before = new Map(hosts.map((h) => [h._id, h]));
    return out.push({ ...x, hosts });
  });
  return [...out, inside];
}

async function expectStatistics(
  snapshots: readonly FullSnapshot[],
  range: { start: Date; end: Date },
): Promise<void> {
  for (const kind of KINDS) {
    const res = await s.request.get(`/api/hosts/statistics/${kind}?${query(range)}`).set(auth('viewer'));
    expect({ kind, body: res.body as unknown }).toEqual({ kind, body: expected(kind, snapshots, range) });
  }
}

test('older full snapshots go before the history, newer ones after it, one inside it stays as stored', async () => {
  const done = await convertSnapshots({ runtime: s.engine.runtime, log: s.server.log, retentionDays: 3650 });
  expect(done).toMatchObject({ converted: 15, skipped: 1 });
  expect(s.logs()).toMatch(/converted 15 full host-list snapshot/);
  expect(s.logs()).toMatch(/left as they are/);
  const items = await s.store.find('hosts_statistic', {}, { sort: [['timestamp', 1]] });
  expect(items.filter((d) => Array.isArray(d.hosts) && d.hosts.length > 0).map((d) => d._id)).toEqual([
    inside._id,
  ]);
  await expectStatistics(readable(), { start: at(0), end: at(30) });
  const item = await s.request.get(`/api/hosts_statistic/${inside._id}`).set(auth('viewer'));
  expect((item.body as { hosts: { _id: string }[] }).hosts.map((h) => h._id)).toEqual(
    inside.hosts.map((h) => h._id),
  );
});

test('a snapshot whose item was lost gets it back, its host list read from the history', async () => {
  const lost = recordedIds.get(15) ?? '';
  await s.store.delete('hosts_statistic', { _id: lost });
  await convertSnapshots({ runtime: s.engine.runtime, log: s.server.log, retentionDays: 3650 });
  expect(s.logs()).toMatch(/without their hosts_statistic item were given one/);
  const res = await s.request.get(`/api/hosts_statistic/${lost}`).set(auth('viewer'));
  expect(res.status).toBe(200);
  expect((res.body as { hosts: { _id: string }[] }).hosts.map((h) => h._id)).toEqual(
    snap(15).hosts.map((h) => h._id),
  );
});

test('pruning deletes the items before the retention and the blocks that end before it; the rest reads the same', async () => {
  const historyRows = await s.store.count('hosts_history', {});
  const now = new Date(at(17).getTime() + 86_400_000);
  const pruned = await pruneSnapshots(s.engine.runtime, now, 1);
  expect(pruned).toBe(18); // 0..16 and the one written inside
  expect(await s.store.count('hosts_statistic', { timestamp: { $lt: at(17) } })).toBe(0);
  expect(await s.store.count('hosts_history', {})).toBeLessThan(historyRows);
  const kept = readable().filter((x) => x.timestamp >= at(17));
  await expectStatistics(kept, { start: at(17), end: at(30) });
});
