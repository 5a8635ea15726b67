/**
 * CORS for browser clients on other origins: preflights answered with the methods, the headers
 * (those the preflight asks for, or CORS_ALLOWED_HEADERS) and Access-Control-Max-Age
 * (CORS_MAX_AGE_S), with the Vary a cache needs; answers (errors too) readable by a listed origin,
 * with the headers a client needs exposed; nothing for an origin not listed.
 */
import { ConfigError, loadConfig } from '../../packages/server/src/config';
import { auth, startTestServer, type TestServer } from '../helpers';

const APP = 'https://app.fleet.test';

function preflight(t: TestServer, path: string, headers: string, origin = APP) {
  return t.request
    .options(path)
    .set('Origin', origin)
    .set('Access-Control-Request-Method', 'PATCH')
    .set('Access-Control-Request-Headers', headers);
}

describe('with CORS_ORIGINS and the defaults', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { CORS_ORIGINS: `${APP}, https://admin.fleet.test` } });
  });
  afterAll(() => t.close());

  it('answers a preflight with the headers it asks for and a max age of 7200 s', async () => {
    const res = await preflight(t, '/api/tasks/abc', 'authorization,content-type,if-match,x-trace-id');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-allow-headers']).toBe(
      'authorization,content-type,if-match,x-trace-id',
    );
    expect(res.headers['access-control-allow-methods']?.split(', ')).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    );
    expect(res.headers['access-control-max-age']).toBe('7200');
    expect(res.headers.vary?.split(', ')).toEqual(['Origin', 'Access-Control-Request-Headers']);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('makes answers readable by a listed origin, errors included, with the headers a client reads', async () => {
    const list = await t.request.get('/api/hosts').set('Origin', APP).set(auth('viewer'));
    expect(list.status).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBe(APP);
    expect(list.headers.vary).toBe('Origin');
    const exposed = list.headers['access-control-expose-headers']?.split(', ');
    expect(exposed).toEqual(
      expect.arrayContaining([
        'ETag',
        'Last-Modified',
        'Location',
        'X-Total-Count',
        'X-Deleted-Count',
        'X-Request-Id',
        'Retry-After',
        'Content-Disposition',
        'WWW-Authenticate',
      ]),
    );
    expect(list.headers['access-control-max-age']).toBeUndefined();
    const refused = await t.request.get('/api/hosts').set('Origin', 'https://admin.fleet.test');
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('https://admin.fleet.test');
    // A script on the frontend's origin reads why it was refused (an expired token, say).
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(refused.headers['access-control-expose-headers']).toContain('WWW-Authenticate');
  });

  it('gives an origin not listed nothing', async () => {
    const res = await preflight(t, '/api/tasks/abc', 'authorization', 'https://evil.test');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-headers']).toBeUndefined();
    expect(res.headers['access-control-max-age']).toBeUndefined();
    const get = await t.request.get('/api/hosts').set('Origin', 'https://evil.test').set(auth('viewer'));
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('with CORS_ALLOWED_HEADERS and CORS_MAX_AGE_S', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: {
        CORS_ORIGINS: '*',
        CORS_ALLOWED_HEADERS: 'Authorization, Content-Type, If-Match',
        CORS_MAX_AGE_S: '600',
      },
    });
  });
  afterAll(() => t.close());

  it('answers the configured headers whatever the preflight asks, for any origin with *', async () => {
    const res = await preflight(t, '/api/hosts', 'authorization,x-trace-id', 'http://localhost:3000');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(res.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, If-Match');
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers.vary).toBe('Origin');
  });
});

it('refuses a CORS_ALLOWED_HEADERS that is not a list of header names, and a max age out of range', () => {
  expect(() => loadConfig({ CORS_ALLOWED_HEADERS: 'Authorization, X Bad' })).toThrow(
    new ConfigError('Invalid configuration: CORS_ALLOWED_HEADERS must be a comma list of header names'),
  );
  expect(() => loadConfig({ CORS_MAX_AGE_S: '-1' })).toThrow(ConfigError);
  expect(loadConfig({}).CORS_MAX_AGE_S).toBe(7200);
});
