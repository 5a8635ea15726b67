/**
 * Security headers and uploaded media: `nosniff` and a CSP that loads nothing on every
 * answer, errors included; media shown in place only for raster images and PDF, every other type
 * (HTML, SVG) a download, always under a sandbox; a file item needs its file.
 */
import { auth, expectEveError, startTestServer, uniqueName, type TestServer } from '../helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

function expectSecurityHeaders(headers: Record<string, string>): void {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-security-policy']).toMatch(/^default-src 'none'/);
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
}

describe('every answer carries the security headers', () => {
  test.each([
    ['a list', () => s.request.get('/api/hosts').set(auth('viewer')), 200],
    ['the health check', () => s.request.get('/api/health'), 200],
    ['the OpenAPI document', () => s.request.get('/api/docs/openapi.json'), 200],
    ['a 401', () => s.request.get('/api/hosts'), 401],
    ['a 404 of an unknown path', () => s.request.get('/nowhere').set(auth('viewer')), 404],
    ['a 400 of a bad query', () => s.request.get('/api/hosts?where=nope').set(auth('viewer')), 400],
    ['a 405', () => s.request.put('/api/hosts').set(auth('admin')), 405],
  ])('%s', async (_name, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expectSecurityHeaders(res.headers);
  });
});

async function upload(
  filename: string,
  contentType: string,
  bytes = Buffer.from('<html><script>alert(1)</script></html>'),
) {
  const res = await s.request
    .post('/api/files')
    .set(auth('operator'))
    .field('name', uniqueName('m'))
    .attach('data', bytes, { filename, contentType });
  expect(res.status).toBe(201);
  const item = await s.request.get(`/api/files/${(res.body as { _id: string })._id}`).set(auth('viewer'));
  return s.request
    .get((item.body as { data: string }).data)
    .set(auth('viewer'))
    .responseType('blob');
}

describe('GET /api/media/<id>', () => {
  test.each([
    ['text/html', 'page.html', 'attachment'],
    ['image/svg+xml', 'logo.svg', 'attachment'],
    ['application/xhtml+xml', 'x.xhtml', 'attachment'],
    ['text/html; charset=utf-8', 'page.html', 'attachment'],
    ['application/javascript', 'app.js', 'attachment'],
    ['application/octet-stream', 'blob.bin', 'attachment'],
    ['image/png', 'shot.png', 'inline'],
    ['image/jpeg', 'photo.jpg', 'inline'],
    ['image/gif', 'anim.gif', 'inline'],
    ['image/webp', 'pic.webp', 'inline'],
    ['application/pdf', 'doc.pdf', 'inline'],
  ])('%s is served %s, sandboxed, not sniffed', async (type, filename, disposition) => {
    const media = await upload(filename, type);
    expect(media.status).toBe(200);
    // Multer keeps the type without its parameters.
    expect(media.headers['content-type']).toBe(type.split(';')[0]);
    expect(media.headers['content-disposition']).toBe(`${disposition}; filename*=UTF-8''${filename}`);
    expect(media.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(media.headers['x-content-type-options']).toBe('nosniff');
  });

  test("a file name with quotes, spaces and parentheses is %-encoded (RFC 8187's attr-char)", async () => {
    const media = await upload(`rapport "final" (v2)'*!.pdf`, 'application/pdf');
    expect(media.headers['content-disposition']).toBe(
      `inline; filename*=UTF-8''rapport%20%22final%22%20%28v2%29%27%2A%21.pdf`,
    );
  });
});

describe('POST /api/files needs a file part', () => {
  test('multipart without the data part: 422 naming data, nothing stored', async () => {
    const name = uniqueName('nofile');
    const res = await s.request.post('/api/files').set(auth('operator')).field('name', name);
    const body = expectEveError(res, 422, { issues: ['data'] });
    expect(body._issues?.data).toBe('required field');
    expect(await s.store.count('files', { name })).toBe(0);
  });

  test('a JSON body without data: the same 422', async () => {
    const name = uniqueName('nofile-json');
    const res = await s.request.post('/api/files').set(auth('operator')).send({ name });
    expectEveError(res, 422, { issues: ['data'] });
    expect(await s.store.count('files', { name })).toBe(0);
  });
});
