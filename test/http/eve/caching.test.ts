/**
 * Caching headers as Eve sets them (`eve/methods/get.py`): `Last-Modified` on
 * item GETs (the item's `_updated`, or a newer one of an item embedded in it) and on collection
 * GETs (the newest `_updated` of the page). Items answer `If-None-Match` / `If-Modified-Since` with
 * 304 when every validator given agrees (`If-Modified-Since` one second lenient, Eve's
 * `weak_date`). A collection never answers 304: it has no ETag, and Eve ignores If-Modified-Since
 * there (#334); `If-None-Match: *` used to be a 304 through Express's freshness check.
 */
import { auth, insertAction, insertHost, insertHosts, uniqueName, type TestServer } from '../../helpers';
import { startEveServer } from './_widgets';

let t: TestServer;
beforeAll(async () => {
  t = await startEveServer();
});
afterAll(() => t.close());

const viewer = auth('viewer');
const at = (iso: string) => new Date(iso);
const http = (iso: string) => at(iso).toUTCString();

async function host(updated: string): Promise<string> {
  return (
    await insertHost(
      t.store,
      `${uniqueName('c')}.fleet.test`,
      {},
      { created: at('2026-01-01T00:00:00Z'), updated: at(updated) },
    )
  )._id;
}

describe('item GET', () => {
  it('sends Last-Modified: the item’s _updated, RFC 1123', async () => {
    const id = await host('2026-03-04T05:06:07Z');
    const res = await t.request.get(`/api/hosts/${id}`).set(viewer);
    expect(res.status).toBe(200);
    expect(res.headers['last-modified']).toBe('Wed, 04 Mar 2026 05:06:07 GMT');
  });

  it.each([
    ['the same date', 304, '2026-03-04T05:06:07Z'],
    ['a later date', 304, '2026-03-05T00:00:00Z'],
    ['one second earlier (Eve allows the second the header cannot say)', 304, '2026-03-04T05:06:06Z'],
    ['two seconds earlier', 200, '2026-03-04T05:06:05Z'],
  ])('If-Modified-Since %s: %i', async (_case, status, since) => {
    const id = await host('2026-03-04T05:06:07Z');
    const res = await t.request.get(`/api/hosts/${id}`).set(viewer).set('If-Modified-Since', http(since));
    expect(res.status).toBe(status);
    if (status === 304) {
      expect(res.text ?? '').toBe('');
      expect(res.headers.etag).toMatch(/^"[0-9a-f]{40}"$/);
      expect(res.headers['last-modified']).toBe('Wed, 04 Mar 2026 05:06:07 GMT');
    } else expect((res.body as { _id: string })._id).toBe(id);
  });

  it('a 304 needs every validator given to agree (Eve’s cache_validators)', async () => {
    const id = await host('2026-03-04T05:06:07Z');
    const etag = String((await t.request.get(`/api/hosts/${id}`).set(viewer)).headers.etag);
    const fresh = http('2026-03-04T05:06:07Z');
    const stale = http('2026-01-01T00:00:00Z');
    const get = (inm: string, ims: string) =>
      t.request.get(`/api/hosts/${id}`).set(viewer).set('If-None-Match', inm).set('If-Modified-Since', ims);
    expect((await get(etag, fresh)).status).toBe(304);
    expect((await get(etag, stale)).status).toBe(200);
    expect((await get('"0000000000000000000000000000000000000000"', fresh)).status).toBe(200);
  });

  it('an If-Modified-Since that is not an HTTP date is ignored (RFC 9110 §13.1.3)', async () => {
    const id = await host('2026-03-04T05:06:07Z');
    for (const since of ['yesterday', '2026-03-05', '']) {
      const res = await t.request.get(`/api/hosts/${id}`).set(viewer).set('If-Modified-Since', since);
      expect(res.status).toBe(200);
    }
  });

  it('an embedded item updated later moves Last-Modified, so a cached copy is not reused', async () => {
    const target = await host('2026-06-01T12:00:00Z');
    const action = await insertAction(t.store, target, {}, { created: at('2026-05-01T00:00:00Z') });
    const plain = await t.request.get(`/api/actions/${action._id}`).set(viewer);
    expect(plain.headers['last-modified']).toBe('Fri, 01 May 2026 00:00:00 GMT');
    const embedded = await t.request
      .get(`/api/actions/${action._id}`)
      .query({ embedded: '{"host": 1}' })
      .set(viewer);
    expect(embedded.headers['last-modified']).toBe('Mon, 01 Jun 2026 12:00:00 GMT');
    const since = http('2026-05-01T00:00:00Z');
    expect(
      (await t.request.get(`/api/actions/${action._id}`).set(viewer).set('If-Modified-Since', since)).status,
    ).toBe(304);
    expect(
      (
        await t.request
          .get(`/api/actions/${action._id}`)
          .query({ embedded: '{"host": 1}' })
          .set(viewer)
          .set('If-Modified-Since', since)
      ).status,
    ).toBe(200);
  });
});

