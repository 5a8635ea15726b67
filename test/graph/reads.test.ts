/**
 * GET /api/graph/{id}, /nodes, /edges over HTTP (spec "graph node and edge"):
 * the node and edge shapes, depth-first order with one node per visit, one edge per link, rule
 * groups, shared subgroups, deep nesting and its bound, the node-count bound, `where` on nodes,
 * a cycle written around the API, and the 404/400 answers.
 */
import { randomBytes } from 'node:crypto';
import { auth, expectEveError, startTestServer, type TestServer } from '../helpers';
import { graph, group, ids, links, NODE_FIELDS, type Node } from './support';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});

afterAll(async () => {
  await s.close();
});

test("nodes carry the spec's fields in its order; rule groups are type 1, value 1, symbolSize 10, the others 0", async () => {
  const rule = await group(s, { type: 1, info: { regex: 'web-', grain: { os: 'Debian' } } });
  const plain = await group(s, { type: 0 });
  const root = await group(s, { type: 0, subgroups: [rule, plain] });
  const { nodes, edges } = await graph(s, root);
  for (const n of nodes) expect(Object.keys(n)).toEqual(NODE_FIELDS);
  expect(nodes[1]).toEqual({
    category: 'group',
    type: 1,
    id: rule,
    name: expect.any(String) as string,
    info: { regex: 'web-', grain: { os: 'Debian' } },
    value: 1,
    itemStyle: { color: '#91cc75' },
    symbolSize: 10,
  });
  expect(nodes[2]).toMatchObject({
    category: 'group',
    type: 0,
    id: plain,
    info: {},
    value: 0,
    itemStyle: { color: '#5470c6' },
    symbolSize: 0,
  });
  expect(edges).toEqual([
    { type: 'groupLink', source: root, target: rule },
    { type: 'groupLink', source: root, target: plain },
  ]);
});

test('each group type has its own fixed colour', async () => {
  const byType = new Map<number, string>();
  for (const type of [0, 1, 2, 3, 4])
    byType.set(type, await group(s, { type, ...(type === 3 ? { info: { ip: '192.0.2.1' } } : {}) }));
  const root = await group(s, { subgroups: [...byType.values()] });
  const { nodes } = await graph(s, root);
  const colour = (id: string | undefined) => nodes.find((n) => n.id === id)?.itemStyle.color;
  expect([0, 1, 2, 3, 4].map((t) => colour(byType.get(t)))).toEqual([
    '#5470c6',
    '#91cc75',
    '#ee6666',
    '#fac858',
    '#73c0de',
  ]);
  expect(nodes.find((n) => n.id === byType.get(3))?.info).toEqual({ ip: '192.0.2.1' });
  expect(nodes.filter((n) => n.id !== root).map((n) => n.type)).toEqual([0, 1, 0, 0, 0]);
});

test('depth first, one node per visit: a shared subgroup appears under each parent, its links once', async () => {
  const rule = await group(s, { type: 1, info: { regex: 'db-' } });
  const shared = await group(s, { subgroups: [rule] });
  const left = await group(s, { subgroups: [shared] });
  const right = await group(s, { subgroups: [shared, rule] });
  const root = await group(s, { subgroups: [left, right] });
  const { nodes, edges } = await graph(s, root);
  expect(ids(nodes)).toEqual([root, left, shared, rule, right, shared, rule, rule]);
  expect(links(edges)).toEqual([
    `${root}>${left}`,
    `${left}>${shared}`,
    `${shared}>${rule}`,
    `${root}>${right}`,
    `${right}>${shared}`,
    `${right}>${rule}`,
  ]);
  const nodesRes = await s.request.get(`/api/graph/${root}/nodes`).set(auth('viewer'));
  expect(nodesRes.status).toBe(200);
  expect(nodesRes.body).toEqual({ nodes });
  const edgesRes = await s.request.get(`/api/graph/${root}/edges`).set(auth('viewer'));
  expect(edgesRes.status).toBe(200);
  expect(edgesRes.body).toEqual({ edges });
});

