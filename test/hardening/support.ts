/**
 * Helpers of the hardening tests: raw HTTP/1.1 over a socket (for requests no client library
 * will send: bad chunking, control bytes, oversized heads), a parsed raw response, and a
 * multipart body written byte by byte.
 */
import net from 'node:net';

export interface RawResponse {
  readonly status: number;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The whole answer as received (latin1). */
  readonly text: string;
}

/** Sends `request` as is on a new connection; resolves with what came back when the server closes it. */
export function rawRequest(url: string, request: string | Buffer, timeoutMs = 5000): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (err) => {
      clearTimeout(timer);
      // A reset after the answer arrived still leaves the answer to read.
      if (chunks.length > 0) resolve(parseRaw(Buffer.concat(chunks).toString('latin1')));
      else reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseRaw(Buffer.concat(chunks).toString('latin1')));
    });
  });
}

/** Splits one HTTP/1.1 response into status, headers and body. */
export function parseRaw(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(statusLine.split(' ')[1] ?? 0),
    headers,
    body: end === -1 ? '' : text.slice(end + 4),
    text,
  };
}

/** The API's error body (UTF-8 JSON), parsed from a raw response; throws when it is not one. */
export function rawError(res: RawResponse): { code: number; message: string } {
  const parsed = JSON.parse(Buffer.from(res.body, 'latin1').toString('utf8')) as {
    _status?: unknown;
    _error?: { code?: unknown; message?: unknown };
  };
  if (
    parsed._status !== 'ERR' ||
    typeof parsed._error?.code !== 'number' ||
    typeof parsed._error.message !== 'string'
  ) {
    throw new Error(`not the error shape: ${res.body}`);
  }
  return { code: parsed._error.code, message: parsed._error.message };
}

export interface RawPart {
  readonly name: string;
  readonly value: string;
  readonly filename?: string;
  readonly contentType?: string;
}

/** A multipart/form-data body (latin1 bytes as written) and its Content-Type. */
export function multipartBody(
  parts: readonly RawPart[],
  boundary = 'fleet-hardening-boundary',
): { body: Buffer; contentType: string } {
  const text = parts
    .map((p) => {
      const disposition = `Content-Disposition: form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
      const type = p.contentType === undefined ? '' : `\r\nContent-Type: ${p.contentType}`;
      return `--${boundary}\r\n${disposition}${type}\r\n\r\n${p.value}\r\n`;
    })
    .join('');
  return {
    body: Buffer.from(`${text}--${boundary}--\r\n`, 'latin1'),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A POST with the given body and headers, as raw bytes (`Connection: close`). */
export function rawPost(path: string, headers: Readonly<Record<string, string>>, body: Buffer): Buffer {
  const head = Object.entries({
    Host: 'localhost',
    ...headers,
    'Content-Length': String(body.length),
    Connection: 'close',
  })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\n${head}\r\n`, 'latin1'), body]);
}
