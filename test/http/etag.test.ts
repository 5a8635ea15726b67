/**
 * ETags (eve/methods/get.py and patch.py, v2.3.1): an item GET sends `ETag: "<_etag>"` and answers a
 * matching `If-None-Match` with 304; a write with a stale `If-Match` is a 412 that changes nothing,
 * a matching one proceeds, and none at all is allowed (the spec's clients send none).
 */
import {
  auth,
  expectEveError,
  insertHost,
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

const admin = auth('admin');
const viewer = auth('viewer');

async function manager(): Promise<{ id: string; etag: string; path: string }> {
  const res = await s.request.post('/api/vpn_managers').set(admin).send(vpnManagerBody());
  expect(res.status).toBe(201);
  return {
    id: String(res.body._id),
    etag: String(res.body._etag),
    path: `/api/vpn_managers/${String(res.body._id)}`,
  };
}

describe('ETag and If-None-Match', () => {
  test('an item GET sends the quoted _etag as ETag', async () => {
    const m = await manager();
    const res = await s.request.get(m.path).set(viewer);
    expect(res.status).toBe(200);
    expect(res.body._etag).toBe(m.etag);
    expect(res.headers.etag).toBe(`"${m.etag}"`);
    const head = await s.request.head(m.path).set(viewer);
    expect(head.headers.etag).toBe(`"${m.etag}"`);
  });

  test('collections carry no ETag', async () => {
    await manager();
    const res = await s.request.get('/api/vpn_managers').set(viewer);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeUndefined();
  });

  test('a matching If-None-Match is a 304 with no body and the ETag', async () => {
    const m = await manager();
    for (const inm of [`"${m.etag}"`, `W/"${m.etag}"`, `"0000", "${m.etag}"`, m.etag, '*']) {
      const res = await s.request.get(m.path).set(viewer).set('If-None-Match', inm);
      expect(res.status).toBe(304);
      expect(res.text ?? '').toBe('');
      expect(res.headers.etag).toBe(`"${m.etag}"`);
    }
  });

  test('a different If-None-Match gets the item', async () => {
    const m = await manager();
    const res = await s.request
      .get(m.path)
      .set(viewer)
      .set('If-None-Match', '"0123456789abcdef0123456789abcdef01234567"');
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(m.id);
  });

  test('after a change the old ETag no longer matches, and the new one does', async () => {
    const m = await manager();
    const patched = await s.request.patch(m.path).set(admin).send({ username: 'rotated' });
    expect(patched.status).toBe(200);
    expect(patched.headers.etag).toBe(`"${String(patched.body._etag)}"`);
    const stale = await s.request.get(m.path).set(viewer).set('If-None-Match', `"${m.etag}"`);
    expect(stale.status).toBe(200);
    expect(stale.body.username).toBe('rotated');
    expect(stale.headers.etag).toBe(patched.headers.etag);
    expect(
      (await s.request.get(m.path).set(viewer).set('If-None-Match', String(patched.headers.etag))).status,
    ).toBe(304);
  });

  test('a projection does not change the ETag', async () => {
    const id = `${uniqueName('et')}.fleet.test`;
    const doc = await insertHost(s.store, id);
    const full = await s.request.get(`/api/hosts/${id}`).set(viewer);
    const projected = await s.request.get(`/api/hosts/${id}`).query({ projection: '{"ip": 1}' }).set(viewer);
    expect(full.headers.etag).toBe(`"${String(doc._etag)}"`);
    expect(projected.headers.etag).toBe(full.headers.etag);
    expect(projected.body._etag).toBe(doc._etag);
  });
});

describe('If-Match', () => {
  test('a stale If-Match on PATCH is a 412 and the item is unchanged', async () => {
    const m = await manager();
    await s.request.patch(m.path).set(admin).send({ username: 'second' });
    const res = await s.request
      .patch(m.path)
      .set(admin)
      .set('If-Match', `"${m.etag}"`)
      .send({ username: 'third' });
    expectEveError(res, 412);
    expect((await s.request.get(m.path).set(viewer)).body.username).toBe('second');
  });

  test('a stale If-Match on DELETE is a 412 and the item stays', async () => {
    const m = await manager();
    await s.request.patch(m.path).set(admin).send({ username: 'changed' });
    expectEveError(await s.request.delete(m.path).set(admin).set('If-Match', `"${m.etag}"`), 412);
    expect((await s.request.get(m.path).set(viewer)).status).toBe(200);
  });

  test('a matching If-Match proceeds: 200 with the new ETag, which the next GET sends', async () => {
    const m = await manager();
    const res = await s.request
      .patch(m.path)
      .set(admin)
      .set('If-Match', `"${m.etag}"`)
      .send({ username: 'matched' });
    expect(res.status).toBe(200);
    expect(res.body._etag).not.toBe(m.etag);
    expect(res.headers.etag).toBe(`"${String(res.body._etag)}"`);
    const item = await s.request.get(m.path).set(viewer);
    expect(item.body.username).toBe('matched');
    expect(item.headers.etag).toBe(res.headers.etag);
  });

  test('If-Match may be weak, unquoted or a list', async () => {
    const m = await manager();
    const first = await s.request
      .patch(m.path)
      .set(admin)
      .set('If-Match', `W/"${m.etag}"`)
      .send({ username: 'a' });
    expect(first.status).toBe(200);
    const second = await s.request
      .patch(m.path)
      .set(admin)
      .set('If-Match', String(first.body._etag))
      .send({ username: 'b' });
    expect(second.status).toBe(200);
    const third = await s.request
      .patch(m.path)
      .set(admin)
      .set('If-Match', `"${m.etag}", "${String(second.body._etag)}"`)
      .send({ username: 'c' });
    expect(third.status).toBe(200);
  });

  test('a matching If-Match on DELETE deletes', async () => {
    const m = await manager();
    expect((await s.request.delete(m.path).set(admin).set('If-Match', `"${m.etag}"`)).status).toBe(204);
    expectEveError(await s.request.get(m.path).set(viewer), 404);
  });

  test('without If-Match a write proceeds', async () => {
    const m = await manager();
    expect((await s.request.patch(m.path).set(admin).send({ username: 'unconditional' })).status).toBe(200);
  });

  test('two writes racing on the same ETag: exactly one wins', async () => {
    const m = await manager();
    const results = await Promise.all(
      ['left', 'right'].map((username) =>
        s.request.patch(m.path).set(admin).set('If-Match', `"${m.etag}"`).send({ username }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
    const winner = results.find((r) => r.status === 200);
    const item = await s.request.get(m.path).set(viewer);
    expect(item.headers.etag).toBe(winner?.headers.etag);
  });

  test('PUT /tasks (the task named in the body) honours If-Match too', async () => {
    const operator = auth('operator');
    const created = await s.request
      .post('/api/tasks')
      .set(operator)
      .send({
        name: uniqueName('task'),
        fun: 'test.ping',
        tgt: ['web-01.fleet.test'],
        start: '2030-01-01 04:30',
        interval: 600,
      });
    expect(created.status).toBe(201);
    const body = { _id: created.body._id, tgt: ['web-02.fleet.test'] };
    expect(
      (
        await s.request
          .put('/api/tasks')
          .set(operator)
          .send({ ...body, tgt: ['web-03.fleet.test'] })
      ).status,
    ).toBe(200);
    expectEveError(
      await s.request
        .put('/api/tasks')
        .set(operator)
        .set('If-Match', `"${String(created.body._etag)}"`)
        .send(body),
      412,
    );
    const item = await s.request.get(`/api/tasks/${String(created.body._id)}`).set(viewer);
    expect(item.body.tgt).toEqual(['web-03.fleet.test']);
    const ok = await s.request
      .put('/api/tasks')
      .set(operator)
      .set('If-Match', String(item.headers.etag))
      .send(body);
    expect(ok.status).toBe(200);
  });
});
