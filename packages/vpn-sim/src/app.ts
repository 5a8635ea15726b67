/**
 * The express application: fault injection first, then, per route of the table, what
 * pritunl-web does before Flask sees the request (HTTP/1.0 refused, `Authorize`, the
 * Content-Type check, the 50,000-byte body cap, the Go struct binding) and Flask's own
 * `check_session`; one writer for every answer.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { checkSession, proxyAuthorize } from './auth';
import { since, type Call, type SimContext } from './context';
import { faultMiddleware, type Faults } from './controls';
import { ROUTES, type Route } from './routes';
import { abort, bindStruct, BIND_ERROR, GIN_NOT_FOUND, type SimResponse } from './wire';

/** `Limiter`: `http.MaxBytesReader(..., 50000)` (handlers.go). */
const BODY_LIMIT = 50_000;

function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * A header value whose latin-1 bytes reach the wire as they are. Node re-reads a
 * Content-Disposition value sent with a body as UTF-8 (`Buffer.from(value, 'latin1')` then a
 * string concatenation, lib/_http_outgoing.js `processHeader`), which turns a latin-1 byte into
 * U+FFFD; giving it the value's UTF-8 bytes as latin-1 characters undoes that.
 */
function headerValue(name: string, value: string): string {
  // eslint-disable-next-line no-control-regex
  if (name.toLowerCase() !== 'content-disposition' || /^[\x00-\x7f]*$/.test(value)) return value;
  return Buffer.from(value, 'utf8').toString('latin1');
}

/** Writes a SimResponse (the only writer); counts 401s. */
function send(ctx: SimContext, res: Response, answer: SimResponse): void {
  if (answer.status === 401) ctx.stats.unauthorized += 1;
  res.status(answer.status);
  for (const [k, v] of Object.entries(answer.headers ?? {})) res.setHeader(k, headerValue(k, v));
  if (answer.cookies !== undefined) res.setHeader('Set-Cookie', answer.cookies);
  if (answer.contentType !== undefined) res.setHeader('Content-Type', answer.contentType);
  res.end(answer.body);
}

/** The body bound to the route's struct: undefined for a bind failure, [] without struct. */
function bodies(
  route: Route,
  req: Request,
): Readonly<Record<string, unknown>>[] | undefined | 'content-type' {
  if (route.struct === undefined) return [];
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return 'content-type';
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  if (raw.length > BODY_LIMIT) return undefined;
  if (!route.array) {
    const one = bindStruct(raw, route.struct);
    return one === undefined ? undefined : [one];
  }
  let list: unknown;
  try {
    list = JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(list)) return undefined;
  const bound = list.map((item) => bindStruct(Buffer.from(JSON.stringify(item)), route.struct ?? {}));
  return bound.every((b) => b !== undefined) ? bound : undefined;
}

async function serve(ctx: SimContext, route: Route, req: Request): Promise<SimResponse> {
  // pritunl-web `Features` (from 1.32.4512.98): HTTP/1.0 is refused before anything else.
  if (since(ctx, 'http10') && req.httpVersionMajor === 1 && req.httpVersionMinor === 0)
    return { status: 505, body: 'HTTP/1.0 not supported', contentType: 'text/plain; charset=utf-8' };
  const missing = route.missing?.(ctx);
  if (missing !== undefined) return missing;
  const cookies = parseCookies(req.headers.cookie);
  let validated = false;
  if (route.proxy === 'auth') {
    const authorized = proxyAuthorize(ctx, { cookies });
    if (typeof authorized !== 'boolean') return authorized;
    validated = authorized;
  }
  const bound = bodies(route, req);
  // pritunl-web answers 520 when the body is not JSON.
  if (bound === 'content-type') return { status: 520, body: '' };
  if (bound === undefined) return BIND_ERROR;
  const call: Call = {
    method: route.method,
    path: req.path,
    params: stringRecord(req.params),
    query: stringRecord(req.query),
    headers: req.headers,
    cookies,
    json: bound[0] ?? {},
    validated,
  };
  if (route.flask !== 'open') {
    const admin = checkSession(ctx, call, route.flask === 'session');
    if (admin === undefined) return abort(401);
    call.admin = admin;
  }
  return route.handle(ctx, call, bound);
}

/** Assembles the simulator's express app. */
export function buildApp(ctx: SimContext, faults: Faults): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(faultMiddleware(ctx, faults));
  app.use(express.raw({ type: () => true, limit: 1_048_576 }));
  for (const route of ROUTES) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    app[method](route.path, (req: Request, res: Response, next: NextFunction) => {
      const key = `${route.method} ${route.path}`;
      ctx.stats.byRoute[key] = (ctx.stats.byRoute[key] ?? 0) + 1;
      serve(ctx, route, req).then((answer) => send(ctx, res, answer), next);
    });
  }
  app.use((_req: Request, res: Response) => send(ctx, res, GIN_NOT_FOUND));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    // A body beyond the reader's limit fails the bind; anything else is gin's Recovery.
    const status = err !== null && typeof err === 'object' && 'status' in err ? Number(err.status) : 500;
    send(ctx, res, status === 413 ? BIND_ERROR : { status: 510, body: '' });
  });
  return app;
}
