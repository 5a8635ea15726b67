/**
 * Multipart details a browser relies on: a UTF-8 file name sent without an explicit charset keeps
 * its characters, a part name nesting too deeply is a 400 in the error shape, and `sort` refuses
 * a path below a secret like the secret itself.
 */
import { auth, expectEveError, startTestServer, type TestServer } from '../helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

it('keeps a UTF-8 file name (RFC 7578: browsers send it without a charset)', async () => {
  const res = await t.request
    .post('/api/files')
    .set(auth('operator'))
    .attach('data', Buffer.from('config'), 'réseau-ß.conf');
  expect(res.status).toBe(201);
  const item = await t.request.get(`/api/files/${String(res.body._id)}`).set(auth('viewer'));
  expect(item.body.name).toBe('réseau-ß.conf');
});

it('refuses a part name nested deeper than the bound with a 400', async () => {
  const res = await t.request
    .post('/api/files')
    .set(auth('operator'))
    .field('a[b][c][d][e][f]', 'x')
    .attach('data', Buffer.from('x'), 'x.txt');
  expect(expectEveError(res, 400)._error.message).toMatch(/nests too deeply/);
});

it('sort below a secret is refused like the secret (a projection may name it: the value stays masked)', async () => {
  const res = await t.request
    .get('/api/hosts')
    .query({ sort: 'vpnsrv_representation.otp_secret.length' })
    .set(auth('viewer'));
  expect(expectEveError(res, 400)._error.message).toMatch(/^sort: .*secret/);
});
