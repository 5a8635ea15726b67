/**
 * The collection envelope and `_links` exactly as Eve renders them (eve/methods/get.py, v2.3.1): first,
 * middle, last and past-the-end pages, the empty page, the query repeated in Eve's order, item
 * links, and the write response.
 */
import {
  auth,
  expectEnvelope,
  insertAction,
  insertHosts,
  startTestServer,
  uniqueName,
  vpnManagerBody,
  type TestServer,
} from '../helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

/**
 * `{"identification_number":"<tag>"}` as a link carries it: quotes and braces percent-encoded,
 * `:` kept (RFC 3986 allows it in a query).
 */
const whereInLink = (tag: string): string =>
  `%7B%22identification_number%22:%22${encodeURIComponent(tag)}%22%7D`;

/** GET /api/hosts restricted to one fixture tag, with extra raw query parameters. */
function hostsPage(tag: string, extra: Record<string, string | number> = {}) {
  return s.request
    .get('/api/hosts')
    .query({ where: JSON.stringify({ identification_number: tag }), ...extra })
    .set(auth('viewer'));
}

describe('pagination links', () => {
  test('first page: self, next and last repeat the query; no prev', async () => {
    const { tag, docs } = await insertHosts(s.store, 5);
    const linked = whereInLink(tag);
    const body = expectEnvelope(await hostsPage(tag, { max_results: 2 }), {
      page: 1,
      maxResults: 2,
      total: 5,
    });
    expect(body._items.map((i) => i._id)).toEqual([docs[0]?._id, docs[1]?._id]);
    expect(body._links).toEqual({
      parent: { title: 'home', href: '/' },
      self: { title: 'hosts', href: `hosts?max_results=2&where=${linked}` },
      next: { title: 'next page', href: `hosts?max_results=2&where=${linked}&page=2` },
      last: { title: 'last page', href: `hosts?max_results=2&where=${linked}&page=3` },
    });
  });

  test('middle page: prev points at page 1 without a page parameter', async () => {
    const { tag, docs } = await insertHosts(s.store, 5);
    const linked = whereInLink(tag);
    const body = expectEnvelope(await hostsPage(tag, { max_results: 2, page: 2 }), {
      page: 2,
      maxResults: 2,
      total: 5,
    });
    expect(body._items.map((i) => i._id)).toEqual([docs[2]?._id, docs[3]?._id]);
    expect(body._links.self.href).toBe(`hosts?max_results=2&where=${linked}&page=2`);
    expect(body._links.prev).toEqual({ title: 'previous page', href: `hosts?max_results=2&where=${linked}` });
    expect(body._links.next?.href).toBe(`hosts?max_results=2&where=${linked}&page=3`);
    expect(body._links.last?.href).toBe(`hosts?max_results=2&where=${linked}&page=3`);
  });

  test('last page: the remaining items, prev, no next and no last', async () => {
    const { tag, docs } = await insertHosts(s.store, 5);
    const linked = whereInLink(tag);
    const body = expectEnvelope(await hostsPage(tag, { max_results: 2, page: 3 }), {
      page: 3,
      maxResults: 2,
      total: 5,
    });
    expect(body._items.map((i) => i._id)).toEqual([docs[4]?._id]);
    expect(body._links.prev?.href).toBe(`hosts?max_results=2&where=${linked}&page=2`);
  });

  test('a page past the end is 200 with no items, the real total and a prev link', async () => {
    const { tag } = await insertHosts(s.store, 3);
    const linked = whereInLink(tag);
    const body = expectEnvelope(await hostsPage(tag, { max_results: 2, page: 7 }), {
      page: 7,
      maxResults: 2,
      total: 3,
    });
    expect(body._items).toEqual([]);
    expect(body._links.self.href).toBe(`hosts?max_results=2&where=${linked}&page=7`);
    expect(body._links.prev?.href).toBe(`hosts?max_results=2&where=${linked}&page=6`);
  });

  test('an empty result has only parent and self, self repeating the query, and X-Total-Count 0', async () => {
    const nobody = uniqueName('nobody');
    const res = await hostsPage(nobody);
    const body = expectEnvelope(res, { page: 1, maxResults: 25, total: 0 });
    expect(body._links).toEqual({
      parent: { title: 'home', href: '/' },
      self: { title: 'hosts', href: `hosts?where=${whereInLink(nobody)}` },
    });
  });

  test('without max_results the page holds 25 items and links leave max_results out', async () => {
    const { tag } = await insertHosts(s.store, 27);
    const linked = whereInLink(tag);
    const body = expectEnvelope(await hostsPage(tag), { page: 1, maxResults: 25, total: 27 });
    expect(body._links.next?.href).toBe(`hosts?where=${linked}&page=2`);
    expect(body._links.last?.href).toBe(`hosts?where=${linked}&page=2`);
    const second = expectEnvelope(await hostsPage(tag, { page: 2, max_results: 25 }), {
      page: 2,
      maxResults: 25,
      total: 27,
    });
    expect(second._links.prev?.href).toBe(`hosts?where=${linked}`);
  });

  test("links repeat the query in Eve's order: max_results, where, sort, page, then other parameters", async () => {
    const { tag } = await insertHosts(s.store, 3);
    const where = JSON.stringify({ identification_number: tag });
    const linked = whereInLink(tag);
    const res = await s.request
      .get('/api/hosts')
      .query({
        show_soft_deleted: '1',
        page: '2',
        projection: '{"ip":1}',
        sort: '-_id',
        embedded: '{"groups":1}',
        where,
        max_results: '1',
      })
      .set(auth('viewer'));
    const body = expectEnvelope(res, { page: 2, maxResults: 1, total: 3 });
    // projection and embedded are not carried into the pagination links (eve.md §1.2).
    expect(body._links.self.href).toBe(
      `hosts?max_results=1&where=${linked}&sort=-_id&page=2&show_soft_deleted=1`,
    );
    expect(body._links.prev?.href).toBe(`hosts?max_results=1&where=${linked}&sort=-_id&show_soft_deleted=1`);
    expect(body._links.next?.href).toBe(
      `hosts?max_results=1&where=${linked}&sort=-_id&page=3&show_soft_deleted=1`,
    );
  });

  test('every href is relative to /api: no leading slash, no scheme, no /api prefix', async () => {
    const { tag } = await insertHosts(s.store, 3);
    const body = expectEnvelope(await hostsPage(tag, { max_results: 1, page: 2 }), {
      page: 2,
      maxResults: 1,
      total: 3,
    });
    const hrefs = [
      ...Object.entries(body._links)
        .filter(([k]) => k !== 'parent')
        .map(([, l]) => l.href),
      ...body._items.map((i) => (i._links as { self: { href: string } }).self.href),
    ];
    for (const href of hrefs) expect(href).toMatch(/^hosts(\/|\?|$)/);
  });
});

