/**
 * What the salt-api and VPN clients share (@fleet/upstream): a URL shown without credentials, a
 * query or a trailing slash; secrets replaced in any text; a failed call read as "no answer in
 * time" or "no connection" from real sockets on loopback; the HTTP instance that follows no
 * redirect, goes through no proxy and hands every status and the raw body to the client.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanMessage, createUpstreamHttp, failureOf, redact, safeUrl } from '@fleet/upstream';

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

test('safeUrl drops user info, query, fragment and trailing slashes', () => {
  expect(safeUrl('https://admin:hunter2@salt.example:8000/api/?token=abc#x')).toBe(
    'https://salt.example:8000/api',
  );
  expect(safeUrl('http://vpn.example/')).toBe('http://vpn.example');
  expect(safeUrl('not a url')).toBe('<invalid url>');
});

test('redact replaces every secret of three characters or more, cleanMessage bounds a message', () => {
  expect(redact('login hunter2 with token tok-1 and ab', ['hunter2', 'tok-1', 'ab', undefined])).toBe(
    'login *** with token *** and ab',
  );
  expect(cleanMessage('  a\n\n b  ', 500)).toBe('a b');
  expect(cleanMessage('   ', 502)).toBe('HTTP 502');
  expect(cleanMessage('x'.repeat(400), 500)).toHaveLength(300);
});

describe('against loopback servers', () => {
  const silent = createServer(() => undefined);
  const redirecting = createServer((_req, res) => {
    res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end('moved');
  });
  let silentUrl = '';
  let redirectUrl = '';
  beforeAll(async () => {
    silentUrl = await listen(silent);
    redirectUrl = await listen(redirecting);
  });
  afterAll(() => {
    silent.closeAllConnections();
    silent.close();
    redirecting.close();
  });

  test('a server that does not answer in time is a timeout; a closed port is unreachable', async () => {
    const slow = createUpstreamHttp({ baseURL: silentUrl, responseType: 'text' });
    const timedOut = await slow.http.get('/', { timeout: 50 }).catch((err: unknown) => err);
    expect(failureOf(timedOut)).toEqual({ kind: 'timeout' });
    slow.close();
    const closed = new URL(silentUrl);
    closed.port = '1';
    const none = createUpstreamHttp({ baseURL: closed.toString(), responseType: 'text' });
    const refused = await none.http.get('/').catch((err: unknown) => err);
    expect(failureOf(refused)).toEqual({ kind: 'unreachable', reason: 'ECONNREFUSED' });
    none.close();
  });

  test('a redirect is handed to the client as it came, never followed', async () => {
    const client = createUpstreamHttp({
      baseURL: `${redirectUrl}/`,
      responseType: 'text',
      keepAliveMs: 1000,
    });
    const res = await client.http.get('/login');
    expect([res.status, res.data]).toEqual([302, 'moved']);
    client.close();
  });
});
