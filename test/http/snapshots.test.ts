/**
 * Host-list snapshots: with SNAPSHOT_INTERVAL_S=1 the server writes `hosts_statistic` items on its
 * own, each summarising every host (soft-deleted ones flagged), with rising `index`; snapshots
 * older than SNAPSHOT_RETENTION_DAYS are deleted.
 */
import { auth, insertHost, startTestServer, type TestServer } from '../helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { SNAPSHOT_INTERVAL_S: '1', SNAPSHOT_RETENTION_DAYS: '1' } });
});
afterAll(() => s.close());

interface Snapshot {
  _id: string;
  index: number;
  timestamp: string;
  hosts: { _id: string; status?: string; _soft_deleted: boolean; nodegroups: string[] }[];
}

async function snapshots(): Promise<Snapshot[]> {
  const res = await s.request.get('/api/hosts_statistic?sort=-index&max_results=100').set(auth('viewer'));
  expect(res.status).toBe(200);
  return (res.body as { _items: Snapshot[] })._items;
}

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting for a snapshot');
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('snapshots summarise every host, flag soft-deleted ones, count up and expire', async () => {
  await insertHost(s.store, 'snap-up.fleet.test', { status: 'up', version: '3006.9' });
  await insertHost(s.store, 'snap-gone.fleet.test', { status: 'down' });
  expect((await s.request.delete('/api/hosts/snap-gone.fleet.test').set(auth('admin'))).status).toBe(204);
  const old = new Date(Date.now() - 3 * 86_400_000);
  await s.store.insert('hosts_statistic', [
    { _id: 'ancient', hosts: [], timestamp: old, index: -1, _created: old, _updated: old, _etag: 'e' },
  ]);

  // A snapshot may be in flight while the host is deleted (one a second): the second one written
  // after the delete began after it (snapshots run one after another), so it sees the deletion.
  const seen = Math.max(-1, ...(await snapshots()).map((snap) => snap.index));
  const latest = await eventually(async () =>
    (await snapshots()).find(
      (snap) => snap.index >= seen + 2 && snap.hosts.some((h) => h._id === 'snap-gone.fleet.test'),
    ),
  );
  const byId = new Map(latest.hosts.map((h) => [h._id, h]));
  expect(byId.get('snap-up.fleet.test')).toMatchObject({ status: 'up', _soft_deleted: false });
  expect(byId.get('snap-gone.fleet.test')).toMatchObject({ _soft_deleted: true });
  expect(latest.timestamp).toMatch(/GMT$/);

  const two = await eventually(async () => {
    const all = await snapshots();
    return all.filter((snap) => snap.index >= 0).length >= 2 ? all : undefined;
  });
  const indexes = two.map((snap) => snap.index);
  expect(indexes).toEqual([...indexes].sort((a, b) => b - a));
  expect(new Set(indexes).size).toBe(indexes.length);
  expect(two.some((snap) => snap._id === 'ancient')).toBe(false);
});
