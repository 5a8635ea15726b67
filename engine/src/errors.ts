/**
 * Typed HTTP errors. Each class carries its status; the one error handler (http/error-handler.ts)
 * renders every one of them as `{"_status":"ERR","_error":{"code","message"}[, "_issues"]}`.
 * Anything that is not an `HttpError` becomes a bare 500 with no detail.
 */
/** `_issues`: a message per field, nested like the document (`{"info": {"regex": "..."}}`), list items by index. */
export interface Issues {
  readonly [field: string]: string | Issues;
}

/** Issues as callers write them: nested, or by dotted path (`"info.regex"`, `"tgt.0"`). */
export interface IssuesInput {
  readonly [field: string]: string | IssuesInput;
}

/**
 * Nests dotted keys like the document, as Eve's error tree does (Cerberus `errors`, unpacked by
 * `eve/validation.py` SingleErrorAsStringErrorHandler). One message per field: a field's own
 * message wins over messages about its sub-fields.
 */
export function nestIssues(input: IssuesInput): Issues {
  const out = tree();
  for (const [key, value] of Object.entries(input))
    place(out, key.split('.'), typeof value === 'string' ? value : nestIssues(value));
  return out;
}

/** A node with no prototype: a field named `__proto__` is a key like any other, never a way into Object.prototype. */
function tree(): Record<string, string | Issues> {
  return Object.create(null) as Record<string, string | Issues>;
}

function place(node: Record<string, string | Issues>, path: readonly string[], value: string | Issues): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const existing = node[head];
  if (typeof existing === 'string') return;
  if (rest.length > 0) {
    place(existing ?? (node[head] = tree()), rest, value);
  } else if (existing === undefined || typeof value === 'string') {
    node[head] = value;
  } else {
    for (const [k, v] of Object.entries(value)) place(existing, [k], v);
  }
}

export class HttpError extends Error {
  /** Nested like the document whatever shape the thrower gave. */
  readonly issues?: Issues;

  constructor(
    readonly status: number,
    message: string,
    issues?: IssuesInput,
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = new.target.name;
    if (issues !== undefined) this.issues = nestIssues(issues);
  }
}

/** 400: a malformed query parameter, JSON body or request. */
export class BadRequest extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

/** 401: no token, or an unknown one. */
export class Unauthorized extends HttpError {
  constructor(message = 'Please provide proper credentials: Authorization: Bearer <token>') {
    super(401, message, undefined, { 'WWW-Authenticate': 'Bearer realm="fleet-api"' });
  }
}

/** 403: the token's role is too low for this method. */
export class Forbidden extends HttpError {
  constructor(message: string) {
    super(403, message);
  }
}

export class NotFound extends HttpError {
  constructor(message = 'The requested resource was not found') {
    super(404, message);
  }
}

/** 405 with the `Allow` header listing what the path accepts. */
export class MethodNotAllowed extends HttpError {
  constructor(allowed: readonly string[]) {
    super(405, 'The method is not allowed for the requested URL', undefined, { Allow: allowed.join(', ') });
  }
}

/** 409: a duplicate key (naming the field) or a state conflict. */
export class Conflict extends HttpError {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(409, message, field === undefined ? undefined : { [field]: message });
  }
}

/** 412: `If-Match` named another version of the item. */
export class PreconditionFailed extends HttpError {
  constructor(message = "Client and server etags don't match") {
    super(412, message);
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(message: string) {
    super(413, message);
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor(message: string) {
    super(415, message);
  }
}

/** 422: the body failed validation; `issues` maps each bad field to why (dotted keys are nested). */
export class Unprocessable extends HttpError {
  constructor(message: string, issues?: IssuesInput) {
    super(422, message, issues);
  }
}

/**
 * 422 of a bulk insert (Eve's `post_internal`): nothing was stored, and `items` holds, per
 * submitted document in order, its issues or null when it had none.
 */
export class BulkUnprocessable extends Unprocessable {
  readonly items: readonly (Issues | null)[];

  constructor(message: string, items: readonly (IssuesInput | null)[]) {
    super(message);
    this.items = items.map((i) => (i === null ? null : nestIssues(i)));
  }
}

/** `Retry-After` (RFC 9110 §10.2.3) in whole seconds, when a retry time is known. */
function retryAfter(seconds: number | undefined): Readonly<Record<string, string>> | undefined {
  return seconds === undefined ? undefined : { 'Retry-After': String(Math.max(1, Math.ceil(seconds))) };
}

/** 429 (RFC 6585 §4), with the seconds to wait when known. */
export class TooManyRequests extends HttpError {
  constructor(message = 'Rate limit exceeded', retryAfterS?: number) {
    super(429, message, undefined, retryAfter(retryAfterS));
  }
}

/** 502: the master or the VPN server answered with an error. */
export class BadGateway extends HttpError {
  constructor(message: string) {
    super(502, message);
  }
}

/** 503: a peer (or the database) is not configured or unreachable. */
export class ServiceUnavailable extends HttpError {
  /** `retryAfterS`: the seconds after which trying again may help (sent as `Retry-After`). */
  constructor(message: string, retryAfterS?: number) {
    super(503, message, undefined, retryAfter(retryAfterS));
  }
}

/** 504: a peer did not answer in time. */
export class GatewayTimeout extends HttpError {
  constructor(message: string) {
    super(504, message);
  }
}
