/**
 * alerts through HTTP: `mark_as_read=1` persists `read: true` on exactly the alerts it returns,
 * needs the operator role, and plain reads stay open to viewers.
 */
import {
  auth,
  expectEnvelope,
  expectEveError,
  insertDoc,
  startTestServer,
  uniqueName,
  type TestServer,
} from '../../helpers';
import { q } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** Inserts `count` unread alerts of a fresh type, oldest first; returns the type and their ids. */
async function insertAlerts(count: number): Promise<{ type: string; ids: string[] }> {
  const type = uniqueName('vnc.connect');
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const doc = await insertDoc(
      t.store,
      'alerts',
      {
        _id: uniqueName('al'),
        type,
        level: 'info',
        payload: { hostname: `web-${i}.fleet.test`, status: 'connected' },
        read: false,
      },
      { created: new Date(Date.UTC(2026, 10, 25, 10, i)) },
    );
    ids.push(doc._id);
  }
  return { type, ids };
}

const readFlags = async (ids: string[]) => {
  const docs = await t.store.find('alerts', { _id: { $in: ids } }, { sort: [['_created', 1]] });
  return docs.map((d) => d.read);
};

describe('GET /api/alerts?mark_as_read=1', () => {
  it('returns the alerts as read and persists read: true', async () => {
    const { type, ids } = await insertAlerts(2);
    const where = `where=${q({ type })}`;
    const marked = expectEnvelope(
      await t.request.get(`/api/alerts?${where}&mark_as_read=1`).set(auth('operator')),
      { page: 1, maxResults: 25, total: 2 },
    );
    expect(marked._items.map((a) => a.read)).toEqual([true, true]);
    const again = expectEnvelope(await t.request.get(`/api/alerts?${where}`).set(auth('viewer')), {
      page: 1,
      maxResults: 25,
      total: 2,
    });
    expect(again._items.map((a) => a.read)).toEqual([true, true]);
    expect(await readFlags(ids)).toEqual([true, true]);
  });

  it('marks only the alerts of the returned page', async () => {
    const { type, ids } = await insertAlerts(3);
    // Newest first by default: page 1 of size 1 is the last inserted alert.
    const page = expectEnvelope(
      await t.request
        .get(`/api/alerts?where=${q({ type })}&max_results=1&mark_as_read=1`)
        .set(auth('operator')),
      {
        page: 1,
        maxResults: 1,
        total: 3,
      },
    );
    expect(page._items[0]?._id).toBe(ids[2]);
    expect(await readFlags(ids)).toEqual([false, false, true]);
  });

  it('marks one alert on an item GET', async () => {
    const { ids } = await insertAlerts(2);
    const res = await t.request.get(`/api/alerts/${ids[0] ?? ''}?mark_as_read=1`).set(auth('operator'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: ids[0], read: true });
    expect(await readFlags(ids)).toEqual([true, false]);
  });

  it('refuses a viewer with 403 and marks nothing', async () => {
    const { type, ids } = await insertAlerts(2);
    expectEveError(
      await t.request.get(`/api/alerts?where=${q({ type })}&mark_as_read=1`).set(auth('viewer')),
      403,
    );
    expectEveError(
      await t.request.get(`/api/alerts/${ids[0] ?? ''}?mark_as_read=1`).set(auth('viewer')),
      403,
    );
    expect(await readFlags(ids)).toEqual([false, false]);
  });

  it('lets a viewer read without it, and mark_as_read=0 changes nothing', async () => {
    const { type, ids } = await insertAlerts(2);
    const page = expectEnvelope(await t.request.get(`/api/alerts?where=${q({ type })}`).set(auth('viewer')), {
      page: 1,
      maxResults: 25,
      total: 2,
    });
    expect(page._items.map((a) => a.read)).toEqual([false, false]);
    expect(page._items[0]).toMatchObject({
      type,
      level: 'info',
      payload: { hostname: 'web-1.fleet.test', status: 'connected' },
    });
    await t.request
      .get(`/api/alerts?where=${q({ type })}&mark_as_read=0`)
      .set(auth('operator'))
      .expect(200);
    expect(await readFlags(ids)).toEqual([false, false]);
  });

  it('keeps the _etag of an alert in step with its change', async () => {
    const { ids } = await insertAlerts(1);
    const id = ids[0] ?? '';
    const before = await t.request.get(`/api/alerts/${id}`).set(auth('viewer'));
    const marked = await t.request.get(`/api/alerts/${id}?mark_as_read=1`).set(auth('operator'));
    expect(marked.headers.etag).toBe(`"${(marked.body as { _etag: string })._etag}"`);
    const after = await t.request
      .get(`/api/alerts/${id}`)
      .set(auth('viewer'))
      .set('If-None-Match', String(before.headers.etag));
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});
