/**
 * POST /api/graph and GET /api/graph/not-linked without a master: the body's
 * 422s naming the field, roles, request_ips answering 503 with no master configured, build_graph
 * from stored hosts (gateways reconciled, the direct group, one root, other type 2/4 groups
 * replaced, types 0 and 1 untouched), the settings' flat and nested forms, and the routes in the
 * OpenAPI document.
 */
import {
  auth,
  expectEveError,
  hostDoc,
  insertDoc,
  startTestServer,
  uniqueName,
  type TestServer,
} from '../helpers';
import { group, ids } from './support';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});

afterAll(async () => {
  await s.close();
});

const post = (body: unknown, role: 'admin' | 'operator' | 'viewer' = 'admin') =>
  s.request
    .post('/api/graph')
    .set(auth(role))
    .send(body as object);

test.each([
  [{}, ['action'], 'required field'],
  [{ action: 'draw' }, ['action'], 'unallowed value "draw"'],
  [{ action: 'build_graph' }, ['master'], 'required field'],
  [{ action: 'build_graph', master: 7 }, ['master'], 'must be of string type'],
  [{ action: 'build_graph', master: '' }, ['master'], 'min length is 1'],
  [
    { action: 'build_graph', master: 'm', ip_resolver: 'http://r/' },
    ['ip_resolver'],
    'only with action request_ips',
  ],
  [{ action: 'request_ips', master: 'm' }, ['master'], 'only with action build_graph'],
  [
    { action: 'request_ips', ip_resolver: 'ftp://resolver.example.net/' },
    ['ip_resolver'],
    'must be an http or https URL',
  ],
  [
    { action: 'request_ips', ip_resolver: 'resolver.example.net/ip' },
    ['ip_resolver'],
    'must be an http or https URL',
  ],
  [
    { action: 'request_ips', ip_resolver: 'http://user:pw@resolver.example.net/' },
    ['ip_resolver'],
    'must not carry credentials (user:password@)',
  ],
  [{ action: 'request_ips', ip_resolver: 42 }, ['ip_resolver'], 'must be of string type'],
  [{ action: 'request_ips', extra: 1 }, ['extra'], 'unknown field'],
])('POST /api/graph %j is a 422 naming the field', async (body, fields, message) => {
  const res = await post(body);
  const err = expectEveError(res, 422, { issues: fields });
  expect(err._issues?.[fields[0] ?? '']).toBe(message);
  expect(res.text).not.toContain('pw@');
});

test('request_ips: no resolver anywhere is a 422 naming ip_resolver; with one but no master, a 503 saying how to configure it', async () => {
  expect(
    expectEveError(await post({ action: 'request_ips' }), 422, { issues: ['ip_resolver'] })._issues?.[
      'ip_resolver'
    ],
  ).toMatch(/settings\.addresses\.resolver_address is empty/);
  expect(
    expectEveError(await post({ action: 'request_ips', ip_resolver: 'https://resolver.example.net/ip' }), 503)
      ._error.message,
  ).toMatch(/SALT_API_URL/);
});

test('the graph actions are for admins; the reads for viewers', async () => {
  expectEveError(await post({ action: 'build_graph', master: 'm' }, 'operator'), 403);
  expect((await s.request.get('/api/graph/not-linked').set(auth('viewer'))).status).toBe(200);
  expectEveError(await s.request.get('/api/graph/jobs/000000000000000000000000').set(auth('viewer')), 404);
});

