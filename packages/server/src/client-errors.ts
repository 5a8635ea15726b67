/**
 * Requests refused below the application, each answered in the API's one error shape (Node would
 * answer them itself with an empty body or none):
 *
 * - what Node's HTTP parser refuses before Express sees it (headers over 16 KB, a bad chunk size,
 *   Content-Length twice or beside Transfer-Encoding, control bytes in the request line or a
 *   header). Follows Node's own default handler (lib/_http_server.js, `socketOnError`): answer
 *   only when the socket is writable and no response of this connection has sent its head, then
 *   close the connection, since the rest of the stream cannot be framed.
 *   https://nodejs.org/api/http.html#event-clienterror
 * - an `Expect` other than `100-continue` (Node's bare 417; the `checkExpectation` event);
 * - what the parser lets through and HTTP/1.1 does not: a request without `Host` (Node's bare
 *   400, turned off by {@link SERVER_OPTIONS}: the app answers it, `requestFraming`), and
 *   `Transfer-Encoding` on an HTTP/1.0 request (RFC 9112 §6.1: its framing is faulty).
 */
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import { HttpError } from '@fleet/engine';
import type { Logger } from 'pino';
import { SECURITY_HEADERS } from './security-headers';

/** Options of the HTTP server: Node's bare 400 for a missing Host is left to the app, in the error shape. */
export const SERVER_OPTIONS: ServerOptions = { requireHostHeader: false };

/**
 * llhttp's reasons that share a code with another refusal (`err.reason`): Content-Length given
 * twice and Content-Length beside Transfer-Encoding are both HPE_UNEXPECTED_CONTENT_LENGTH or
 * HPE_INVALID_TRANSFER_ENCODING, by version. Looked up before the code.
 */
const PARSER_REASONS: Readonly<Record<string, readonly [status: number, message: string]>> = {
  'Duplicate Content-Length': [
    400,
    'The request has more than one Content-Length header (RFC 9112 §6.3): send exactly one',
  ],
  "Transfer-Encoding can't be present with Content-Length": [
    400,
    'The request has both Content-Length and Transfer-Encoding (RFC 9112 §6.3): send one of them',
  ],
  "Content-Length can't be present with Transfer-Encoding": [
    400,
    'The request has both Content-Length and Transfer-Encoding (RFC 9112 §6.3): send one of them',
  ],
};

/** llhttp's error codes (and Node's own) -> status and our sentence; anything else is a 400. */
const PARSER_ERRORS: Readonly<Record<string, readonly [status: number, message: string]>> = {
  HPE_HEADER_OVERFLOW: [431, `The request headers are too large (more than ${maxHeaderSize} bytes in all)`],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'The chunk extensions of the body are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time'],
  // llhttp gives this code to Content-Length twice and to Content-Length beside Transfer-Encoding,
  // by version; PARSER_REASONS tells them apart when it gives its reason.
  HPE_UNEXPECTED_CONTENT_LENGTH: [
    400,
    'The Content-Length of the request cannot frame its body: it is given twice, or beside Transfer-Encoding (RFC 9112 §6.3)',
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

/** The error body and the headers of an answer given below the app (security headers, connection closed). */
function refusal(status: number, message: string): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ _status: 'ERR', _error: { code: status, message } });
  return {
    body,
    headers: {
      ...SECURITY_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    },
  };
}

/** The whole response, head and JSON body, for a parser error (its code, and llhttp's reason when given). */
export function parserErrorResponse(code: string | undefined, reason?: string): string {
  const [status, message] =
    (reason === undefined ? undefined : PARSER_REASONS[reason]) ??
    (code === undefined ? undefined : PARSER_ERRORS[code]) ??
    DEFAULT_ERROR;
  const { body, headers } = refusal(status, message);
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
export function clientErrorHandler(
  log: Logger,
): (err: Error & { code?: string; reason?: string }, socket: Duplex) => void {
  return (err, socket) => {
    // A client that went away (or a half-written response) has no one to answer.
    if (err.code === 'ECONNRESET' || !socket.writable || headSent(socket)) {
      socket.destroy();
      return;
    }
    log.info({ code: err.code, reason: err.reason }, 'request refused by the HTTP parser');
    socket.end(parserErrorResponse(err.code, err.reason));
  };
}

/** A header's value as it may be quoted back: printable, short. */
function shown(value: string): string {
  const printable = value.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 64 ? `${printable.slice(0, 64)}...` : printable;
}

/**
 * The `checkExpectation` listener: an `Expect` other than `100-continue` (RFC 9110 §10.1.1: a
 * server that does not meet an expectation answers 417), in the error shape, connection closed
 * (the body, if the client sends it anyway, is not read).
 */
export function expectationFailed(req: IncomingMessage, res: ServerResponse): void {
  const { body, headers } = refusal(
    417,
    `The request expects "${shown(req.headers.expect ?? '')}": this server meets only Expect: 100-continue (RFC 9110 §10.1.1)`,
  );
  res.writeHead(417, headers).end(body);
}

/** Installs the listeners of this module on the API's HTTP server (made with {@link SERVER_OPTIONS}). */
export function guardProtocol(server: Server, log: Logger): void {
  server.on('clientError', clientErrorHandler(log));
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    log.info(
      { method: req.method, expect: shown(req.headers.expect ?? '') },
      'request expects what the server does not meet',
    );
    expectationFailed(req, res);
  });
}

/**
 * What HTTP/1.1 refuses and Node's parser lets through, refused before any route: a request of
 * HTTP/1.1 without `Host` (RFC 9112 §3.2), and `Transfer-Encoding` on HTTP/1.0 (RFC 9112 §6.1:
 * the framing is faulty, and the connection is closed). Both answers close the connection.
 */
export function requestFraming(): RequestHandler {
  const close = { Connection: 'close' };
  return (req, _res, next) => {
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      next(
        new HttpError(
          400,
          'The request has no Host header: HTTP/1.1 requires one (RFC 9112 §3.2)',
          undefined,
          close,
        ),
      );
      return;
    }
    if (req.httpVersion === '1.0' && req.headers['transfer-encoding'] !== undefined) {
      next(
        new HttpError(
          400,
          'Transfer-Encoding is not part of HTTP/1.0 (RFC 9112 §6.1): send the body with a Content-Length, or as HTTP/1.1',
          undefined,
          close,
        ),
      );
      return;
    }
    next();
  };
}
