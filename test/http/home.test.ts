/**
 * Where a client starts: the root sends it to the home document, which lists only the resources a
 * client may list (internal ones, without HTTP methods, stay out); a create answers the new item's
 * version in `ETag`, as a PATCH does.
 */
import { auth, startTestServer, type TestServer } from '../helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

test('GET / sends the client to the home document, where the hrefs resolve', async () => {
  const root = await s.request.get('/');
  expect(root.status).toBe(302);
  expect(root.headers.location).toBe('/api/');
  const home = await s.request.get(root.headers.location as string).set(auth('viewer'));
  expect(home.status).toBe(200);
  const first = (home.body._links.child as { href: string }[])[0]?.href ?? '';
  const list = await s.request.get(new URL(first, `${s.url}/api/`).pathname).set(auth('viewer'));
  expect(list.status).toBe(200);
});

test('the home document lists every resource a client may list, and only those', async () => {
  const home = await s.request.get('/api').set(auth('viewer'));
  const listed = (home.body._links.child as { title: string; href: string }[]).map((c) => c.href);
  const callable = [...s.engine.registry.resources.values()]
    .filter((r) => r.def.methods.list !== undefined)
    .map((r) => r.name);
  expect(listed.sort()).toEqual(callable.sort());
  for (const internal of ['api_tokens', 'graph_jobs', 'hosts_history'])
    expect(listed).not.toContain(internal);
  for (const href of listed)
    expect((await s.request.get(`/api/${href}`).set(auth('viewer'))).status).toBe(200);
});

test('a 201 carries the ETag of the created item; a bulk create none', async () => {
  const one = await s.request
    .post('/api/alerts')
    .set(auth('operator'))
    .send({ type: 'host.down', payload: { hostname: 'web-1', status: 'down' } });
  expect(one.status).toBe(201);
  expect(one.headers.etag).toBe(`"${String(one.body._etag)}"`);
  const read = await s.request.get(`/api/alerts/${String(one.body._id)}`).set(auth('viewer'));
  expect(read.headers.etag).toBe(one.headers.etag);
  const bulk = await s.request
    .post('/api/alerts')
    .set(auth('operator'))
    .send([{ type: 'a' }, { type: 'b' }]);
  expect(bulk.status).toBe(201);
  expect(bulk.headers.etag).toBeUndefined();
});