describe('items', () => {
  test('list items carry _id, _created, _updated, _etag and _links.self only', async () => {
    const { tag, docs } = await insertHosts(s.store, 1);
    const body = expectEnvelope(await hostsPage(tag), { page: 1, maxResults: 25, total: 1 });
    const item = body._items[0] ?? {};
    expect(item).toMatchObject({
      _id: docs[0]?._id,
      _etag: docs[0]?._etag,
      _created: expect.any(String),
      _updated: expect.any(String),
    });
    expect(item._links).toEqual({ self: { title: 'Host', href: `hosts/${String(docs[0]?._id)}` } });
  });

  test('items with references get _links.related pointing at the referenced items', async () => {
    const host = `${uniqueName('rel')}.fleet.test`;
    const action = await insertAction(s.store, host);
    const res = await s.request
      .get('/api/actions')
      .query({ where: JSON.stringify({ host }) })
      .set(auth('viewer'));
    const body = expectEnvelope(res, { page: 1, maxResults: 25, total: 1 });
    expect(body._items[0]?._links).toEqual({
      self: { title: 'Action', href: `actions/${action._id}` },
      related: { host: { title: 'Host', href: `hosts/${host}` } },
    });
  });

  test('an array reference gives an array of related links', async () => {
    const admin = auth('admin');
    const child = await s.request
      .post('/api/groups')
      .set(admin)
      .send({ name: uniqueName('child'), type: 1, info: { regex: '^web' } });
    const parent = await s.request
      .post('/api/groups')
      .set(admin)
      .send({ name: uniqueName('parent'), type: 0, subgroups: [child.body._id] });
    expect(parent.status).toBe(201);
    expect(parent.body._links.related).toEqual({
      subgroups: [{ title: 'Group', href: `groups/${String(child.body._id)}` }],
    });
    const item = await s.request.get(`/api/groups/${String(parent.body._id)}`).set(auth('viewer'));
    expect(item.body._links.related).toEqual(parent.body._links.related);
  });

  test('an item GET adds parent and collection links and no envelope', async () => {
    const { docs } = await insertHosts(s.store, 1);
    const id = String(docs[0]?._id);
    const res = await s.request.get(`/api/hosts/${id}`).set(auth('viewer'));
    expect(res.status).toBe(200);
    expect(res.body._links).toEqual({
      self: { title: 'Host', href: `hosts/${id}` },
      parent: { title: 'home', href: '/' },
      collection: { title: 'hosts', href: 'hosts' },
    });
    expect(res.body).not.toHaveProperty('_items');
    expect(res.body).not.toHaveProperty('_meta');
    expect(res.headers).not.toHaveProperty('x-total-count');
  });
});

