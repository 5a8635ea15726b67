/**
 * A new plain resource needs one definition and its registration, no engine edit. This file
 * declares `gadgets` (written here only), serves it beside every real resource with the server's
 * own boot, and proves it gets CRUD, validation (422), the envelope, auth and the error shape.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { defineResource, f } from '../../engine/src';
import { allResources } from '../../resources';
import { startServer, type RunningServer } from '../../packages/server/src/boot';
import { loadConfig } from '../../packages/server/src/config';
import { createLogger } from '../../packages/server/src/logger';
import { auth, expectEnvelope, expectEveError, insertHost, RFC1123, TOKENS, uniqueName } from '../helpers';

const gadgets = defineResource({
  name: 'gadgets',
  description: 'Throwaway resource of this test: devices attached to hosts.',
  fields: {
    label: f.string({ required: true, minLength: 2, maxLength: 40 }),
    kind: f.string({ enum: ['sensor', 'relay'], default: 'sensor' }),
    weight: f.number({ min: 0 }),
    count: f.integer({ default: 0 }),
    tags: f.array(f.string(), { default: () => [] }),
    spec: f.object({ volts: f.integer(), vendor: f.string() }),
    installed: f.datetime({ nullable: true }),
    host: f.ref('hosts', { nullable: true }),
    pin: f.string({ secret: true }),
    serial: f.string({ readonly: true }),
  },
  methods: {
    list: 'viewer',
    get: 'viewer',
    create: 'operator',
    patch: 'operator',
    replace: 'operator',
    delete: 'admin',
  },
});

let server: RunningServer;
let dir: string;
let request: InstanceType<typeof supertest.agent>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-throwaway-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}`,
    API_TOKENS: `admin=${TOKENS.admin}:admin,operator=${TOKENS.operator}:operator,viewer=${TOKENS.viewer}:viewer`,
    LOG_LEVEL: 'silent',
  });
  server = await startServer(config, {
    log: createLogger('silent'),
    cwd: dir,
    definitions: [...allResources, gadgets],
  });
  request = supertest.agent(server.url);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const body = (overrides: Record<string, unknown> = {}) => ({
  label: uniqueName('gd'),
  kind: 'relay',
  weight: 0.25,
  tags: ['lab', 'rack-4'],
  spec: { volts: 12, vendor: 'Acme' },
  installed: '2026-11-20 08:30',
  pin: '4321-secret',
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await request.post('/api/gadgets').set(auth('operator')).send(body(overrides));
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status: 201 });
  return (res.body as { _id: string })._id;
}

describe('CRUD', () => {
  it('POST creates (201, write shape, Location) and GET reads it back with defaults, dates, links and the secret masked', async () => {
    const host = (await insertHost(server.store, `${uniqueName('h')}.fleet.test`))._id;
    const sent = body({ host });
    const res = await request.post('/api/gadgets').set(auth('operator')).send(sent);
    expect(res.status).toBe(201);
    const id = (res.body as { _id: string })._id;
    expect(Object.keys(res.body as object).sort()).toEqual([
      '_created',
      '_etag',
      '_id',
      '_links',
      '_status',
      '_updated',
    ]);
    expect(res.body).toMatchObject({
      _status: 'OK',
      _links: {
        self: { title: 'Gadget', href: `gadgets/${id}` },
        related: { host: { title: 'Host', href: `hosts/${host}` } },
      },
    });
    expect(res.headers.location).toBe(`/api/gadgets/${id}`);

    const item = await request.get(`/api/gadgets/${id}`).set(auth('viewer'));
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({
      label: sent.label,
      kind: 'relay',
      weight: 0.25,
      count: 0,
      tags: ['lab', 'rack-4'],
      spec: { volts: 12, vendor: 'Acme' },
      installed: 'Fri, 20 Nov 2026 08:30:00 GMT',
      host,
      pin: '********',
      _links: { parent: { title: 'home', href: '/' }, collection: { title: 'gadgets', href: 'gadgets' } },
    });
    expect((item.body as { _created: string })._created).toMatch(RFC1123);
    const [stored] = await server.store.find('gadgets', { _id: id });
    expect(stored?.pin).not.toBe('4321-secret');
  });

  it('PATCH changes the given fields only', async () => {
    const id = await create({ count: 3 });
    const res = await request
      .patch(`/api/gadgets/${id}`)
      .set(auth('operator'))
      .send({ label: 'renamed', spec: { volts: 24 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: id, _status: 'OK' });
    const item = await request.get(`/api/gadgets/${id}`).set(auth('viewer'));
    expect(item.body).toMatchObject({
      label: 'renamed',
      count: 3,
      kind: 'relay',
      spec: { volts: 24, vendor: 'Acme' },
    });
  });

  it('PUT replaces the whole item', async () => {
    const id = await create({ count: 3 });
    const res = await request.put(`/api/gadgets/${id}`).set(auth('operator')).send({ label: 'replaced' });
    expect(res.status).toBe(200);
    const item = (await request.get(`/api/gadgets/${id}`).set(auth('viewer'))).body as Record<
      string,
      unknown
    >;
    expect(item).toMatchObject({ _id: id, label: 'replaced', kind: 'sensor', count: 0, tags: [] });
    expect(item).not.toHaveProperty('spec');
    expect(item).not.toHaveProperty('pin');
  });

  it('DELETE removes it (admin)', async () => {
    const id = await create();
    expectEveError(await request.delete(`/api/gadgets/${id}`).set(auth('operator')), 403);
    expect((await request.delete(`/api/gadgets/${id}`).set(auth('admin'))).status).toBe(204);
    expectEveError(await request.get(`/api/gadgets/${id}`).set(auth('viewer')), 404);
  });

  it('is listed in the home document', async () => {
    const res = await request.get('/api').set(auth('viewer'));
    expect(res.status).toBe(200);
    expect((res.body as { _links: { child: unknown[] } })._links.child).toContainEqual({
      title: 'gadgets',
      href: 'gadgets',
    });
  });
});

describe('the envelope', () => {
  it('pages, filters and sorts the collection', async () => {
    const tag = uniqueName('tag');
    const labels = ['cc', 'aa', 'bb'].map((l) => `${l}-${tag}`);
    for (const label of labels) await create({ label, tags: [tag] });
    const where = JSON.stringify({ tags: tag });
    const first = expectEnvelope(
      await request
        .get(`/api/gadgets?where=${encodeURIComponent(where)}&sort=-label&max_results=2`)
        .set(auth('viewer')),
      {
        page: 1,
        maxResults: 2,
        total: 3,
      },
    );
    expect(first._items.map((g) => g.label)).toEqual([`cc-${tag}`, `bb-${tag}`]);
    const next = new URL(first._links.next?.href ?? '', 'http://api.test/api/');
    expect(next.pathname).toBe('/api/gadgets');
    expect([...next.searchParams]).toEqual([
      ['max_results', '2'],
      ['where', where],
      ['sort', '-label'],
      ['page', '2'],
    ]);
    const second = expectEnvelope(
      await request
        .get(`/api/gadgets?where=${encodeURIComponent(where)}&sort=-label&max_results=2&page=2`)
        .set(auth('viewer')),
      {
        page: 2,
        maxResults: 2,
        total: 3,
      },
    );
    expect(second._items.map((g) => g.label)).toEqual([`aa-${tag}`]);
  });

  it('keeps the secret out of where and sort (400)', async () => {
    expectEveError(
      await request
        .get(`/api/gadgets?where=${encodeURIComponent('{"pin":"4321-secret"}')}`)
        .set(auth('viewer')),
      400,
    );
    expectEveError(await request.get('/api/gadgets?sort=pin').set(auth('viewer')), 400);
  });
});

describe('validation (422 with _issues)', () => {
  it.each([
    ['a missing required field', { label: undefined }, 'label'],
    ['a string too short', { label: 'x' }, 'label'],
    ['a value out of its enum', { kind: 'valve' }, 'kind'],
    ['a number below its minimum', { weight: -1 }, 'weight'],
    ['a fraction for an integer', { count: 1.5 }, 'count'],
    ['a string for an array', { tags: 'lab' }, 'tags'],
    ['a bad date', { installed: 'yesterday' }, 'installed'],
    ['a server-set field', { serial: 'SN-1' }, 'serial'],
    ['a meta field', { _created: 'Wed, 25 Nov 2026 21:08:02 GMT' }, '_created'],
  ])('refuses %s and stores nothing', async (_case, overrides, field) => {
    const sent: Record<string, unknown> = body(overrides);
    const res = await request.post('/api/gadgets').set(auth('operator')).send(sent);
    expectEveError(res, 422, { issues: [field] });
    expect(await server.store.count('gadgets', { label: sent.label ?? null })).toBe(0);
  });

  it('names a nested field of an object', async () => {
    const res = await request
      .post('/api/gadgets')
      .set(auth('operator'))
      .send(body({ spec: { volts: 'twelve' } }));
    const err = expectEveError(res, 422);
    expect(Object.keys(err._issues ?? {}).some((k) => k.startsWith('spec'))).toBe(true);
  });

  it('validates PATCH bodies too', async () => {
    const id = await create();
    expectEveError(
      await request.patch(`/api/gadgets/${id}`).set(auth('operator')).send({ kind: 'valve' }),
      422,
      { issues: ['kind'] },
    );
    expectEveError(
      await request.patch(`/api/gadgets/${id}`).set(auth('operator')).send({ serial: 'SN-2' }),
      422,
      { issues: ['serial'] },
    );
  });
});

describe('auth and the error shape', () => {
  it('answers 401 without a token or with an unknown one', async () => {
    expectEveError(await request.get('/api/gadgets'), 401);
    expectEveError(
      await request.get('/api/gadgets').set('Authorization', 'Bearer not-a-token-of-this-server'),
      401,
    );
  });

  it('answers 403 to a viewer POST and stores nothing', async () => {
    const sent = body();
    expectEveError(await request.post('/api/gadgets').set(auth('viewer')).send(sent), 403);
    expect(await server.store.count('gadgets', { label: sent.label })).toBe(0);
  });

  it('answers 404, 405 with Allow, 400, 415 and 412 in the one shape', async () => {
    expectEveError(await request.get('/api/gadgets/ffffffffffffffffffffffff').set(auth('viewer')), 404);
    const put = await request.put('/api/gadgets').set(auth('admin')).send(body());
    expectEveError(put, 405);
    expect(put.headers.allow).toBe('GET, POST, HEAD');
    expectEveError(await request.get('/api/gadgets?where={"nope":1}').set(auth('viewer')), 400);
    expectEveError(
      await request
        .post('/api/gadgets')
        .set(auth('operator'))
        .set('Content-Type', 'application/json')
        .send('{"label": '),
      400,
    );
    expectEveError(
      await request
        .post('/api/gadgets')
        .set(auth('operator'))
        .set('Content-Type', 'text/plain')
        .send('label=x'),
      415,
    );
    const id = await create();
    expectEveError(
      await request
        .patch(`/api/gadgets/${id}`)
        .set(auth('operator'))
        .set('If-Match', '"stale"')
        .send({ count: 1 }),
      412,
    );
  });
});