describe('collection GET', () => {
  async function fleet(): Promise<string> {
    const updated = ['2026-02-01T00:00:00Z', '2026-02-03T00:00:00Z', '2026-02-09T00:00:00Z'];
    const { tag, docs } = await insertHosts(t.store, 3);
    for (const [i, doc] of docs.entries())
      await t.store.update('hosts', { _id: doc._id }, { $set: { _updated: at(updated[i] ?? '') } });
    return tag;
  }

  it('sends Last-Modified: the newest _updated of the items on the page', async () => {
    const tag = await fleet();
    const where = JSON.stringify({ identification_number: tag });
    const all = await t.request.get('/api/hosts').query({ where }).set(viewer);
    expect(all.headers['last-modified']).toBe('Mon, 09 Feb 2026 00:00:00 GMT');
    const first = await t.request
      .get('/api/hosts')
      .query({ where, sort: '_id', max_results: '2' })
      .set(viewer);
    expect(first.headers['last-modified']).toBe('Tue, 03 Feb 2026 00:00:00 GMT');
    expect(first.headers.etag).toBeUndefined();
  });

  it('an empty page sends no Last-Modified', async () => {
    const res = await t.request
      .get('/api/hosts')
      .query({ where: JSON.stringify({ identification_number: uniqueName('none') }) })
      .set(viewer);
    expect(res.status).toBe(200);
    expect(res.headers['last-modified']).toBeUndefined();
  });

  it.each([
    ['If-None-Match: *', { 'If-None-Match': '*' }],
    ['If-None-Match: a list of weak and strong tags', { 'If-None-Match': 'W/"x", "y"' }],
    ['If-Modified-Since in the future', { 'If-Modified-Since': http('2099-01-01T00:00:00Z') }],
    ['both', { 'If-None-Match': '*', 'If-Modified-Since': http('2099-01-01T00:00:00Z') }],
  ])('%s is never a 304: the page comes back', async (_case, headers) => {
    const tag = await fleet();
    const res = await t.request
      .get('/api/hosts')
      .query({ where: JSON.stringify({ identification_number: tag }) })
      .set(viewer)
      .set(headers);
    expect(res.status).toBe(200);
    expect((res.body as { _items: unknown[] })._items).toHaveLength(3);
    const head = await t.request
      .head('/api/hosts')
      .query({ where: JSON.stringify({ identification_number: tag }) })
      .set(viewer)
      .set(headers);
    expect(head.status).toBe(200);
  });

  it('the home document is never a 304 either (it has no validator)', async () => {
    const res = await t.request.get('/api').set(viewer).set('If-None-Match', '*');
    expect(res.status).toBe(200);
    expect((res.body as { _links: { child: unknown[] } })._links.child.length).toBeGreaterThan(0);
  });

  it('a custom route’s list is never a 304 either', async () => {
    const res = await t.request.get('/api/hosts/statistics/online').set(viewer).set('If-None-Match', '*');
    expect(res.status).toBe(200);
  });
});
