/**
 * The spec's two shapes of a snapshot's host summaries: a collection GET of `hosts_statistic` flags
 * a deleted host with `_soft_deleted`, a single-item GET with `_deleted` (spec: "The deletion flag
 * is `_soft_deleted` in list output and `_deleted` in the single-item output shown").
 */
import { auth, insertHost, startTestServer, type TestServer } from '../helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { SNAPSHOT_INTERVAL_S: '1' } });
});
afterAll(() => s.close());

type Summary = Record<string, unknown> & { _id: string };

it('lists flag a deleted host with _soft_deleted, an item with _deleted', async () => {
  await insertHost(s.store, 'item-up.fleet.test', { status: 'up' });
  await insertHost(s.store, 'item-gone.fleet.test', { status: 'down' });
  expect((await s.request.delete('/api/hosts/item-gone.fleet.test').set(auth('admin'))).status).toBe(204);
  let listed: { _id: string; hosts: Summary[] } | undefined;
  for (
    const deadline = Date.now() + 10_000;
    listed === undefined && Date.now() < deadline;
    await new Promise((r) => setTimeout(r, 200))
  ) {
    const page = await s.request.get('/api/hosts_statistic?sort=-index').set(auth('viewer'));
    listed = (page.body as { _items: { _id: string; hosts: Summary[] }[] })._items.find((snap) =>
      snap.hosts.some((h) => h._id === 'item-gone.fleet.test'),
    );
  }
  if (listed === undefined) throw new Error('no snapshot with the deleted host was taken');
  const inList = listed.hosts.find((h) => h._id === 'item-gone.fleet.test');
  expect(inList).toMatchObject({ _soft_deleted: true });
  expect(inList).not.toHaveProperty('_deleted');

  const item = await s.request.get(`/api/hosts_statistic/${listed._id}`).set(auth('viewer'));
  expect(item.status).toBe(200);
  const byId = new Map((item.body as { hosts: Summary[] }).hosts.map((h) => [h._id, h]));
  expect(byId.get('item-gone.fleet.test')).toMatchObject({ _deleted: true });
  expect(byId.get('item-up.fleet.test')).toMatchObject({ _deleted: false, status: 'up' });
  for (const h of byId.values()) expect(h).not.toHaveProperty('_soft_deleted');
});
