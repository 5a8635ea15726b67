/**
 * Authentication as Pritunl does it: pritunl-web's `Authorize` (the `token` cookie, strict
 * mode), Flask's `check_session` (HMAC API tokens or the cookie session + `Csrf-Token`), and
 * the routes `POST/DELETE /auth/session` and `GET /state` (handlers/auth.py, auth/csrf.py,
 * auth/administrator.py, limiter.auth_check; pritunl/handlers/auth.py).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { since, type Call, type SimContext } from './context';
import type { SimAdmin } from './model';
import { abort, appError, filterStr, jsonify, proxyAbort, type SimResponse, pyText } from './wire';

/** `AUTH_SIG_STRING_MAX_LEN` (constants.py). */
const AUTH_SIG_STRING_MAX_LEN = 10_240;
/** Nonces expire after `max(2 * auth_time_window, auth_expire_window)` = 86,400 s (setup/mongo.py). */
const NONCE_TTL_MS = 86_400_000;

/** WEB_STRICT: on unless an administrator has `auth_api` (pritunl/handlers/auth.py). */
export function webStrict(ctx: SimContext): boolean {
  return ![...ctx.state.admins.values()].some((a) => a.api !== undefined);
}

/** `authSessionEnd`: pritunl-web ends the Flask session of a request it refuses. */
function endSession(ctx: SimContext, call: Pick<Call, 'cookies'>): void {
  const sid = call.cookies.session;
  const session = sid === undefined ? undefined : ctx.state.sessions.get(sid);
  if (sid === undefined || session === undefined) return;
  ctx.state.sessions.delete(sid);
  const admin = ctx.state.admins.get(session.adminId);
  if (admin) admin.sessions = admin.sessions.filter((s) => s !== session.sessionId);
}

/**
 * pritunl-web `Authorize` (handlers/handlers.go) for routes of its auth group: the `token`
 * cookie must exist (in strict mode), decrypt and not be expired. Returns the refusal, or
 * whether the request is validated. Releases before 1.32.4465.96 have no such check: every
 * route is registered on the engine itself and forwarded as it comes.
 */
export function proxyAuthorize(ctx: SimContext, call: Pick<Call, 'cookies'>): SimResponse | boolean {
  if (!since(ctx, 'dataRoutes')) return false;
  const token = call.cookies.token;
  if (token === undefined) {
    if (!webStrict(ctx)) return false;
    endSession(ctx, call);
    return proxyAbort(401, 'Missing token');
  }
  const known = ctx.state.tokens.get(token);
  if (known === undefined) {
    endSession(ctx, call);
    return proxyAbort(401, 'Failed to decrypt token');
  }
  if (ctx.clock.now() > known.expiresAtMs) {
    endSession(ctx, call);
    return proxyAbort(401, 'Token session expired');
  }
  return true;
}

function header(call: Call, name: string): string | undefined {
  const v = call.headers[name.toLowerCase()];
  return typeof v === 'string' ? v : undefined;
}

/** Python `int()` of a header: optional sign and surrounding spaces, digits only. */
function pyInt(text: string): number | undefined {
  return /^\s*[+-]?\d+\s*$/.test(text) ? Number(text.trim()) : undefined;
}

function constEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The HMAC branch of `check_session`, check by check in the server's order (pritunl/handlers/auth.py). */
function tokenAuth(ctx: SimContext, call: Call, rawToken: string): SimAdmin | undefined {
  const ts = header(call, 'Auth-Timestamp');
  const rawNonce = header(call, 'Auth-Nonce');
  const signature = header(call, 'Auth-Signature');
  if (!ts || !rawNonce || !signature) return undefined;
  const token = rawToken.slice(0, 256);
  const timestamp = ts.slice(0, 64);
  const nonce = rawNonce.slice(0, 32);
  const seconds = pyInt(timestamp);
  if (
    seconds === undefined ||
    Math.abs(seconds - Math.floor(ctx.clock.now() / 1000)) > ctx.settings.authTimeWindowS
  )
    return undefined;
  const admin = [...ctx.state.admins.values()].find((a) => a.api?.token === token);
  if (admin?.api === undefined) return undefined;
  const authString = [token, timestamp, nonce, call.method, call.path].join('&');
  if (authString.length > AUTH_SIG_STRING_MAX_LEN || nonce.length < 8) return undefined;
  if (admin.api.secret.length < 8) return undefined;
  const expected = createHmac('sha256', admin.api.secret).update(authString).digest('base64');
  if (!constEqual(signature.slice(0, 512), expected)) return undefined;
  const key = `${token}&${nonce}`;
  const seen = ctx.state.nonces.get(key);
  if (seen !== undefined && ctx.clock.now() - seen < NONCE_TTL_MS) return undefined;
  ctx.state.nonces.set(key, ctx.clock.now());
  return admin.disabled ? undefined : admin;
}

/**
 * `check_session(csrf_check)` (auth/administrator.py): the administrator, or undefined (401).
 * The cookie session needs pritunl-web's validation (`PR-Validated`, from 1.32.4465.96), a
 * known session of a live administrator younger than `session_timeout`, and with `csrf_check`
 * a `Csrf-Token` minted for that administrator by `GET /state`.
 */
export function checkSession(ctx: SimContext, call: Call, csrfCheck: boolean): SimAdmin | undefined {
  const apiToken = header(call, 'Auth-Token');
  if (apiToken) return tokenAuth(ctx, call, apiToken);
  const sid = call.cookies.session;
  const session = sid === undefined ? undefined : ctx.state.sessions.get(sid);
  if (sid === undefined || session === undefined) return undefined;
  if (since(ctx, 'dataRoutes') && !call.validated) return undefined;
  if (csrfCheck && ctx.state.csrf.get(header(call, 'Csrf-Token') ?? '') !== session.adminId) return undefined;
  const admin = ctx.state.admins.get(session.adminId);
  if (admin === undefined || !admin.sessions.includes(session.sessionId)) return undefined;
  if (ctx.clock.now() - session.loginAtMs > ctx.settings.sessionTtlMs) {
    endSession(ctx, call);
    return undefined;
  }
  return admin.disabled ? undefined : admin;
}

/** `limiter.auth_check(admin.id)`: `$inc` then reset when the fixed window has passed. */
function limiterAllows(ctx: SimContext, adminId: string): boolean {
  const now = ctx.clock.now();
  const doc = ctx.state.limiter.get(adminId) ?? { count: 0, startMs: now };
  doc.count += 1;
  if (now > doc.startMs + ctx.settings.loginWindowMs) {
    doc.count = 1;
    doc.startMs = now;
  }
  ctx.state.limiter.set(adminId, doc);
  return doc.count <= ctx.settings.loginMax;
}

const cookie = (name: string, value: string, extra: string): string => `${name}=${value}; ${extra}`;

/** `AUTH_INVALID` (constants.py). */
const INVALID = { error: 'auth_invalid', error_msg: 'Authentication credentials are not valid.' };

/**
 * Opens a session: `admin.new_session()` keeps the newest `session_limit`; the `session` cookie,
 * and from 1.32.4465.96 the `token` cookie pritunl-web checks (`jsonify(..., token=...)`).
 */
function openSession(ctx: SimContext, admin: SimAdmin): string[] {
  const sessionId = ctx.gen.secret();
  admin.sessions = [...admin.sessions, sessionId].slice(-ctx.settings.sessionLimit);
  const sessionCookie = ctx.gen.secret() + ctx.gen.secret();
  ctx.state.sessions.set(sessionCookie, { adminId: admin.id, sessionId, loginAtMs: ctx.clock.now() });
  ctx.stats.logins += 1;
  const cookies = [cookie('session', sessionCookie, 'HttpOnly; Path=/; Secure; SameSite=Lax')];
  if (!since(ctx, 'dataRoutes')) return cookies;
  const tokenCookie = ctx.gen.secret() + ctx.gen.secret();
  ctx.state.tokens.set(tokenCookie, {
    adminId: admin.id,
    expiresAtMs: ctx.clock.now() + ctx.settings.tokenTtlMs,
  });
  const maxAge = Math.floor(ctx.settings.tokenTtlMs / 1000);
  return [...cookies, cookie('token', tokenCookie, `Max-Age=${maxAge}; HttpOnly; Secure; Path=/`)];
}

