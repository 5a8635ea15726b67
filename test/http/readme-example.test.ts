/**
 * The README's promise: a resource is one definition file. The worked example is taken from the
 * README as written, compiled into a temporary file, registered beside every resource of the API,
 * and exercised over HTTP: CRUD, 422 (validation, its hook, its relation), `embedded`, 403, its
 * custom route writing a server-set field through the system principal, and its delete rule; and
 * the generic read tests pass over it, its declared sample keeping its hook's date rule.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyResourceDefinition } from '../../engine/src';
import { allResources } from '../../resources';
import { auth, expectEveError, startTestServer, uniqueName, type TestServer } from '../helpers';
import { describeReads, sampleCase } from './resources/reads';

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const MARK = '// resources/maintenance_windows.ts';

/** The example's source, exactly as the README shows it. */
function exampleSource(): string {
  const start = README.indexOf(`\`\`\`ts\n${MARK}`);
  if (start < 0) throw new Error('the README no longer has the maintenance_windows example');
  const body = README.slice(start + '```ts\n'.length);
  return body.slice(0, body.indexOf('```'));
}

const dir = join(__dirname, '..', '.tmp', `readme-${process.pid}`);
let t: TestServer;
let group: string;

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'maintenance_windows.ts');
  writeFileSync(file, exampleSource());
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { maintenance_windows } = require(file) as { maintenance_windows: AnyResourceDefinition };
  // The README's file stands in for a real resource of the same name, as a new one would.
  const others = allResources.filter((r) => r.name !== maintenance_windows.name);
  t = await startTestServer({ definitions: [...others, maintenance_windows] });
  const g = await t.request
    .post('/api/groups')
    .set(auth('admin'))
    .send({ name: uniqueName('racks') });
  group = String(g.body._id);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const body = (over: Record<string, unknown> = {}) => ({
  title: 'kernel upgrade',
  group,
  starts: '2030-01-01 02:00',
  ends: '2030-01-01 04:00',
  ticket_token: 'tkt-91ab',
  ...over,
});

describe('the README example resource', () => {
  it('is created, read (secret masked, defaults, links), changed and deleted over HTTP', async () => {
    const created = await t.request.post('/api/maintenance_windows').set(auth('operator')).send(body());
    expect(created.status).toBe(201);
    const id = String(created.body._id);
    const item = await t.request.get(`/api/maintenance_windows/${id}`).set(auth('viewer'));
    expect(item.body).toMatchObject({
      title: 'kernel upgrade',
      group,
      starts: 'Tue, 01 Jan 2030 02:00:00 GMT',
      notify: true,
      ticket_token: '********',
      closed_by: null,
      _links: { related: { group: { title: 'Group', href: `groups/${group}` } } },
    });
    const page = await t.request.get('/api/maintenance_windows').set(auth('viewer'));
    expect(page.body._meta.total).toBe(1);
    const patched = await t.request
      .patch(`/api/maintenance_windows/${id}`)
      .set(auth('operator'))
      .send({ title: 'kernel and firmware' });
    expect(patched.status).toBe(200);
    expect((await t.request.delete(`/api/maintenance_windows/${id}`).set(auth('admin'))).status).toBe(204);
    expectEveError(await t.request.get(`/api/maintenance_windows/${id}`).set(auth('viewer')), 404);
  });

  it('answers 422 naming the field: a missing title, its hook (ends before starts), an unknown group', async () => {
    expectEveError(
      await t.request
        .post('/api/maintenance_windows')
        .set(auth('operator'))
        .send(body({ title: undefined })),
      422,
      { issues: ['title'] },
    );
    expectEveError(
      await t.request
        .post('/api/maintenance_windows')
        .set(auth('operator'))
        .send(body({ ends: '2029-12-31 23:00' })),
      422,
      { issues: ['ends'] },
    );
    expectEveError(
      await t.request
        .post('/api/maintenance_windows')
        .set(auth('operator'))
        .send(body({ group: 'ffffffffffffffffffffffff' })),
      422,
      { issues: ['group'] },
    );
    expectEveError(
      await t.request
        .post('/api/maintenance_windows')
        .set(auth('operator'))
        .send(body({ closed_by: 'me' })),
      422,
      { issues: ['closed_by'] },
    );
  });

  it('embeds its group, and refuses a viewer with 403', async () => {
    const created = await t.request.post('/api/maintenance_windows').set(auth('operator')).send(body());
    const res = await t.request
      .get(`/api/maintenance_windows/${String(created.body._id)}`)
      .query({ embedded: '{"group": 1}' })
      .set(auth('viewer'));
    expect(res.body.group).toMatchObject({ _id: group, type: 0, subgroups: [] });
    expectEveError(await t.request.post('/api/maintenance_windows').set(auth('viewer')).send(body()), 403);
    expectEveError(
      await t.request.post(`/api/maintenance_windows/${String(created.body._id)}/close`).set(auth('viewer')),
      403,
    );
  });

  it('its custom route answers the write response and sets the server-set field through the system principal', async () => {
    const created = await t.request
      .post('/api/maintenance_windows')
      .set(auth('operator'))
      .send(body({ starts: '2020-01-01 00:00', ends: '2099-01-01 00:00' }));
    const id = String(created.body._id);
    const closed = await t.request.post(`/api/maintenance_windows/${id}/close`).set(auth('operator'));
    expect(closed.status).toBe(200);
    expect(Object.keys(closed.body as object).sort()).toEqual([
      '_created',
      '_etag',
      '_id',
      '_links',
      '_status',
      '_updated',
    ]);
    const item = await t.request.get(`/api/maintenance_windows/${id}`).set(auth('viewer'));
    expect(item.body.closed_by).toBe('operator');
    expect(Date.parse(String(item.body.ends))).toBeLessThan(Date.parse('2099-01-01T00:00:00Z'));
    expectEveError(
      await t.request.post('/api/maintenance_windows/ffffffffffffffffffffffff/close').set(auth('operator')),
      404,
    );
  });

  it('keeps its group alive: deleting a group a window refers to is 409 (restrict)', async () => {
    const res = expectEveError(await t.request.delete(`/api/groups/${group}`).set(auth('admin')), 409);
    expect(res._error.message).toMatch(/maintenance_windows/);
  });
});

describe('the generic read tests, over the README example', () => {
  describeReads('maintenance_windows', {
    server: () => t,
    case: sampleCase(() => t, 'maintenance_windows'),
  });
});
