/**
 * hosts through HTTP. Hosts come from the master, so fixtures go in through the store port; the API
 * changes the operator-owned fields (PATCH), hides hosts (DELETE = soft delete) and keeps `grain`
 * out of lists unless projected.
 */
import {
  auth,
  expectEnvelope,
  expectEveError,
  insertHost,
  insertHosts,
  startTestServer,
  uniqueName,
  type TestServer,
} from '../../helpers';
import { createGroup, hostGroups, q } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const newHost = async (overrides: Record<string, unknown> = {}) =>
  (await insertHost(t.store, `${uniqueName('h')}.fleet.test`, overrides))._id;

describe('PATCH /api/hosts/{id}', () => {
  it('sets identification_number and answers the write shape with a new _etag', async () => {
    const id = await newHost();
    const before = await t.request.get(`/api/hosts/${id}`).set(auth('viewer'));
    const res = await t.request
      .patch(`/api/hosts/${id}`)
      .set(auth('admin'))
      .send({ identification_number: 'INV-0042' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object).sort()).toEqual([
      '_created',
      '_etag',
      '_id',
      '_links',
      '_status',
      '_updated',
    ]);
    expect(res.body).toMatchObject({ _id: id, _status: 'OK' });
    expect((res.body as { _etag: string })._etag).not.toBe((before.body as { _etag: string })._etag);
    const after = await t.request.get(`/api/hosts/${id}`).set(auth('viewer'));
    expect(after.body).toMatchObject({ identification_number: 'INV-0042', ip: '10.0.0.10', status: 'up' });
    expect(after.headers.etag).toBe(`"${(res.body as { _etag: string })._etag}"`);
  });

  it('sets groups: related links appear and the host is among the group`s hostnames', async () => {
    const id = await newHost();
    const group = await createGroup(t, { name: uniqueName('g') });
    await t.request
      .patch(`/api/hosts/${id}`)
      .set(auth('admin'))
      .send({ groups: [group] })
      .expect(200);
    const item = await t.request.get(`/api/hosts/${id}`).set(auth('viewer'));
    expect(item.body).toMatchObject({
      groups: [group],
      _links: { related: { groups: [{ title: 'Group', href: `groups/${group}` }] } },
    });
    expect((await t.request.get(`/api/groups/${group}/hostnames`).set(auth('viewer'))).body).toEqual([id]);
  });

  it('refuses an unknown group with 422 naming groups and leaves the host unchanged', async () => {
    const id = await newHost();
    const group = await createGroup(t, { name: uniqueName('g') });
    const res = await t.request
      .patch(`/api/hosts/${id}`)
      .set(auth('admin'))
      .send({ groups: [group, 'ffffffffffffffffffffffff'] });
    expectEveError(res, 422, { issues: ['groups'] });
    expect(await hostGroups(t, id)).toEqual([]);
  });

  it.each([
    ['ip', { ip: '10.9.9.9' }],
    ['grain', { grain: { os: 'x' } }],
    ['status', { status: 'down' }],
    ['_soft_deleted', { _soft_deleted: true }],
    ['_created', { _created: 'Wed, 25 Nov 2026 21:08:02 GMT' }],
  ])('refuses the server-set field %s with 422 and stores nothing', async (field, body) => {
    const id = await newHost();
    const res = await t.request
      .patch(`/api/hosts/${id}`)
      .set(auth('admin'))
      .send({ ...body, identification_number: 'should-not-land' });
    expectEveError(res, 422, { issues: [field] });
    const [stored] = await t.store.find('hosts', { _id: id });
    expect(stored).toMatchObject({
      ip: '10.0.0.10',
      status: 'up',
      identification_number: null,
      _soft_deleted: false,
    });
  });

  it('refuses a value of the wrong type with 422', async () => {
    const id = await newHost();
    expectEveError(
      await t.request.patch(`/api/hosts/${id}`).set(auth('admin')).send({ identification_number: 42 }),
      422,
      {
        issues: ['identification_number'],
      },
    );
  });

  it('needs the admin role, a JSON body, and an existing host', async () => {
    const id = await newHost();
    expectEveError(
      await t.request.patch(`/api/hosts/${id}`).set(auth('operator')).send({ identification_number: 'x' }),
      403,
    );
    expectEveError(
      await t.request
        .patch(`/api/hosts/${id}`)
        .set(auth('admin'))
        .set('Content-Type', 'text/plain')
        .send('identification_number=x'),
      415,
    );
    expectEveError(
      await t.request
        .patch(`/api/hosts/${uniqueName('nope')}`)
        .set(auth('admin'))
        .send({ identification_number: 'x' }),
      404,
    );
  });

  it('has no POST on the collection (hosts come from the master): 405 with Allow', async () => {
    const res = await t.request.post('/api/hosts').set(auth('admin')).send({ _id: 'new.fleet.test' });
    expectEveError(res, 405);
    expect(res.headers.allow).toContain('GET');
    expect(res.headers.allow).not.toContain('POST');
  });
});

