/**
 * Where the API differs from Eve on purpose, the cases no other test pins (docs/eve-compatibility.md
 * lists every difference with its reason and its test). Each test states our behaviour and, in
 * its title, what Eve v2.3.1 does instead.
 */
import {
  auth,
  expectEveError,
  insertAction,
  insertHost,
  uniqueName,
  vpnManagerBody,
  type TestServer,
} from '../../helpers';
import { createWidget, startEveServer, widget } from './_widgets';

let t: TestServer;
beforeAll(async () => {
  t = await startEveServer();
});
afterAll(() => t.close());

const operator = auth('operator');
const viewer = auth('viewer');

describe('writes', () => {
  it('a PATCH or PUT 422 carries _error like every error (Eve: only POST adds _error)', async () => {
    const { id } = await createWidget(t);
    for (const res of [
      await t.request.patch(`/api/eve_widgets/${id}`).set(operator).send({ level: 'x' }),
      await t.request.put(`/api/eve_widgets/${id}`).set(operator).send({ level: 'x' }),
    ]) {
      const err = expectEveError(res, 422, { issues: ['level'] });
      expect(err._error.code).toBe(422);
    }
  });

  it('PUT of an unknown id is a 404 (Eve: UPSERT_ON_PUT creates it, 201)', async () => {
    const id = 'ffffffffffffffffffffffff';
    expectEveError(await t.request.put(`/api/eve_widgets/${id}`).set(operator).send(widget()), 404);
    expect(await t.store.count('eve_widgets', { _id: id })).toBe(0);
  });

  it('_id in a body is a read-only field, 422 (Eve: a client ObjectId on POST is taken, on PATCH a 400 "immutable field")', async () => {
    const post = expectEveError(
      await t.request
        .post('/api/eve_widgets')
        .set(operator)
        .send(widget({ _id: 'ffffffffffffffffffffff01' })),
      422,
    );
    expect(post._issues).toEqual({ _id: 'field is read-only' });
    const { id } = await createWidget(t);
    const patch = expectEveError(
      await t.request.patch(`/api/eve_widgets/${id}`).set(operator).send({ _id: id }),
      422,
    );
    expect(patch._issues).toEqual({ _id: 'field is read-only' });
  });

  it('a PATCH that changes nothing is 200, also right after another one (Eve: 412 within the same second, issue #920)', async () => {
    const { id } = await createWidget(t, { level: 3 });
    const first = await t.request.patch(`/api/eve_widgets/${id}`).set(operator).send({ level: 3 });
    const second = await t.request
      .patch(`/api/eve_widgets/${id}`)
      .set(operator)
      .set('If-Match', String(first.headers.etag))
      .send({ level: 3 });
    expect([first.status, second.status]).toEqual([200, 200]);
  });

  it('a collection DELETE needs a where, 400 without one (Eve: DELETE /resource deletes everything)', async () => {
    const err = expectEveError(await t.request.delete('/api/groups').set(auth('admin')), 400);
    expect(err._error.message).toMatch(/^where:/);
  });

  it('X-HTTP-Method-Override is not honoured: a POST stays a POST (Eve: the header rewrites the method)', async () => {
    const manager = await t.request.post('/api/vpn_managers').set(auth('admin')).send(vpnManagerBody());
    const id = String((manager.body as { _id: string })._id);
    expectEveError(
      await t.request
        .post(`/api/vpn_managers/${id}`)
        .set(auth('admin'))
        .set('X-HTTP-Method-Override', 'DELETE'),
      405,
    );
    expect((await t.request.get(`/api/vpn_managers/${id}`).set(viewer)).status).toBe(200);
  });
});

describe('reads', () => {
  it('a soft-deleted item is a plain 404 (Eve: 404 whose body is the document with _status ["ERR"])', async () => {
    const id = (await insertHost(t.store, `${uniqueName('sd')}.fleet.test`, { _soft_deleted: true }))._id;
    const err = expectEveError(await t.request.get(`/api/hosts/${id}`).set(viewer), 404);
    expect(err).not.toHaveProperty('_id');
  });

  it('where is MongoDB JSON only: a Python expression is a 400 (Eve: parses `a == "b"` too)', async () => {
    const err = expectEveError(
      await t.request.get('/api/hosts').query({ where: 'status == "up"' }).set(viewer),
      400,
    );
    expect(err._error.message).toMatch(/^where:/);
  });

  it('Accept: application/xml still answers JSON (Eve: renders XML)', async () => {
    const res = await t.request.get('/api/hosts').set(viewer).set('Accept', 'application/xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('a dangling reference embedded as null has no related link (Eve: the link to the missing id stays)', async () => {
    const gone = `${uniqueName('gone')}.fleet.test`;
    const action = await insertAction(t.store, gone);
    const plain = await t.request.get(`/api/actions/${action._id}`).set(viewer);
    expect((plain.body as { _links: { related?: unknown } })._links.related).toEqual({
      host: { title: 'Host', href: `hosts/${gone}` },
    });
    const embedded = await t.request
      .get(`/api/actions/${action._id}`)
      .query({ embedded: '{"host": 1}' })
      .set(viewer);
    expect((embedded.body as { host: unknown; _links: { related?: unknown } }).host).toBeNull();
    expect((embedded.body as { _links: { related?: unknown } })._links.related).toBeUndefined();
  });
});
