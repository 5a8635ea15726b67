/**
 * `where` on a path below a secret field inside an open object: the open object lets any
 * sub-path through, so `vpnsrv_representation.auth_token.length` passed the secret check and
 * matched on the sealed value. It is refused like the secret field itself; open siblings still work.
 */
import { auth, expectEnvelope, expectEveError, startTestServer, type TestServer } from '../helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const list = (where: Record<string, unknown>) =>
  s.request
    .get('/api/vpn_organizations')
    .query({ where: JSON.stringify(where) })
    .set(auth('viewer'));

describe('where below a secret field of an open object', () => {
  test.each([
    ['a property of the sealed string', { 'vpnsrv_representation.auth_token.length': { $gt: 0 } }],
    ['any sub-path', { 'vpnsrv_representation.auth_secret.x': { $exists: true } }],
    ['an array index then a sub-path', { 'vpnsrv_representation.auth_token.0.x': 'a' }],
    ['inside $or', { $or: [{ name: 'x' }, { 'vpnsrv_representation.auth_token.length': 44 }] }],
    ['under $not', { 'vpnsrv_representation.auth_token.length': { $not: { $lt: 10 } } }],
  ])('%s is refused with 400 naming the secret field', async (_name, where) => {
    const body = expectEveError(await list(where), 400);
    expect(body._error.message).toMatch(
      /^where: field "vpnsrv_representation\.auth_(token|secret)[.\w]*" is (inside the secret field "vpnsrv_representation\.auth_(token|secret)"|secret)/,
    );
  });

  test('the secret field itself stays refused', async () => {
    const body = expectEveError(await list({ 'vpnsrv_representation.auth_token': 'x' }), 400);
    expect(body._error.message).toBe(
      'where: field "vpnsrv_representation.auth_token" is secret and cannot be queried',
    );
  });

  test('open sub-paths beside the secrets still filter', async () => {
    expectEnvelope(await list({ 'vpnsrv_representation.undeclared.deep': 1 }), {
      page: 1,
      maxResults: 25,
      total: 0,
    });
    expectEnvelope(await list({ 'vpnsrv_representation.name': 'x' }), { page: 1, maxResults: 25, total: 0 });
  });
});
