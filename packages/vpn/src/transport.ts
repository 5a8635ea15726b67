/**
 * HTTP to one Pritunl server: one axios instance (keep-alive agents, no proxy, no redirects,
 * raw bodies, statuses handled here) and the session the web console uses (pritunl/handlers/auth.py, pritunl/auth/):
 * `POST /auth/session`, then `GET /state` for the CSRF token; the cookies (`session`, and
 * `token` since 1.32.4465) and the token are kept and sent on every call. The server caps
 * sessions (16 per administrator) and logins (30 per 600 s), so the client logs in only when
 * it has no session or the server refused it: one re-login on a 401, then one retry;
 * concurrent callers share one login in flight, and a budget bounds logins per window.
 */
import type { AxiosInstance, AxiosResponse } from 'axios';
import { BadGateway, callableUrlIssue, ipRefusal, ServiceUnavailable, type Log } from '@fleet/engine';
import { contentType, createUpstreamHttp, redact, safeUrl, type UpstreamHttp } from '@fleet/upstream';
import { errorCode, errorMessage, malformed, statusError, transportError } from './errors';
import type { VpnClientOptions, VpnTimeouts } from './types';

/** One call to the server. */
export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  timeout: keyof VpnTimeouts;
}

interface Session {
  cookies: Map<string, string>;
  csrf: string;
  /** The server's release as `GET /state` answers it (`utils.get_int_ver`), when it does. */
  release?: number;
}

const QUIET: Log = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
/** Closing the session is a courtesy to the 16-session cap; it must not hold `close()` long. */
const LOGOUT_TIMEOUT_MS = 2_000;

/** Session-aware request sender of one client. */
export class Transport {
  readonly manager: string;
  readonly log: Log;
  private readonly url: string;
  private readonly http: AxiosInstance;
  private readonly timeouts: VpnTimeouts;
  private readonly upstream: UpstreamHttp;
  private readonly budget: { max: number; windowMs: number };
  private loginTimes: number[] = [];
  private session: Session | undefined;
  private loginInFlight: Promise<Session> | undefined;
  /** Why the service must not call `dashboard_address` at all (a refused address range), or null. */
  private readonly refusal: string | null;

  constructor(private readonly options: VpnClientOptions) {
    this.manager = options.manager.name;
    this.url = options.manager.dashboard_address.replace(/\/+$/, '');
    this.log = options.log ?? QUIET;
    this.timeouts = {
      login: 15_000,
      request: 15_000,
      createOrganization: 60_000,
      download: 30_000,
      ...options.timeouts,
    };
    this.budget = options.loginBudget ?? { max: 10, windowMs: 600_000 };
    const policy = options.privateAddresses ?? 'allow';
    this.refusal = callableUrlIssue(options.manager.dashboard_address, policy);
    // Keep-alive; an idle socket is dropped after 4 s, before common server idle timeouts (5 s)
    // close it under a request.
    this.upstream = createUpstreamHttp({
      baseURL: this.url,
      responseType: 'arraybuffer',
      keepAliveMs: 4_000,
      ...(options.tls ? { tls: options.tls } : {}),
      refuseAddress: (ip) => ipRefusal(ip, policy),
    });
    this.http = this.upstream.http;
  }

  /** Removes the password, the cookies and the CSRF token from a text. */
  redact(text: string): string {
    const s = this.session;
    return redact(text, [this.options.manager.password, ...(s ? [...s.cookies.values(), s.csrf] : [])]);
  }

