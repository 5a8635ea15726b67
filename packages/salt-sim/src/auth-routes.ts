/**
 * Authentication endpoints and session lookup (salt/netapi/rest_cherrypy/app.py, salt/auth/__init__.py): GET/POST /login,
 * POST /logout, POST /token, and the `salt_auth` check every protected URL runs
 * (X-Auth-Token header, which wins, or the `session_id` cookie; else a plain 401 page).
 */
import type { Request, Response, Router } from 'express';
import { parseBody } from './body';
import type { SimContext } from './context';
import { SimError, sendJson } from './http-errors';
import type { Session } from './sessions';

/** Reads one cookie from the request. */
export function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/** The session id a request presents: `X-Auth-Token` wins over the cookie. */
export function presentedSession(req: Request): string | undefined {
  const header = req.headers['x-auth-token'];
  return (typeof header === 'string' && header !== '' ? header : undefined) ?? cookie(req, 'session_id');
}

/** `salt_auth` tool: a valid session or a plain 401 (CherryPy's stock message). */
export function requireSession(ctx: SimContext, req: Request): Session {
  const session = ctx.sessions.touch(presentedSession(req));
  if (session === undefined) throw new SimError(401);
  return session;
}

function credentials(body: unknown): Record<string, unknown> {
  const first: unknown = Array.isArray(body) ? body[0] : body;
  return first !== null && typeof first === 'object' ? (first as Record<string, unknown>) : {};
}

function postLogin(ctx: SimContext, req: Request, res: Response): void {
  ctx.stats.logins += 1;
  const creds = credentials(parseBody(req));
  if (!ctx.settings.masterRunning) throw new SimError(503, 'Salt Master is not available.');
  const session = ctx.sessions.login(creds['username'], creds['password'], creds['eauth']);
  if (session === undefined) {
    ctx.stats.failedLogins += 1;
    throw new SimError(401, 'Could not authenticate using provided credentials');
  }
  const maxAge = Math.round(ctx.settings.sessionTtlMs / 1000);
  res.setHeader('X-Auth-Token', session.id);
  res.setHeader(
    'Set-Cookie',
    `session_id=${session.id}; expires=${new Date(Date.now() + maxAge * 1000).toUTCString()}; Max-Age=${maxAge}; Path=/`,
  );
  // An empty perms list is serialized as `{}` (issue #42622 sample).
  const perms = session.perms.length > 0 ? session.perms : {};
  sendJson(res, {
    return: [
      {
        token: session.id,
        expire: session.expire,
        start: session.start,
        user: session.user,
        eauth: session.eauth,
        perms,
      },
    ],
  });
}

/** Mounts the authentication endpoints. */
export function mountAuth(router: Router, ctx: SimContext): void {
  router.get('/login', (_req, res) => {
    res.setHeader('WWW-Authenticate', 'Session');
    sendJson(res, { status: 200, return: 'Please log in' });
  });
  router.post('/login', (req, res) => {
    postLogin(ctx, req, res);
  });
  router.post('/logout', (req, res) => {
    const session = requireSession(ctx, req);
    ctx.sessions.logout(session.id);
    res.setHeader(
      'Set-Cookie',
      `session_id=${session.id}; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/`,
    );
    sendJson(res, { return: 'Your token has been cleared' });
  });
  router.post('/token', (req, res) => {
    const creds = credentials(parseBody(req));
    if (creds['username'] === undefined || creds['password'] === undefined || creds['eauth'] === undefined) {
      throw new SimError(400, 'Require "username", "password", and "eauth" params');
    }
    const s = ctx.sessions.login(creds['username'], creds['password'], creds['eauth']);
    if (s === undefined) throw new SimError(401, 'Could not authenticate using provided credentials');
    // A bare list, not wrapped in `return`; the token is the Salt eauth token.
    sendJson(res, [{ start: s.start, token: s.saltToken, expire: s.expire, name: s.user, eauth: s.eauth }]);
  });
}
