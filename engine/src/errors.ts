/**
 * Typed HTTP errors. Each class carries its status; the one error handler (http/error-handler.ts)
 * renders every one of them as `{"_status":"ERR","_error":{"code","message"}[, "_issues"]}`.
 * Anything that is not an `HttpError` becomes a bare 500 with no detail.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues?: Readonly<Record<string, string>>,
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = new.target.name;
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

/** 422: the body failed validation; `issues` maps each bad field to why. */
export class Unprocessable extends HttpError {
  constructor(message: string, issues?: Readonly<Record<string, string>>) {
    super(422, message, issues);
  }
}

export class TooManyRequests extends HttpError {
  constructor(message = 'Rate limit exceeded') {
    super(429, message);
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
  constructor(message: string) {
    super(503, message);
  }
}

/** 504: a peer did not answer in time. */
export class GatewayTimeout extends HttpError {
  constructor(message: string) {
    super(504, message);
  }
}