describe('write responses', () => {
  test('POST answers 201 with _id, _created, _updated, _etag, _links and _status OK, and a Location', async () => {
    const res = await s.request.post('/api/vpn_managers').set(auth('admin')).send(vpnManagerBody());
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([
      '_created',
      '_etag',
      '_id',
      '_links',
      '_status',
      '_updated',
    ]);
    expect(res.body._status).toBe('OK');
    expect(res.body._id).toMatch(/^[0-9a-f]{24}$/);
    expect(res.body._links).toEqual({
      self: { title: 'Vpn_manager', href: `vpn_managers/${String(res.body._id)}` },
    });
    expect(res.headers.location).toBe(`/api/vpn_managers/${String(res.body._id)}`);
    const item = await s.request.get(`/api/vpn_managers/${String(res.body._id)}`).set(auth('viewer'));
    expect(item.body).toMatchObject({
      _id: res.body._id,
      _etag: res.body._etag,
      _created: res.body._created,
      _updated: res.body._updated,
    });
  });

  test('a JSON array creates several and answers {_status, _items}', async () => {
    const res = await s.request
      .post('/api/vpn_managers')
      .set(auth('admin'))
      .send([vpnManagerBody(), vpnManagerBody()]);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['_status', '_items']);
    expect(res.body._status).toBe('OK');
    expect(res.body._items).toHaveLength(2);
    for (const item of res.body._items as Record<string, unknown>[])
      expect(item).toMatchObject({ _status: 'OK', _id: expect.stringMatching(/^[0-9a-f]{24}$/) });
  });

  test('PATCH answers 200 with the write shape and a new _etag', async () => {
    const created = await s.request.post('/api/vpn_managers').set(auth('admin')).send(vpnManagerBody());
    const res = await s.request
      .patch(`/api/vpn_managers/${String(created.body._id)}`)
      .set(auth('admin'))
      .send({ username: 'someone-else' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      '_created',
      '_etag',
      '_id',
      '_links',
      '_status',
      '_updated',
    ]);
    expect(res.body._created).toBe(created.body._created);
    expect(res.body._etag).not.toBe(created.body._etag);
  });
});
