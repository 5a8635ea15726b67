/**
 * updates (patches) through HTTP. They come from the master's file server, so fixtures go in
 * through the store port; only the local `description` is changed by PATCH.
 */
import { auth, expectEveError, insertDoc, startTestServer, uniqueName, type TestServer } from '../../helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function insertUpdate(): Promise<string> {
  const name = `${uniqueName('patch')}.sls`;
  const doc = await insertDoc(t.store, 'updates', {
    _id: uniqueName('u'),
    name,
    text: 'pkg.upgrade:\n  - refresh: True\n',
    description: '',
  });
  return doc._id;
}

describe('PATCH /api/updates/{id}', () => {
  it('changes the description (operator) and keeps name and text', async () => {
    const id = await insertUpdate();
    const before = (await t.request.get(`/api/updates/${id}`).set(auth('viewer'))).body as Record<
      string,
      unknown
    >;
    const res = await t.request
      .patch(`/api/updates/${id}`)
      .set(auth('operator'))
      .send({ description: 'Kernel 6.1.0-18 security fixes' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: id, _status: 'OK' });
    const after = (await t.request.get(`/api/updates/${id}`).set(auth('viewer'))).body as Record<
      string,
      unknown
    >;
    expect(after).toMatchObject({
      description: 'Kernel 6.1.0-18 security fixes',
      name: before.name,
      text: before.text,
    });
    expect(after._updated).toBeDefined();
    expect(after._etag).not.toBe(before._etag);
  });

  it.each(['name', 'text'])('refuses %s with 422 and changes nothing', async (field) => {
    const id = await insertUpdate();
    const [before] = await t.store.find('updates', { _id: id });
    const res = await t.request
      .patch(`/api/updates/${id}`)
      .set(auth('admin'))
      .send({ [field]: 'changed', description: 'with it' });
    expectEveError(res, 422, { issues: [field] });
    const [after] = await t.store.find('updates', { _id: id });
    expect(after).toEqual(before);
  });

  it('refuses a description that is not a string, and a viewer', async () => {
    const id = await insertUpdate();
    expectEveError(
      await t.request
        .patch(`/api/updates/${id}`)
        .set(auth('operator'))
        .send({ description: ['x'] }),
      422,
      { issues: ['description'] },
    );
    expectEveError(
      await t.request.patch(`/api/updates/${id}`).set(auth('viewer')).send({ description: 'x' }),
      403,
    );
    expectEveError(
      await t.request
        .patch(`/api/updates/${uniqueName('none')}`)
        .set(auth('operator'))
        .send({ description: 'x' }),
      404,
    );
  });

  it('has no DELETE (405)', async () => {
    const id = await insertUpdate();
    expectEveError(await t.request.delete(`/api/updates/${id}`).set(auth('admin')), 405);
  });
});