test('build_graph from the stored hosts: one gateway per NAT address, the direct group, a root; other type 2-4 groups replaced; types 0 and 1 untouched', async () => {
  const a = [uniqueName('nat-a'), uniqueName('nat-a')];
  const b = [uniqueName('nat-b')];
  const d = [uniqueName('direct'), uniqueName('direct')];
  for (const id of a) await insertDoc(s.store, 'hosts', hostDoc(id, { ip: '203.0.113.1', nat: true }));
  for (const id of b) await insertDoc(s.store, 'hosts', hostDoc(id, { ip: '203.0.113.2', nat: true }));
  for (const id of d) await insertDoc(s.store, 'hosts', hostDoc(id, { ip: '10.0.0.10', nat: false }));
  const staleGateway = await group(s, { type: 3, info: { ip: '192.0.2.200' } });
  const oldRoot = await group(s, { type: 2 });
  const oldDirect = await group(s, { type: 4 });
  const rule = await group(s, { type: 1, info: { regex: 'nat-' } });
  const container = await group(s, { subgroups: [rule] });
  const before = await s.store.find('groups', { _id: { $in: [rule, container] } });

  const res = await post({ action: 'build_graph', master: 'salt.example.com' });
  expect(res.status).toBe(200);
  const built = res.body as { _id: string; name: string; gateways: string[]; direct: string };
  expect(built.name).toBe('salt.example.com');
  expect(built.gateways).toHaveLength(2);
  const gw = await Promise.all(
    built.gateways.map(
      async (id) =>
        (await s.request.get(`/api/groups/${id}`).set(auth('viewer'))).body as {
          type: number;
          info: { ip: string };
        },
    ),
  );
  expect(gw.map((g) => [g.type, g.info.ip])).toEqual([
    [3, '203.0.113.1'],
    [3, '203.0.113.2'],
  ]);
  expect(
    (await s.request.get(`/api/groups/${built.gateways[0] ?? ''}/hostnames`).set(auth('viewer'))).body,
  ).toEqual([...a].sort());
  expect((await s.request.get(`/api/groups/${built.direct}/hostnames`).set(auth('viewer'))).body).toEqual(
    expect.arrayContaining(d),
  );
  for (const id of [staleGateway, oldRoot, oldDirect])
    expectEveError(await s.request.get(`/api/groups/${id}`).set(auth('viewer')), 404);
  expect(await s.store.find('groups', { _id: { $in: [rule, container] } })).toEqual(before);
  const types = await s.request
    .get('/api/groups')
    .query({ where: JSON.stringify({ type: { $in: [2, 3, 4] } }) })
    .set(auth('viewer'));
  expect((types.body as { _meta: { total: number } })._meta.total).toBe(4);

  const root = await s.request.get(`/api/graph/${built._id}`).set(auth('viewer'));
  expect(ids((root.body as { nodes: [] }).nodes)).toEqual([built._id, ...built.gateways, built.direct]);
  expect((await s.request.get('/api/graph/not-linked').set(auth('viewer'))).body).toEqual({ nodes: [] });
});

test("settings take the spec's flat form and the nested one; unknown keys, conflicts and non-http resolvers are 422s", async () => {
  const patch = (body: object) => s.request.patch('/api/settings/0').set(auth('admin')).send(body);
  expect((await patch({ addresses: { master_address: 'salt.example.com' } })).status).toBe(200);
  expect((await patch({ resolver_address: 'https://ip.example.com/' })).status).toBe(200);
  const read = async () =>
    (await s.request.get('/api/settings/0').set(auth('viewer'))).body as {
      addresses: Record<string, unknown>;
    } & Record<string, unknown>;
  const item = await read();
  expect(item.addresses).toMatchObject({
    resolver_address: 'https://ip.example.com/',
    master_address: 'salt.example.com',
  });
  expect(item).not.toHaveProperty('resolver_address');
  expect((await patch({ addresses: { resolver_address: 'http://other.example.com/ip' } })).status).toBe(200);
  expect((await read()).addresses).toMatchObject({
    resolver_address: 'http://other.example.com/ip',
    master_address: 'salt.example.com',
  });
  expect((await patch({ resolver_address: '' })).status).toBe(200);
  expectEveError(await patch({ resolver: 'x' }), 422, { issues: ['resolver'] });
  expectEveError(await patch({ resolver_address: 'a', addresses: { resolver_address: 'b' } }), 422, {
    issues: ['resolver_address'],
  });
  expect(
    expectEveError(await patch({ resolver_address: 'gopher://x/' }), 422, { issues: ['resolver_address'] })
      ._issues?.['resolver_address'],
  ).toBe('must be an http or https URL');
  expectEveError(await patch({ addresses: { resolver_address: 'not a url' } }), 422, {
    issues: ['addresses'],
  });
  expect((await read()).addresses['resolver_address']).toBe('');
});

test('the graph routes are in the OpenAPI document, with their body and response schemas', async () => {
  const doc = (await s.request.get('/api/docs/openapi.json')).body as {
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
          responses: Record<string, unknown>;
        }
      >
    >;
  };
  for (const path of [
    '/api/graph/{id}',
    '/api/graph/{id}/nodes',
    '/api/graph/{id}/edges',
    '/api/graph/not-linked',
    '/api/graph/jobs/{id}',
  ])
    expect(doc.paths[path]?.['get']).toBeDefined();
  const postOp = doc.paths['/api/graph']?.['post'];
  expect(Object.keys(postOp?.requestBody?.content['application/json']?.schema.properties ?? {})).toEqual([
    'action',
    'ip_resolver',
    'master',
  ]);
  expect(JSON.stringify(doc.paths['/api/graph/{id}']?.['get']?.responses['200'])).toContain('symbolSize');
});
