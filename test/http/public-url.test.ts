/**
 * PUBLIC_URL: where clients reach the API. Media links read back absolute under it (path prefix
 * kept), so `<img src={file.data}>` on the frontend's origin opens the file; the link's path and
 * query are the signed ones. A bad PUBLIC_URL stops the start naming it.
 */
import { linkUrl } from '@fleet/client';
import { loadConfig } from '../../packages/server/src/config';
import { auth, startTestServer, uniqueName, type TestServer } from '../helpers';

const PUBLIC = 'https://fleet.example.test/ops';
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { PUBLIC_URL: `${PUBLIC}/` } });
});
afterAll(() => t.close());

test('a file reads back with an absolute link under PUBLIC_URL that opens its bytes', async () => {
  const created = await t.request
    .post('/api/files')
    .set(auth('operator'))
    .field('name', uniqueName('motd'))
    .attach('data', Buffer.from('hello\n'), { filename: 'motd.txt', contentType: 'text/plain' });
  expect(created.status).toBe(201);
  const file = await t.request.get(`/api/files/${String(created.body._id)}`).set(auth('viewer'));
  const data = String(file.body.data);
  expect(data).toMatch(
    /^https:\/\/fleet\.example\.test\/ops\/api\/media\/[0-9a-f]{24}\?expires=\d+&signature=/,
  );
  // The client takes an absolute link as it is.
  expect(linkUrl('http://elsewhere.test', data)).toBe(data);
  // Behind the proxy that strips /ops, the same path and query reach this server.
  const link = new URL(data);
  const bytes = await fetch(`${t.url}${link.pathname.replace(/^\/ops/, '')}${link.search}`);
  expect(bytes.status).toBe(200);
  expect(await bytes.text()).toBe('hello\n');
});

test('PUBLIC_URL must be an http(s) URL without query or fragment', () => {
  for (const bad of [
    'fleet.example.test',
    'ftp://fleet.example.test',
    'https://x.test/?a=1',
    'https://x.test/#top',
  ])
    expect(() => loadConfig({ PUBLIC_URL: bad })).toThrow(/^Invalid configuration: PUBLIC_URL /);
  expect(loadConfig({ PUBLIC_URL: 'https://x.test/a//' }).PUBLIC_URL).toBe('https://x.test/a');
});
