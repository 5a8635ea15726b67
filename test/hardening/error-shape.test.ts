/**
 * Every failure in the error shape: bodies nested past the bound, requests Node's HTTP
 * parser refuses (431 headers, bad chunking, Content-Length with Transfer-Encoding, control bytes),
 * multipart parts with control bytes in their headers, and body fields named after Object's
 * prototype. Each was a 500 or an empty body; each is now a 4xx with `_status/_error`.
 */
import { auth, expectEveError, startTestServer, TOKENS, type TestServer } from '../helpers';
import { multipartBody, rawError, rawPost, rawRequest } from './support';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

/** `{"a": {"a": ... 1}}` with `depth` objects in all. */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{"a":1}${'}'.repeat(depth - 1)}`;
}

const alert = (payload: string) => `{"type":"test.depth","payload":${payload}}`;

describe('JSON bodies are bounded to 32 levels before anything walks them', () => {
  test.each([
    ['10,000 levels (overflowed the etag canonicaliser: 500)', 10_000],
    ['1,000 levels (past SQLite json depth: 500)', 1_000],
    ['33 levels', 32],
  ])('%s: 400 naming body', async (_name, payloadDepth) => {
    const res = await s.request
      .post('/api/alerts')
      .set(auth('operator'))
      .set('Content-Type', 'application/json')
      .send(alert(nested(payloadDepth)));
    expect(expectEveError(res, 400)._error.message).toBe('body: nested deeper than 32 levels');
  });

  test('32 levels in all is accepted and stored', async () => {
    const res = await s.request
      .post('/api/alerts')
      .set(auth('operator'))
      .set('Content-Type', 'application/json')
      .send(alert(nested(31)));
    expect(res.status).toBe(201);
  });

  test('an array nested 100,000 deep, and a deep item of a bulk POST', async () => {
    const arrays = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    for (const body of [arrays, `[${alert(nested(40))}]`]) {
      const res = await s.request
        .post('/api/alerts')
        .set(auth('operator'))
        .set('Content-Type', 'application/json')
        .send(body);
      expect(expectEveError(res, 400)._error.message).toBe('body: nested deeper than 32 levels');
    }
  });

  test('PATCH and PUT bodies too', async () => {
    const created = await s.request
      .post('/api/tasks')
      .set(auth('operator'))
      .send({ name: 'depth', fun: 'test.ping', start: '2030-01-01 00:00', tgt: ['h1'] });
    expect(created.status).toBe(201);
    const id = (created.body as { _id: string })._id;
    const deepKwarg = `{"kwarg":${nested(50)}}`;
    const patch = await s.request
      .patch(`/api/tasks/${id}`)
      .set(auth('operator'))
      .set('Content-Type', 'application/json')
      .send(deepKwarg);
    expect(expectEveError(patch, 400)._error.message).toMatch(/^body: /);
    const put = await s.request
      .put('/api/tasks')
      .set(auth('operator'))
      .set('Content-Type', 'application/json')
      .send(`{"_id":"${id}","kwarg":${nested(50)}}`);
    expect(expectEveError(put, 400)._error.message).toMatch(/^body: /);
  });
});

describe("requests Node's HTTP parser refuses are answered in the error shape", () => {
  const viewer = `Authorization: Bearer ${TOKENS.viewer}\r\n`;
  const admin = `Authorization: Bearer ${TOKENS.admin}\r\n`;
  test.each([
    [
      'headers over 16 KB',
      431,
      `GET /api/hosts HTTP/1.1\r\nHost: x\r\n${viewer}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      /headers are too large/,
    ],
    [
      'a chunk size that is not hexadecimal',
      400,
      `POST /api/groups HTTP/1.1\r\nHost: x\r\n${admin}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      /chunked body is malformed/,
    ],
    [
      'Content-Length beside Transfer-Encoding',
      400,
      `POST /api/groups HTTP/1.1\r\nHost: x\r\n${admin}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      /Content-Length .*Transfer-Encoding|Transfer-Encoding .*Content-Length/,
    ],
    [
      'a control byte in the path',
      400,
      `GET /api/ho\u0001sts HTTP/1.1\r\nHost: x\r\n${viewer}\r\n`,
      /not valid|control byte/,
    ],
    [
      'a control byte in a header value',
      400,
      `GET /api/hosts HTTP/1.1\r\nHost: x\r\nX-Note: a\u0001b\r\n${viewer}\r\n`,
      /header/,
    ],
    [
      'a header name with a space',
      400,
      `GET /api/hosts HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n`,
      /header/,
    ],
    [
      'a method that is not a token',
      400,
      `G\u0000T /api/hosts HTTP/1.1\r\nHost: x\r\n\r\n`,
      /method|not valid/,
    ],
    [
      'Content-Length given twice (the same value)',
      400,
      `POST /api/groups HTTP/1.1\r\nHost: x\r\n${admin}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}`,
      /^The request has more than one Content-Length header \(RFC 9112 §6\.3\): send exactly one$/,
    ],
    [
      'no Host header on HTTP/1.1',
      400,
      `GET /api/hosts HTTP/1.1\r\n${viewer}\r\n`,
      /^The request has no Host header: HTTP\/1\.1 requires one \(RFC 9112 §3\.2\)$/,
    ],
    [
      'an expectation other than 100-continue',
      417,
      `GET /api/hosts HTTP/1.1\r\nHost: x\r\nExpect: x-bogus\r\n${viewer}\r\n`,
      /^The request expects "x-bogus": this server meets only Expect: 100-continue/,
    ],
    [
      'Transfer-Encoding on HTTP/1.0',
      400,
      `POST /api/groups HTTP/1.0\r\nHost: x\r\n${admin}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n11\r\n{"name":"te-1-0"}\r\n0\r\n\r\n`,
      /^Transfer-Encoding is not part of HTTP\/1\.0 \(RFC 9112 §6\.1\)/,
    ],
  ])('%s: %s', async (_name, status, request, message) => {
    const res = await rawRequest(s.url, request);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.connection).toBe('close');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body, 'latin1'));
    const error = rawError(res);
    expect(error.code).toBe(status);
    expect(error.message).toMatch(message);
  });

  test('the server keeps answering after each of them, and stored nothing they carried', async () => {
    expect((await s.request.get('/api/hosts').set(auth('viewer'))).status).toBe(200);
    expect(await s.store.count('groups', { name: 'te-1-0' })).toBe(0);
  });

  test('HTTP/1.0 needs no Host, and 100-continue is still met', async () => {
    const old = await rawRequest(s.url, `GET /api/hosts HTTP/1.0\r\n${viewer}\r\n`);
    expect(old.status).toBe(200);
    const body = '{"name":"continued"}';
    const continued = await rawRequest(
      s.url,
      `POST /api/groups HTTP/1.1\r\nHost: x\r\n${admin}Content-Type: application/json\r\nExpect: 100-continue\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(continued.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
  });
});

describe('a body announced larger than the route takes is refused before it is read', () => {
  test.each([
    [
      'an upload of 100 MB',
      '/api/files',
      TOKENS.operator,
      'multipart/form-data; boundary=b',
      /more than an upload to files may be/,
    ],
    [
      'a JSON body of 100 MB',
      '/api/groups',
      TOKENS.admin,
      'application/json',
      /more than the 1048576 bytes allowed/,
    ],
    [
      'a form of 100 MB',
      '/api/groups',
      TOKENS.admin,
      'application/x-www-form-urlencoded',
      /more than the 1048576 bytes allowed/,
    ],
  ])(
    '%s: 413 in the error shape at once, the connection closed',
    async (_name, path, token, type, message) => {
      // Only the head and a few bytes are sent: the answer comes without the rest of the body.
      const res = await rawRequest(
        s.url,
        `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${type}\r\nContent-Length: 104857600\r\n\r\n--b\r\n`,
      );
      expect(res.status).toBe(413);
      expect(res.headers.connection).toBe('close');
      const error = rawError(res);
      expect(error.message).toMatch(/^The request body is 104857600 bytes by its Content-Length, more than /);
      expect(error.message).toMatch(message);
    },
  );
});

describe('multipart parts with control bytes in their headers are a 400, not a 500', () => {
  test.each([
    ['a NUL in the filename', { filename: 'a\u0000b.txt', contentType: 'text/plain' }],
    ['a DEL in the Content-Type', { filename: 'a.txt', contentType: 'text/pl\u007fain' }],
    ['a CR alone in the filename', { filename: 'a\rb.txt', contentType: 'text/plain' }],
  ])('%s', async (_name, part) => {
    const { body, contentType } = multipartBody([
      { name: 'name', value: 'ctl' },
      { name: 'data', value: 'hello', ...part },
    ]);
    const res = await rawRequest(
      s.url,
      rawPost(
        '/api/files',
        { Authorization: `Bearer ${TOKENS.operator}`, 'Content-Type': contentType },
        body,
      ),
    );
    expect(res.status).toBe(400);
    expect(rawError(res).message).toMatch(/^Malformed multipart body: a part header is not valid/);
    expect(await s.store.count('files', { name: 'ctl' })).toBe(0);
  });
});

describe("body fields named after Object's prototype are unknown fields like any other", () => {
  const PROTO_KEYS = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__proto__'];
  test.each(PROTO_KEYS)('POST {"%s": ...} -> 422 unknown field', async (key) => {
    const res = await s.request
      .post('/api/groups')
      .set(auth('admin'))
      .set('Content-Type', 'application/json')
      .send(`{"name":"proto-${key}","${key}":{"x":1}}`);
    expect(expectEveError(res, 422, { issues: [key] })._issues?.[key]).toBe('unknown field');
    expect(await s.store.count('groups', { name: `proto-${key}` })).toBe(0);
  });

  test.each(PROTO_KEYS)('PATCH {"%s": ...} -> 422 unknown field', async (key) => {
    const created = await s.request
      .post('/api/groups')
      .set(auth('admin'))
      .send({ name: `patched-${key}` });
    const res = await s.request
      .patch(`/api/groups/${(created.body as { _id: string })._id}`)
      .set(auth('admin'))
      .set('Content-Type', 'application/json')
      .send(`{"${key}":{"x":1}}`);
    expect(expectEveError(res, 422, { issues: [key] })._issues?.[key]).toBe('unknown field');
  });
});
