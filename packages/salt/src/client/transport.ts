/**
 * HTTP to salt-api: one axios instance (no proxy, no redirects, raw text bodies, status
 * handled here), a session (token reused until its `expire`, ONE transparent re-login
 * on a refused session then one retry, one login in flight shared by concurrent callers —
 * salt/netapi/rest_cherrypy/app.py, salt/auth/__init__.py), per-kind timeouts, and bounded back-off for reads only.
 *
 * A refused session is a 401, or — Salt 2018.3.0 to 2018.3.2 only — the JSON catch-all 500 a
 * `local` call gets when the master refuses its token: `LocalClient.run_job` wraps whatever
 * `pub` raises, the AuthenticationError or AuthorizationError included, into a SaltClientError
 * (`except Exception as general_exception: raise SaltClientError(...)`), which
 * `hypermedia_handler` (mapping Authentication- and AuthorizationError to 401 since before
 * 2018.3) answers `{"status": 500, "return": "An unexpected error occurred"}`. 2018.3.3 re-raises
 * the two errors in `run_job` before that catch-all, and the answer is the 401. Such a 500 is told apart from a real failure by a probe with the same
 * token (`SESSION_PROBE`, whose refusal is a TokenAuthenticationError, a 401 in every version):
 * only when the probe is refused is the session renewed and the call sent again, which is safe
 * because the master published nothing for a token it refused.
 */
import type { AxiosInstance, AxiosResponse } from 'axios';
import { BadGateway, isPlainObject } from '@fleet/engine';
import { contentType, createUpstreamHttp, redact, type UpstreamHttp } from '@fleet/upstream';
import { errorMessage, isRetriable, malformed, statusError, transportError } from './errors';
import type { SaltClientOptions, SaltLogger, SaltRetry, SaltTimeouts } from './types';

/** One request: `read` ones may be retried, `exec` ones never. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  kind: 'exec' | 'read';
}

const SKEW_MS = 60_000;

/** A cheap call the master checks the token of (needs `@wheel`, which the sync needs anyway). */
export const SESSION_PROBE = { client: 'wheel', fun: 'key.finger_master' } as const;

/** The `client` of each chunk of a POST / body. */
function clientsOf(spec: RequestSpec): string[] {
  const chunks: unknown[] = Array.isArray(spec.body) ? spec.body : [spec.body];
  return chunks.map((c) =>
    c !== null && typeof c === 'object' && 'client' in c && typeof c.client === 'string' ? c.client : '',
  );
}

/**
 * What a request calls, for metrics: `client:fun` of its chunks (a bounded set: the functions the
 * service calls) or, for a GET, its path with any id cut (`GET /jobs/:id`).
 */
export function callName(spec: RequestSpec): string {
  if (spec.method === 'GET') return `GET ${spec.path.replace(/^(\/[a-z]+)\/.+$/, '$1/:id')}`;
  const chunks: unknown[] = Array.isArray(spec.body) ? spec.body : [spec.body];
  const names = chunks.map((c) =>
    c !== null && typeof c === 'object' && 'fun' in c && typeof c.fun === 'string'
      ? `${clientsOf({ ...spec, body: c })[0] ?? ''}:${c.fun}`
      : 'unknown',
  );
  return [...new Set(names)].join(',');
}

/** Whether a request is a `local*` call (POST / with such a chunk, or GET /minions). */
function runsLocal(spec: RequestSpec): boolean {
  if (spec.method === 'GET') return spec.path === '/minions' || spec.path.startsWith('/minions/');
  return clientsOf(spec).some((c) => c.startsWith('local'));
}
const QUIET: SaltLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

interface Session {
  token: string;
  /** When to log in again: a little before the Salt token's `expire`. */
  renewAtMs: number;
}

/** Session-aware request sender shared by the client's methods and the event stream. */
export class Transport {
  readonly http: AxiosInstance;
  readonly timeouts: SaltTimeouts;
  readonly logger: SaltLogger;
  private readonly retry: SaltRetry;
  private readonly upstream: UpstreamHttp;
  private session: Session | undefined;
  private loginInFlight: Promise<Session> | undefined;

  constructor(private readonly options: SaltClientOptions) {
    this.timeouts = { login: 10_000, exec: 120_000, read: 15_000, ...options.timeouts };
    this.retry = { attempts: 3, baseDelayMs: 100, maxDelayMs: 1000, ...options.retry };
    this.logger = options.logger ?? QUIET;
    // No keep-alive: reusing a socket the server is just closing would fail an execution
    // that must not be retried; salt-api calls are few and the connection cost is small.
    this.upstream = createUpstreamHttp({
      baseURL: options.url,
      responseType: 'text',
      ...(options.tls?.ca ? { tls: { ca: options.tls.ca } } : {}),
    });
    this.http = this.upstream.http;
  }

  /** Removes the password and the session token from a text. */
  redact(text: string): string {
    return redact(text, [this.options.password, this.session?.token]);
  }

  /** The current token, logging in when there is none or it is about to expire. */
  async token(): Promise<string> {
    if (this.session !== undefined && Date.now() < this.session.renewAtMs) return this.session.token;
    this.loginInFlight ??= this.login().finally(() => {
      this.loginInFlight = undefined;
    });
    return (await this.loginInFlight).token;
  }

  /** Drops the session if it still is the one that was refused (so concurrent 401s re-login once). */
  invalidate(token: string): void {
    if (this.session?.token === token) this.session = undefined;
  }