/** `POST /auth/session` (auth_session_post), in the handler's order of checks. */
export async function login(ctx: SimContext, call: Call): Promise<SimResponse> {
  ctx.stats.loginAttempts += 1;
  const username = filterStr(ctx, pyText(call.json.username)).slice(0, 128).toLowerCase();
  const password = pyText(call.json.password).slice(0, 128);
  const otpCode = filterStr(ctx, pyText(call.json.otp_code)) || undefined;
  if (ctx.settings.loginDelayMs > 0) await new Promise((r) => setTimeout(r, ctx.settings.loginDelayMs));
  const admin = [...ctx.state.admins.values()].find((a) => a.username === username);
  // No RADIUS and no enterprise plan: `_auth_plugin` refuses an unknown name, as
  // `auth_invalid_username` from 1.32.4565.56, as `auth_invalid` before.
  if (admin === undefined)
    return since(ctx, 'invalidUsername')
      ? appError(401, { error: 'auth_invalid_username', error_msg: 'Authentication username is not valid.' })
      : appError(401, INVALID);
  // Before the limiter, so not counted: `{error, error_msg, otp_auth: admin.otp_auth,
  // yubico_auth: bool(admin.yubikey_id)}` (no administrator here has a YubiKey).
  if (otpCode === undefined && admin.otpAuth) {
    return appError(402, {
      error: 'auth_otp_required',
      error_msg: 'Two-factor authentication required.',
      otp_auth: admin.otpAuth,
      yubico_auth: false,
    });
  }
  if (!limiterAllows(ctx, admin.id))
    return appError(400, { error: 'auth_too_many', error_msg: 'Too many authentication attempts.' });
  const otpOk = !admin.otpAuth || otpCode === admin.otpCode;
  if (admin.disabled || !otpOk || !constEqual(password, admin.password)) return appError(401, INVALID);
  return { ...jsonify({ authenticated: true, default: admin.default }), cookies: openSession(ctx, admin) };
}

/**
 * `DELETE /auth/session`: clears the session (open route); from 1.32.4537.56 the answer also
 * deletes the `token` cookie (`jsonify(..., token=False)`, Werkzeug's `delete_cookie`).
 */
export function logout(ctx: SimContext, call: Call): SimResponse {
  endSession(ctx, call);
  const answer = jsonify({ authenticated: false });
  if (!since(ctx, 'logoutClearsToken')) return answer;
  const expired = 'Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Secure; HttpOnly; Path=/';
  return { ...answer, cookies: [cookie('token', '', expired)] };
}

/**
 * `GET /state` (`auth_state_get`, session_light_auth): every call mints a reusable CSRF token
 * for the administrator. The other fields are the settings' defaults: `theme` 'dark', `user`
 * (`sub_url_key`, from 1.30.3113.65) false, no subscription (`active` false, `plan` null),
 * `version` the release as `utils.get_int_ver` gives it, `sso` false.
 */
export function stateGet(ctx: SimContext, call: Call): SimResponse {
  const admin = call.admin;
  if (admin === undefined) return abort(401);
  const csrf = ctx.gen.secret();
  ctx.state.csrf.set(csrf, admin.id);
  return jsonify({
    super_user: true,
    csrf_token: csrf,
    theme: 'dark',
    ...(since(ctx, 'stateUser') ? { user: false } : {}),
    active: false,
    plan: null,
    version: ctx.release,
    sso: false,
  });
}
