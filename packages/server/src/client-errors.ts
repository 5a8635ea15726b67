/**
 * Requests Node's HTTP parser refuses before Express sees them (headers over 16 KB, a bad chunk
 * size, Content-Length beside Transfer-Encoding, control bytes in the request line or a header):
 * Node answers those itself with an empty `400`/`431`. Here they get the API's one error shape.
 *
 * Follows Node's own default handler (lib/_http_server.js, `socketOnError`): answer only when the
 * socket is writable and no response of this connection has sent its head, then close the
 * connection, since the rest of the stream cannot be framed. https://nodejs.org/api/http.html#event-clienterror
 */
import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { SECURITY_HEADERS } from './security-headers';

/** llhttp's error codes (and Node's own) -> status and our sentence; anything else is a 400. */
const PARSER_ERRORS: Readonly<Record<string, readonly [status: number, message: string]>> = {
  HPE_HEADER_OVERFLOW: [431, `The request headers are too large (more than ${maxHeaderSize} bytes in all)`],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'The chunk extensions of the body are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time'],
  // llhttp reports Content-Length beside Transfer-Encoding as either code, by version.
  HPE_UNEXPECTED_CONTENT_LENGTH: [
    400,
    'The request has both Content-Length and Transfer-Encoding (RFC 9112 §6.3): send one of them',
  ],
  HPE_INVALID_TRANSFER_ENCODING: [
    400,
    'The Transfer-Encoding of the request is not valid: chunked must be its last coding, and Content-Length may not come with it (RFC 9112 §6.1, §6.3)',
  ],
  HPE_INVALID_CHUNK_SIZE: [400, 'The chunked body is malformed: a chunk size is not a hexadecimal number'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'The Content-Length of the request is not valid'],
  HPE_INVALID_HEADER_TOKEN: [400, 'A request header holds a character a header may not (RFC 9110 §5)'],
  HPE_INVALID_METHOD: [400, 'The request method is not valid'],
  HPE_INVALID_URL: [400, 'The request target holds a character a URL may not (a control byte or a space)'],
  HPE_INVALID_VERSION: [400, 'The request is not HTTP/1.0 or HTTP/1.1'],
};

const DEFAULT_ERROR: readonly [number, string] = [400, 'The request is not valid HTTP/1.1'];

/** The whole response, head and JSON body, for a parser error code. */
export function parserErrorResponse(code: string | undefined): string {
  const [status, message] = (code === undefined ? undefined : PARSER_ERRORS[code]) ?? DEFAULT_ERROR;
  const body = JSON.stringify({ _status: 'ERR', _error: { code: status, message } });
  const headers = {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${head.join('')}\r\n${body}`;
}

/** The socket's response in flight, if any: Node's own handler checks it the same way (a private field). */
function headSent(socket: Duplex): boolean {
  const current: unknown = Reflect.get(socket, '_httpMessage');
  return (
    typeof current === 'object' &&
    current !== null &&
    'headersSent' in current &&
    current.headersSent === true
  );
}

/** The `clientError` listener of the HTTP server. */
export function clientErrorHandler(log: Logger): (err: Error & { code?: string }, socket: Duplex) => void {
  return (err, socket) => {
    // A client that went away (or a half-written response) has no one to answer.
    if (err.code === 'ECONNRESET' || !socket.writable || headSent(socket)) {
      socket.destroy();
      return;
    }
    log.info({ code: err.code }, 'request refused by the HTTP parser');
    socket.end(parserErrorResponse(err.code));
  };
}