describe('DELETE /api/hosts/{id} (soft delete)', () => {
  it('hides the host: item 404, shown with show_soft_deleted=1, kept in the store', async () => {
    const id = await newHost();
    expect((await t.request.delete(`/api/hosts/${id}`).set(auth('admin'))).status).toBe(204);
    expectEveError(await t.request.get(`/api/hosts/${id}`).set(auth('viewer')), 404);
    const shown = await t.request.get(`/api/hosts/${id}?show_soft_deleted=1`).set(auth('viewer'));
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ _id: id, _soft_deleted: true });
    const [stored] = await t.store.find('hosts', { _id: id });
    expect(stored).toMatchObject({ _soft_deleted: true });
    expectEveError(await t.request.delete(`/api/hosts/${id}`).set(auth('admin')), 404);
    expectEveError(
      await t.request.patch(`/api/hosts/${id}`).set(auth('admin')).send({ identification_number: 'x' }),
      404,
    );
  });

  it('hides the host from lists unless show_soft_deleted is given', async () => {
    const { tag, docs } = await insertHosts(t.store, 3);
    const gone = docs[1]?._id ?? '';
    await t.request.delete(`/api/hosts/${gone}`).set(auth('admin')).expect(204);
    const where = `where=${q({ identification_number: tag })}`;
    const listed = expectEnvelope(await t.request.get(`/api/hosts?${where}`).set(auth('viewer')), {
      page: 1,
      maxResults: 25,
      total: 2,
    });
    expect(listed._items.map((h) => h._id)).toEqual([docs[0]?._id, docs[2]?._id]);
    const all = expectEnvelope(
      await t.request.get(`/api/hosts?${where}&show_soft_deleted=1`).set(auth('viewer')),
      { page: 1, maxResults: 25, total: 3 },
    );
    expect(all._items.map((h) => h._soft_deleted)).toEqual([false, true, false]);
  });

  it('drops the host from the hostnames of its groups', async () => {
    const id = await newHost();
    const other = await newHost();
    const group = await createGroup(t, { name: uniqueName('g'), hosts: [id, other] });
    await t.request.delete(`/api/hosts/${id}`).set(auth('admin')).expect(204);
    expect((await t.request.get(`/api/groups/${group}/hostnames`).set(auth('viewer'))).body).toEqual([other]);
  });

  it('needs the admin role', async () => {
    const id = await newHost();
    expectEveError(await t.request.delete(`/api/hosts/${id}`).set(auth('operator')), 403);
    expect((await t.request.get(`/api/hosts/${id}`).set(auth('viewer'))).status).toBe(200);
  });
});

describe('grain', () => {
  it('is in the item GET, left out of lists, and listed when projected', async () => {
    const { tag, docs } = await insertHosts(t.store, 2);
    const id = docs[0]?._id ?? '';
    const item = await t.request.get(`/api/hosts/${id}`).set(auth('viewer'));
    expect(item.body).toMatchObject({
      grain: { cpuarch: 'x86_64', num_cpus: 4, tool: { last_stateapply: '2026-11-24 04:00:00+00:00' } },
    });
    const where = `where=${q({ identification_number: tag })}`;
    const list = expectEnvelope(await t.request.get(`/api/hosts?${where}`).set(auth('viewer')), {
      page: 1,
      maxResults: 25,
      total: 2,
    });
    for (const host of list._items) {
      expect(host).not.toHaveProperty('grain');
      expect(host).toHaveProperty('ip', '10.0.0.10');
    }
    const projected = expectEnvelope(
      await t.request.get(`/api/hosts?${where}&projection=${q({ grain: 1 })}`).set(auth('viewer')),
      {
        page: 1,
        maxResults: 25,
        total: 2,
      },
    );
    expect(projected._items[0]).toMatchObject({ _id: id, grain: { cpuarch: 'x86_64' } });
    expect(projected._items[0]).not.toHaveProperty('ip');
    const other = expectEnvelope(
      await t.request.get(`/api/hosts?${where}&projection=${q({ ip: 1 })}`).set(auth('viewer')),
      {
        page: 1,
        maxResults: 25,
        total: 2,
      },
    );
    expect(other._items[0]).not.toHaveProperty('grain');
  });

  it('can be left out of an item GET by projection', async () => {
    const id = await newHost();
    const res = await t.request.get(`/api/hosts/${id}?projection=${q({ grain: 0 })}`).set(auth('viewer'));
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('grain');
    expect(res.body).toHaveProperty('ip');
  });
});
