/**
 * The one place errors become responses: `{"_status":"ERR","_error":{"code","message"}}`, plus
 * `_issues` on 422 (nested like the document), or `_items` with one status per document for a bulk
 * insert. Body-parser and Multer errors are translated; anything unknown is a bare 500 whose
 * detail goes to the log only. A request the client cut off is logged in one line and answered to
 * no one; and the handler never throws, so Express's own (HTML, with a stack) handler never answers.
 */
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { Log } from '../log';
import {
  BadRequest,
  BulkUnprocessable,
  HttpError,
  NotFound,
  PayloadTooLarge,
  UnsupportedMediaType,
} from '../errors';
import { MAX_BODY_KEY_LENGTH, MAX_BODY_KEYS, MAX_BODY_TEXT_BYTES } from '../query/bounds';

interface ParserError {
  name?: string;
  type?: string;
  status?: number;
  code?: string;
  message?: string;
}

/**
 * Busboy's errors (Multer's parser; busboy/lib/types/multipart.js, urlencoded.js) are plain
 * `Error`s told apart by their text: each gets a 400 in our words. A part header with a control
 * byte (a NUL in the filename, a DEL in its Content-Type) is "Malformed part header".
 */
const BUSBOY_ERRORS: Readonly<Record<string, string>> = {
  'Malformed part header':
    'Malformed multipart body: a part header is not valid (control characters such as NUL or DEL are not allowed in headers)',
  'Unexpected end of form': 'Malformed multipart body: it ends before its closing boundary',
  'Unexpected end of file': 'Malformed multipart body: a file part ends before its boundary',
  'Multipart: Boundary not found': 'Malformed multipart body: the Content-Type names no boundary',
  'Malformed content type': 'Malformed multipart body: the Content-Type cannot be parsed',
  'Missing Content-Type': 'Malformed multipart body: the Content-Type is missing',
  'Malformed urlencoded form': 'Malformed form body: it is not valid application/x-www-form-urlencoded',
};

/** Multer's error codes (multer/lib/multer-error.js) in our words; LIMIT_FILE_SIZE is the 413 above. */
const MULTER_ERRORS: Readonly<Record<string, string>> = {
  LIMIT_PART_COUNT: 'the body has too many parts',
  LIMIT_FILE_COUNT: 'the body has more files than this resource has media fields',
  LIMIT_FIELD_KEY: `a part name is longer than ${MAX_BODY_KEY_LENGTH} characters`,
  LIMIT_FIELD_VALUE: `a text part is larger than ${MAX_BODY_TEXT_BYTES} bytes`,
  LIMIT_FIELD_COUNT: `the body has more than ${MAX_BODY_KEYS} text parts`,
  LIMIT_UNEXPECTED_FILE: 'a file part is not named after a media field of this resource',
  MISSING_FIELD_NAME: 'a part has no name',
  LIMIT_FIELD_NESTING: 'a part name nests too deeply',
  LIMIT_FIELD_ARRAY_INDEX: 'a part name holds too large an array index',
  INVALID_FIELD_NAME: 'a part name is not valid',
  STREAM_DESTROYED: 'the upload was cut off',
};

/**
 * Why the request's client cut it off (an upload aborted half-way), or undefined: body-parser's
 * `request.aborted`, Multer's "Request aborted" / "Request closed" (both made from the request's
 * own events), or a reset while the client's connection is gone (a reset of an upstream
 * connection, with the client still there, is an error like any other).
 */
function cutOff(err: unknown, req: Request): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as ParserError;
  if (e.type === 'request.aborted') return 'request aborted';
  if (e.message === 'Request aborted' || e.message === 'Request closed') return e.message.toLowerCase();
  const reset = e.code === 'ECONNRESET' || e.code === 'ECONNABORTED' || e.message === 'aborted';
  return reset && req.socket.destroyed ? (e.code ?? 'aborted') : undefined;
}

/** Body-parser / Multer errors to typed ones; null when the error is not one of theirs. */
function translate(err: unknown, maxUploadBytes: number): HttpError | null {
  if (err instanceof HttpError) return err;
  if (typeof err !== 'object' || err === null) return null;
  const e = err as ParserError;
  if (e.type === 'entity.parse.failed') return new BadRequest('The body is not valid JSON');
  if (e.type === 'entity.too.large') return new PayloadTooLarge('The request body is too large');
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
    return new UnsupportedMediaType(e.message ?? 'Unsupported encoding');
  if (e.code === 'LIMIT_FILE_SIZE')
    return new PayloadTooLarge(`The upload is larger than the limit of ${maxUploadBytes} bytes`);
  const multer = typeof e.code === 'string' && e.name === 'MulterError' ? MULTER_ERRORS[e.code] : undefined;
  if (multer !== undefined || e.name === 'MulterError')
    return new BadRequest(`Upload refused: ${multer ?? 'the multipart body is not valid'}`);
  const busboy = e.message === undefined ? undefined : BUSBOY_ERRORS[e.message];
  if (busboy !== undefined) return new BadRequest(busboy);
  // Other client errors of Express and its parsers: a bad %-escape in the path, a corrupt compressed body.
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500)
    return new HttpError(e.status, e.message ?? 'Bad request');
  return null;
}

/**
 * The error body of a typed error. A bulk insert answers each submitted document in order, as
 * Eve's `post_internal` does: `{"_status": "OK"}` or `{"_status": "ERR", "_issues": {...}}`.
 */
export function errorBody(err: HttpError): Record<string, unknown> {
  const body: Record<string, unknown> = {
    _status: 'ERR',
    _error: { code: err.status, message: err.message },
  };
  if (err instanceof BulkUnprocessable)
    body._items = err.items.map((issues) =>
      issues === null ? { _status: 'OK' } : { _status: 'ERR', _issues: issues },
    );
  else if (err.issues) body._issues = err.issues;
  return body;
}

/** The answer when rendering the error itself failed: static, so it cannot fail in turn. */
const RENDER_FAILED = JSON.stringify({
  _status: 'ERR',
  _error: { code: 500, message: 'Internal server error' },
});

/** Express error middleware rendering every failure in the API's one error shape. */
export function errorHandler(log: Log, maxUploadBytes: number): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    // The path only, as the request log: the query may hold filters (`where`) worth keeping out of logs.
    const where = { method: req.method, path: req.originalUrl.split('?', 1)[0] };
    const gone = cutOff(err, req);
    if (gone !== undefined) {
      log.info({ ...where, reason: gone }, 'request cut off by the client');
      res.destroy();
      return;
    }
    const known = translate(err, maxUploadBytes);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    try {
      if (!known) {
        log.error({ err, ...where }, 'unhandled error');
        res.status(500).json({ _status: 'ERR', _error: { code: 500, message: 'Internal server error' } });
        return;
      }
      if (known.status >= 500) log.warn({ status: known.status, message: known.message }, 'upstream error');
      for (const [k, v] of Object.entries(known.headers ?? {})) res.setHeader(k, v);
      res.status(known.status).json(errorBody(known));
    } catch (failure) {
      // An error body that cannot be rendered (JSON.stringify of issues nested past the stack):
      // one line, no stack, and the static 500.
      log.error(
        {
          ...where,
          status: known?.status,
          failure: failure instanceof Error ? failure.message : String(failure),
        },
        'error body could not be rendered',
      );
      if (res.headersSent) res.destroy();
      else res.status(500).type('application/json').send(RENDER_FAILED);
    }
  };
}

/** The last route: a 404 in the error shape for unknown paths. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new NotFound(`No route for ${req.method} ${req.path}`));
};
