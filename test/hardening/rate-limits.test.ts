/**
 * Per-token rate limits: off by default; when set, executions and other writes are counted apart,
 * per token name, and a request over the limit is a 429 with Retry-After in the error shape. Reads
 * are never counted. The limits count the route the router matched: a path spelled in another case
 * (`/API/alerts`) is no route at all (404), and no other spelling that reaches a route escapes its
 * count. And the log of an unhandled error names the path, never the query (which may hold filters).
 */
import { defineResource, f } from '../../engine/src';
import { allResources } from '../../resources';
import { auth, expectEveError, insertHosts, startTestServer, type TestServer } from '../helpers';

describe('with RATE_LIMIT_WRITES_PER_MIN=3 and RATE_LIMIT_EXEC_PER_MIN=2', () => {
  let s: TestServer;
  let host: string;
  beforeAll(async () => {
    s = await startTestServer({ env: { RATE_LIMIT_WRITES_PER_MIN: '3', RATE_LIMIT_EXEC_PER_MIN: '2' } });
    host = (await insertHosts(s.store, 1)).docs[0]?._id ?? '';
  });
  afterAll(() => s.close());

  const group = (name: string) => s.request.post('/api/groups').set(auth('admin')).send({ name });

  test('the fourth write of a token in a minute is a 429 naming the token and the variable, with Retry-After', async () => {
    for (const name of ['rl-1', 'rl-2', 'rl-3']) expect((await group(name)).status).toBe(201);
    const res = await group('rl-4');
    expect(expectEveError(res, 429)._error.message).toMatch(
      /^Too many writes by token "admin": the limit is 3 a minute \(RATE_LIMIT_WRITES_PER_MIN\); retry in \d+ s$/,
    );
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(20);
    expect(await s.store.count('groups', { name: 'rl-4' })).toBe(0);
  });

  test('another token has its own allowance; reads are never counted', async () => {
    expect((await s.request.post('/api/alerts').set(auth('operator')).send({ type: 'rl' })).status).toBe(201);
    for (let i = 0; i < 10; i++)
      expect((await s.request.get('/api/groups').set(auth('admin'))).status).toBe(200);
  });

  test('executions are counted apart from writes: two, then 429', async () => {
    const exec = () => s.request.post(`/api/hosts/${host}`).set(auth('admin')).send({ fun: 'test.ping' });
    // No master is configured here: the execution itself is refused (503), yet it counts.
    for (let i = 0; i < 2; i++) expect((await exec()).status).not.toBe(429);
    const res = await exec();
    expect(expectEveError(res, 429)._error.message).toMatch(
      /^Too many executions by token "admin": the limit is 2 a minute \(RATE_LIMIT_EXEC_PER_MIN\)/,
    );
    expect(res.headers['retry-after']).toBeDefined();
  });

  test('a request without a valid token is the 401 it was, not counted', async () => {
    for (let i = 0; i < 5; i++)
      expectEveError(await s.request.post('/api/groups').send({ name: 'anon' }), 401);
  });
});

describe('the limits and the router agree on what a route is', () => {
  let s: TestServer;
  let host: string;
  beforeAll(async () => {
    s = await startTestServer({ env: { RATE_LIMIT_WRITES_PER_MIN: '5', RATE_LIMIT_EXEC_PER_MIN: '2' } });
    host = (await insertHosts(s.store, 1)).docs[0]?._id ?? '';
  });
  afterAll(() => s.close());

  test.each(['/API/alerts', '/Api/Alerts', '/api/ALERTS', '/api/Alerts/'])(
    'POST %s matches no route: a 404 in the error shape, nothing stored',
    async (path) => {
      const res = await s.request
        .post(path)
        .set(auth('operator'))
        .send({ type: `case-${path}` });
      expect(expectEveError(res, 404)._error.message).toMatch(/^No route for POST /);
      expect(await s.store.count('alerts', { type: `case-${path}` })).toBe(0);
    },
  );

  test('every spelling that reaches POST /alerts counts: 5 writes pass, then 429', async () => {
    const spellings = ['/api/alerts', '/api/alerts/', '/api/alerts?x=1', '/api//alerts', '/api/alerts/'];
    const statuses: number[] = [];
    for (const [i, path] of [...spellings, '/api/alerts', '/api/alerts/'].entries())
      statuses.push(
        (
          await s.request
            .post(path)
            .set(auth('operator'))
            .send({ type: `spell-${i}` })
        ).status,
      );
    // `/api//alerts` is no route (404) and counts nothing; the other four count, the fifth write passes.
    expect(statuses).toEqual([201, 201, 201, 404, 201, 201, 429]);
    expect(await s.store.count('alerts', {})).toBe(5);
  });

  test('executions: /API/HOSTS/<id> and /api/hosts/<id>/ALL_STATUS are no route; /api/hosts/<id>/ counts', async () => {
    const exec = (path: string) =>
      s.request.post(path).set(auth('admin')).send({ exec_client: 'local', fun: 'test.ping' });
    for (const path of [`/API/HOSTS/${host}`, `/api/HOSTS/${host}`, `/api/hosts/${host}/ALL_STATUS`])
      expectEveError(await exec(path), 404);
    // No master is configured here: each execution is refused (503), yet it counts.
    expect((await exec(`/api/hosts/${host}/`)).status).toBe(503);
    expect((await exec(`/api/hosts/${host}/all_status`)).status).toBe(503);
    const res = await exec(`/api/hosts/${host}`);
    expect(expectEveError(res, 429)._error.message).toMatch(/^Too many executions by token "admin"/);
  });
});

describe('by default', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  test('no limit: 40 writes of one token in a row all pass', async () => {
    for (let i = 0; i < 40; i++)
      expect(
        (
          await s.request
            .post('/api/alerts')
            .set(auth('operator'))
            .send({ type: `free-${i}` })
        ).status,
      ).toBe(201);
  });
});

describe('the log of an unhandled error', () => {
  const failing = defineResource({
    name: 'failing_items',
    description: 'Throwaway resource of this test: every read fails with an error of no known type.',
    fields: { note: f.string() },
    methods: { list: 'viewer', get: 'viewer' },
    hooks: {
      afterRead() {
        return Promise.reject(new Error('boom from a hook'));
      },
    },
  });
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ definitions: [...allResources, failing], logLevel: 'error' });
  });
  afterAll(() => s.close());

  test('names the path and leaves the query (a filter) out', async () => {
    const secretFilter = 'needle-in-the-query-7f3a';
    const res = await s.request
      .get('/api/failing_items')
      .query({ where: JSON.stringify({ note: secretFilter }) })
      .set(auth('viewer'));
    expectEveError(res, 500);
    const line = s
      .logs()
      .split('\n')
      .find((l) => l.includes('"unhandled error"'));
    expect(line).toBeDefined();
    expect(JSON.parse(line ?? '{}')).toMatchObject({ method: 'GET', path: '/api/failing_items' });
    expect(s.logs()).not.toContain(secretFilter);
    expect(s.logs()).not.toContain('where=');
  });
});
