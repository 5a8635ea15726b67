/**
 * The hostile requests beyond queries, for bench/stall.ts: bodies nested past the
 * bound, requests Node's HTTP parser refuses (sent raw on a socket), multipart parts with control
 * bytes, prototype-named fields, a secret sub-path, a file item without its file, and a bulk POST
 * past the cap. Each sends one request and resolves what came back.
 */
import net from 'node:net';

export interface Answer {
  readonly status: number;
  readonly text: string;
}

export interface Attack {
  readonly name: string;
  readonly send: (url: string) => Promise<Answer>;
}

export interface Tokens {
  readonly viewer: string;
  readonly operator: string;
  readonly admin: string;
}

/** One request written as is; the answer read until the server closes the connection. */
function raw(url: string, request: string | Buffer): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    const done = () =>
      resolve({ status: Number(text.split(' ')[1] ?? 0), text: text.slice(text.indexOf('\r\n\r\n') + 4) });
    socket.on('close', done);
    socket.on('error', done);
  });
}

async function fetched(url: string, init: RequestInit): Promise<Answer> {
  const res = await fetch(url, init);
  return { status: res.status, text: await res.text() };
}

function json(path: string, token: string, body: string, method = 'POST'): Attack['send'] {
  return (url) =>
    fetched(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
}

function multipart(token: string, filename: string, contentType: string): Attack['send'] {
  const b = 'stall-boundary';
  const body = Buffer.from(
    `--${b}\r\nContent-Disposition: form-data; name="data"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\nhello\r\n--${b}--\r\n`,
    'latin1',
  );
  const head = `POST /api/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=${b}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  return (url) => raw(url, Buffer.concat([Buffer.from(head, 'latin1'), body]));
}

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** The attacks, each with the role it needs. */
export function hostileRequests(t: Tokens): Attack[] {
  const bulk = JSON.stringify(Array.from({ length: 70_000 }, (_, i) => ({ type: 'bulk', payload: { i } })));
  return [
    {
      name: 'body nested 10,000 deep (alerts)',
      send: json('/api/alerts', t.operator, `{"type":"x","payload":${nested(10_000)}}`),
    },
    {
      name: 'body: arrays nested 500,000 deep (1 MB)',
      send: json('/api/alerts', t.operator, `${'['.repeat(500_000)}${']'.repeat(500_000)}`),
    },
    {
      name: 'PATCH body nested 1,000 deep (tasks)',
      send: json('/api/tasks/none', t.operator, `{"kwarg":${nested(1000)}}`, 'PATCH'),
    },
    { name: 'bulk POST of 70,000 alerts', send: json('/api/alerts', t.operator, bulk) },
    {
      name: 'headers of 20 KB (raw)',
      send: (url) => raw(url, `GET /api/hosts HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    },
    {
      name: 'bad chunk size (raw)',
      send: (url) =>
        raw(
          url,
          `POST /api/groups HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.admin}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
        ),
    },
    {
      name: 'Content-Length + Transfer-Encoding (raw)',
      send: (url) =>
        raw(
          url,
          `POST /api/groups HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
        ),
    },
    {
      name: 'control byte in the path (raw)',
      send: (url) => raw(url, `GET /api/ho\u0001sts HTTP/1.1\r\nHost: x\r\n\r\n`),
    },
    { name: 'multipart: NUL in the filename', send: multipart(t.operator, 'a\u0000b.txt', 'text/plain') },
    { name: 'multipart: DEL in the Content-Type', send: multipart(t.operator, 'a.txt', 'text/pl\u007fain') },
    {
      name: 'POST files without a file part',
      send: (url) =>
        fetched(`${url}/api/files`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.operator}` },
          body: (() => {
            const f = new FormData();
            f.append('name', 'x');
            return f;
          })(),
        }),
    },
    {
      name: 'body field "constructor" (groups)',
      send: json('/api/groups', t.admin, '{"name":"stall","constructor":1}'),
    },
    {
      name: 'where on a secret sub-path',
      send: (url) =>
        fetched(
          `${url}/api/vpn_organizations?where=${q({ 'vpnsrv_representation.auth_token.length': { $gt: 0 } })}`,
          {
            headers: { authorization: `Bearer ${t.viewer}` },
          },
        ),
    },
    { name: '/api/health (read + write probe)', send: (url) => fetched(`${url}/api/health`, {}) },
  ];
}