  private async login(): Promise<Session> {
    const { username, password, eauth = 'pam' } = this.options;
    const what = 'POST /login';
    let res: AxiosResponse<string>;
    try {
      res = await this.http.post('/login', { username, password, eauth }, { timeout: this.timeouts.login });
    } catch (err) {
      throw transportError(err, this.options.url, what, this.timeouts.login);
    }
    if (res.status === 401) {
      const msg = this.redact(errorMessage(String(res.data ?? ''), contentType(res), 401));
      this.logger.error({ user: username, eauth }, 'salt-api login refused');
      throw new BadGateway(`salt-api refused the login of user '${username}' (eauth ${eauth}): ${msg}`);
    }
    const body = this.parse(res, what);
    const list: unknown = isPlainObject(body) ? body.return : undefined;
    const first: unknown = Array.isArray(list) ? list[0] : undefined;
    const token = first !== null && typeof first === 'object' && 'token' in first ? first.token : undefined;
    const expire =
      first !== null && typeof first === 'object' && 'expire' in first ? Number(first.expire) : NaN;
    if (typeof token !== 'string' || token === '') throw malformed(what, 'no token in the login answer');
    const expiresAtMs = Number.isFinite(expire) ? expire * 1000 : Date.now() + 3_600_000;
    // Renew a minute early, or a tenth of the lifetime for short-lived tokens.
    const skew = Math.min(SKEW_MS, Math.max(0, expiresAtMs - Date.now()) / 10);
    this.session = { token, renewAtMs: expiresAtMs - skew };
    this.logger.info(
      { user: username, eauth, expires: new Date(expiresAtMs).toISOString() },
      'salt-api login',
    );
    return this.session;
  }

  /** Parses a 2xx JSON body or maps an error status; never JSON.parses blindly. */
  parse(res: AxiosResponse<string>, what: string): unknown {
    const type = contentType(res);
    if (res.status < 200 || res.status >= 300) {
      throw statusError(
        res.status,
        this.redact(errorMessage(String(res.data ?? ''), type, res.status)),
        what,
      );
    }
    if (!type.includes('json')) throw malformed(what, `content type ${type || 'none'}`);
    try {
      return JSON.parse(res.data);
    } catch {
      throw malformed(what, 'invalid JSON');
    }
  }

  /** Sends with the session, re-logging in once on a 401, and retrying reads with back-off. */
  async request(spec: RequestSpec): Promise<unknown> {
    const onCall = this.options.onCall;
    if (onCall === undefined) return this.attempts(spec);
    const started = performance.now();
    const fun = callName(spec);
    try {
      const answer = await this.attempts(spec);
      onCall({ fun, outcome: 'ok', ms: performance.now() - started });
      return answer;
    } catch (err) {
      onCall({ fun, outcome: 'error', ms: performance.now() - started });
      throw err;
    }
  }

  private async attempts(spec: RequestSpec): Promise<unknown> {
    const attempts = spec.kind === 'read' ? Math.max(1, this.retry.attempts) : 1;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.authed(spec);
      } catch (err) {
        if (attempt >= attempts || !isRetriable(err)) throw err;
        const delay = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
        this.logger.warn(
          {
            what: `${spec.method} ${spec.path}`,
            attempt,
            delayMs: delay,
            error: err instanceof Error ? err.message : '',
          },
          'salt-api read failed, retrying',
        );
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /**
   * Whether a JSON 500 to a `local*` call means the master refused the token (2018.3.0-2018.3.2):
   * the same token is refused by the probe.
   */
  private async refusedAs500(spec: RequestSpec, res: AxiosResponse<string>, token: string): Promise<boolean> {
    if (res.status !== 500 || !contentType(res).includes('json') || !runsLocal(spec)) return false;
    try {
      const probe = await this.send(
        { method: 'POST', path: '/', body: [SESSION_PROBE], kind: 'read' },
        token,
        'POST / (session probe)',
      );
      return probe.status === 401;
    } catch {
      return false;
    }
  }

  private async authed(spec: RequestSpec): Promise<unknown> {
    const what = `${spec.method} ${spec.path}`;
    const token = await this.token();
    let res = await this.send(spec, token, what);
    const refused = res.status === 401 || (await this.refusedAs500(spec, res, token));
    if (refused && res.status === 500 && clientsOf(spec).includes('local_batch')) {
      // cmd_batch publishes batch after batch: a token refused midway leaves earlier batches run.
      this.invalidate(token);
      throw new BadGateway(
        `salt-api refused the session during a local_batch call (${what}); the session is renewed for the next call, the batch is not sent again (some of its batches may have run)`,
      );
    }
    if (refused) {
      this.logger.info({ what, status: res.status }, 'salt-api session refused, logging in again');
      this.invalidate(token);
      res = await this.send(spec, await this.token(), what);
      if (res.status === 401) {
        const msg = this.redact(errorMessage(String(res.data ?? ''), contentType(res), 401));
        throw new BadGateway(`salt-api refused the request after a fresh login (${what}): ${msg}`);
      }
    }
    return this.parse(res, what);
  }

  private async send(spec: RequestSpec, token: string, what: string): Promise<AxiosResponse<string>> {
    const timeout = this.timeouts[spec.kind];
    try {
      return await this.http.request<string>({
        method: spec.method,
        url: spec.path,
        data: spec.body,
        timeout,
        headers: { 'X-Auth-Token': token },
      });
    } catch (err) {
      throw transportError(err, this.options.url, what, timeout);
    }
  }

  /** Frees the agents' sockets. */
  close(): void {
    this.upstream.close();
  }
}
