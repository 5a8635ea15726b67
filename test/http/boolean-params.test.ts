/**
 * The boolean-like query parameters (`show_soft_deleted`, `mark_as_read`) read true / 1 and
 * false / 0 in any case, and refuse anything else with a 400 naming the parameter: a typo never
 * silently means "yes" (`mark_as_read=no` used to mark every returned alert read).
 */
import { auth, expectEveError, insertHosts, startTestServer, type TestServer } from '../helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

test('show_soft_deleted: true and 1 show a deleted host, false and 0 hide it, anything else is a 400', async () => {
  const { docs } = await insertHosts(s.store, 1);
  const id = String(docs[0]?._id);
  expect((await s.request.delete(`/api/hosts/${id}`).set(auth('admin'))).status).toBe(204);
  const get = (value: string) =>
    s.request.get(`/api/hosts/${id}`).query({ show_soft_deleted: value }).set(auth('viewer'));
  for (const shown of ['true', 'TRUE', '1']) expect((await get(shown)).status).toBe(200);
  for (const hidden of ['false', 'False', '0']) expect((await get(hidden)).status).toBe(404);
  for (const bad of ['yes', '', '2'])
    expect(expectEveError(await get(bad), 400)._error.message).toMatch(/^show_soft_deleted: /);
});

test('mark_as_read: false leaves the alerts unread, a bad value marks nothing', async () => {
  const created = await s.request.post('/api/alerts').set(auth('operator')).send({ type: 'host.down' });
  const id = String(created.body._id);
  const read = async (value: string) =>
    s.request.get(`/api/alerts/${id}`).query({ mark_as_read: value }).set(auth('operator'));
  expect((await read('false')).body.read).toBe(false);
  expect(expectEveError(await read('no'), 400)._error.message).toMatch(/^mark_as_read: /);
  expect((await s.request.get(`/api/alerts/${id}`).set(auth('viewer'))).body.read).toBe(false);
  expect((await read('true')).body.read).toBe(true);
});