  private async send(call: Call, session: Session | undefined): Promise<AxiosResponse<Buffer>> {
    const timeout = this.timeouts[call.timeout];
    const what = `${call.method} ${call.path}`;
    const headers: Record<string, string> = {};
    if (session !== undefined) {
      headers.Cookie = [...session.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      headers['Csrf-Token'] = session.csrf;
    }
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    // A manager stored before its address was checked, or under a laxer VPN_PRIVATE_ADDRESSES.
    if (this.refusal !== null)
      throw new ServiceUnavailable(
        `VPN manager "${this.manager}": the service does not call its dashboard_address: ${this.refusal}`,
      );
    const started = Date.now();
    try {
      const res = await this.http.request<Buffer>({
        method: call.method,
        url: call.path,
        params: call.query,
        data: call.body === undefined ? undefined : JSON.stringify(call.body),
        headers,
        timeout,
        signal: AbortSignal.timeout(timeout),
      });
      if (session !== undefined) applySetCookie(session.cookies, res.headers['set-cookie']);
      this.log.debug(
        { manager: this.manager, what, status: res.status, ms: Date.now() - started },
        'VPN server call',
      );
      this.tell(call, res.status < 400 ? 'ok' : 'error', started);
      return res;
    } catch (err) {
      const mapped = transportError(err, { manager: this.manager, url: this.url, what, timeoutMs: timeout });
      this.log.warn(
        { manager: this.manager, what, status: mapped.status, ms: Date.now() - started },
        'VPN server call failed',
      );
      this.tell(call, 'error', started);
      throw mapped;
    }
  }

  /** Tells `onCall` of a call's end, its path's ids cut (a bounded set of names). */
  private tell(call: Call, outcome: 'ok' | 'error', started: number): void {
    const path = call.path.replace(/\/[0-9a-f]{24}(?=\/|$)/g, '/:id');
    this.options.onCall?.({
      manager: this.manager,
      call: `${call.method} ${path}`,
      outcome,
      ms: Date.now() - started,
    });
  }

  /** The current session, logging in when there is none (one login in flight for all callers). */
  private async current(): Promise<Session> {
    if (this.session !== undefined) return this.session;
    this.loginInFlight ??= this.login().finally(() => {
      this.loginInFlight = undefined;
    });
    return this.loginInFlight;
  }

  private spendLogin(): void {
    const now = Date.now();
    this.loginTimes = this.loginTimes.filter((t) => now - t < this.budget.windowMs);
    if (this.loginTimes.length >= this.budget.max) {
      throw new ServiceUnavailable(
        `VPN manager "${this.manager}": ${this.budget.max} logins in ${Math.round(this.budget.windowMs / 1000)} s already; not logging in again yet (the server limits logins per administrator)`,
      );
    }
    this.loginTimes.push(now);
  }

  private async login(): Promise<Session> {
    this.spendLogin();
    const { username, password } = this.options.manager;
    const res = await this.send(
      { method: 'POST', path: '/auth/session', body: { username, password }, timeout: 'login' },
      undefined,
    );
    if (res.status !== 200) throw this.loginRefused(res);
    const cookies = new Map<string, string>();
    applySetCookie(cookies, res.headers['set-cookie']);
    const session: Session = { cookies, csrf: '' };
    const state = await this.send({ method: 'GET', path: '/state', timeout: 'login' }, session);
    const body = this.json(state, 'GET /state');
    const csrf =
      body !== null && typeof body === 'object' && 'csrf_token' in body ? body.csrf_token : undefined;
    if (typeof csrf !== 'string' || csrf === '') throw malformed(this.manager, 'GET /state', 'no csrf_token');
    session.csrf = csrf;
    // `body` is an object here (it had a csrf_token).
    const version = (body as Record<string, unknown>).version;
    if (typeof version === 'number' && Number.isSafeInteger(version)) session.release = version;
    this.session = session;
    this.log.info({ manager: this.manager, user: username, release: session.release }, 'VPN server login');
    return session;
  }

  /** The refusal of a login: bad credentials, 2FA, the server's limiter, or another error. */
  private loginRefused(res: AxiosResponse<Buffer>): BadGateway {
    const text = res.data.toString('utf8');
    const type = contentType(res);
    const code = errorCode(text, type);
    const user = this.options.manager.username;
    const message = this.redact(errorMessage(text, type, res.status));
    this.log.error({ manager: this.manager, user, status: res.status, code }, 'VPN server login refused');
    if (code === 'auth_invalid' || code === 'auth_invalid_username') {
      return new BadGateway(
        `VPN manager "${this.manager}" refused the credentials of user "${user}": ${message}`,
      );
    }
    if (code === 'auth_otp_required') {
      return new BadGateway(
        `VPN manager "${this.manager}": user "${user}" has two-factor authentication, which the service cannot answer: ${message}`,
      );
    }
    if (code === 'auth_too_many') {
      return new BadGateway(
        `VPN manager "${this.manager}" refused the login of user "${user}": too many logins (the server allows 30 per 10 minutes): ${message}`,
      );
    }
    return statusError({ manager: this.manager, what: 'POST /auth/session', status: res.status, message });
  }

  /** The server's release (`GET /state` `version`), logging in first when there is no session. */
  async release(): Promise<number | undefined> {
    return (await this.current()).release;
  }

  /** Sends with the session; on a 401 logs in once more and retries once. */
  async request(call: Call): Promise<AxiosResponse<Buffer>> {
    const session = await this.current();
    const res = await this.send(call, session);
    if (res.status !== 401) return res;
    this.log.warn(
      { manager: this.manager, what: `${call.method} ${call.path}` },
      'VPN server session refused, logging in again',
    );
    if (this.session === session) this.session = undefined;
    const retried = await this.send(call, await this.current());
    if (retried.status === 401) {
      const message = this.redact(errorMessage(retried.data.toString('utf8'), contentType(retried), 401));
      throw new BadGateway(
        `VPN manager "${this.manager}" refused ${call.method} ${call.path} after a fresh login: ${message}`,
      );
    }
    return retried;
  }

  /** The error for a non-2xx answer. */
  failure(res: AxiosResponse<Buffer>, what: string): BadGateway {
    const message = this.redact(errorMessage(res.data.toString('utf8'), contentType(res), res.status));
    return statusError({ manager: this.manager, what, status: res.status, message });
  }

  /** Parses a 2xx JSON answer, or throws the mapped error. */
  json(res: AxiosResponse<Buffer>, what: string): unknown {
    if (res.status < 200 || res.status >= 300) throw this.failure(res, what);
    if (!contentType(res).includes('json'))
      throw malformed(this.manager, what, `content type ${contentType(res) || 'none'}`);
    try {
      return JSON.parse(res.data.toString('utf8')) as unknown;
    } catch {
      throw malformed(this.manager, what, 'invalid JSON');
    }
  }

  /** Logs out (frees one of the administrator's 16 sessions) and frees the sockets. */
  async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (session !== undefined) {
      try {
        await this.http.delete('/auth/session', {
          headers: { Cookie: [...session.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
          timeout: LOGOUT_TIMEOUT_MS,
          signal: AbortSignal.timeout(LOGOUT_TIMEOUT_MS),
        });
      } catch {
        this.log.debug({ manager: this.manager, url: safeUrl(this.url) }, 'VPN server logout failed');
      }
    }
    this.upstream.close();
  }
}

/** Applies `Set-Cookie` headers to a cookie map (an empty value or a past expiry removes it). */
function applySetCookie(cookies: Map<string, string>, header: unknown): void {
  const list = Array.isArray(header) ? header : typeof header === 'string' ? [header] : [];
  for (const line of list) {
    if (typeof line !== 'string') continue;
    const first = line.split(';')[0] ?? '';
    const eq = first.indexOf('=');
    if (eq <= 0) continue;
    const name = first.slice(0, eq).trim();
    const value = first.slice(eq + 1).trim();
    const expired = /;\s*max-age=0\b/i.test(line) || /;\s*expires=Thu, 01 Jan 1970/i.test(line);
    if (value === '' || expired) cookies.delete(name);
    else cookies.set(name, value);
  }
}