test('where on nodes keeps the nodes of one node type ({"type": n} or {"type": {"$in": [...]}})', async () => {
  const r1 = await group(s, { type: 1, info: { regex: 'a' } });
  const r2 = await group(s, { type: 1, info: { grain: { roles: 'db' } } });
  const mid = await group(s, { subgroups: [r2] });
  const root = await group(s, { subgroups: [r1, mid] });
  const only = async (where: unknown): Promise<Node[]> => {
    const res = await s.request
      .get(`/api/graph/${root}/nodes`)
      .query({ where: JSON.stringify(where) })
      .set(auth('viewer'));
    expect(res.status).toBe(200);
    return (res.body as { nodes: Node[] }).nodes;
  };
  expect(ids(await only({ type: 1 }))).toEqual([r1, r2]);
  expect(ids(await only({ type: 0 }))).toEqual([root, mid]);
  expect(ids(await only({ type: { $in: [0, 1] } }))).toEqual([root, r1, mid, r2]);
  for (const where of [
    '{"type": "1"}',
    '{"name": "x"}',
    '{"type": 1, "name": "x"}',
    'not json',
    '[1]',
    '{"type": {"$gt": 0}}',
  ]) {
    const res = await s.request.get(`/api/graph/${root}/nodes`).query({ where }).set(auth('viewer'));
    expect(expectEveError(res, 400)._error.message).toMatch(/^where: /);
  }
});

test('deep nesting: a chain of 64 groups is drawn, one of 65 is a 422 naming the bound', async () => {
  let below = await group(s, {});
  const chain = [below];
  for (let i = 1; i < 64; i += 1) chain.unshift((below = await group(s, { subgroups: [below] })));
  const drawn = await graph(s, below);
  expect(ids(drawn.nodes)).toEqual(chain);
  expect(drawn.edges).toHaveLength(63);
  const top = await group(s, { subgroups: [below] });
  for (const path of [`/api/graph/${top}`, `/api/graph/${top}/nodes`, `/api/graph/${top}/edges`]) {
    expect(expectEveError(await s.request.get(path).set(auth('viewer')), 422)._error.message).toMatch(
      /deeper than 64 levels/,
    );
  }
});

test('visits multiply along shared subgroups: past 20,000 nodes the graph is a 422, not a stall', async () => {
  // Each level's two groups both list the next level's two: 2^(n+1) visits from 2n groups.
  let level = [await group(s, {}), await group(s, {})];
  for (let i = 0; i < 14; i += 1)
    level = [await group(s, { subgroups: level }), await group(s, { subgroups: level })];
  const root = await group(s, { subgroups: level });
  const res = await s.request.get(`/api/graph/${root}`).set(auth('viewer'));
  expect(expectEveError(res, 422)._error.message).toMatch(/more than 20000 nodes/);
});

test('a cycle written around the API is not followed: every group of the path is drawn once', async () => {
  const c = await group(s, {});
  const b = await group(s, { subgroups: [c] });
  const a = await group(s, { subgroups: [b] });
  // The API refuses cycles (422), so the cycle is written straight into the store.
  const [stored] = await s.store.find('groups', { _id: c });
  await s.store.write([{ op: 'replace', collection: 'groups', doc: { ...stored, _id: c, subgroups: [a] } }]);
  const { nodes, edges } = await graph(s, a);
  expect(ids(nodes)).toEqual([a, b, c]);
  expect(links(edges)).toEqual([`${a}>${b}`, `${b}>${c}`]);
});

test('an unknown root is a 404 on every read; the graph is for viewers and up', async () => {
  const missing = randomBytes(12).toString('hex');
  for (const path of [
    `/api/graph/${missing}`,
    `/api/graph/${missing}/nodes`,
    `/api/graph/${missing}/edges`,
  ]) {
    expectEveError(await s.request.get(path).set(auth('viewer')), 404);
  }
  expectEveError(await s.request.get(`/api/graph/${missing}`), 401);
});
