/**
 * salt-api sessions (salt/netapi/rest_cherrypy/app.py, salt/auth/__init__.py): `POST /login` checks the eauth credentials,
 * mints a Salt eauth token (`start`, `expire = start + token_expire`) and a CherryPy
 * session id (40 lowercase hex) that is what clients send back as `X-Auth-Token` or the
 * `session_id` cookie. Two lifetimes, checked in two places as salt-api does: the CherryPy
 * session lives while it is used within its idle timeout (the `salt_auth` tool: a plain 401
 * otherwise); the Salt token it carries is checked by the master on each call (expired at
 * `expire`, or forgotten by the master: `revokeSaltTokens`). Sessions live in RAM, so a
 * salt-api restart forgets them all.
 */
import { randomBytes } from 'node:crypto';

/** A user of the simulated `external_auth` config. */
export interface SimUser {
  username: string;
  password: string;
  /** eauth backends this user may log in with (`external_auth: {pam: {user: [...]}}`). */
  eauth?: string[];
  /** `external_auth` perms; default `['.*', '@runner', '@wheel', '@jobs']`. */
  perms?: Array<string | Record<string, string[]>>;
}

/** A logged-in session. */
export interface Session {
  id: string;
  saltToken: string;
  user: string;
  eauth: string;
  start: number;
  expire: number;
  perms: Array<string | Record<string, string[]>>;
  lastUsedMs: number;
  /** The master no longer knows the Salt token (its token store was cleared). */
  revoked: boolean;
}

/** Session settings: idle timeout (CherryPy `tools.sessions.timeout`) and `token_expire`. */
export interface SessionOptions {
  sessionTtlMs: number;
  tokenExpireS: number;
}

const DEFAULT_PERMS = ['.*', '@runner', '@wheel', '@jobs'];

/** The session table of one salt-api process. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly users: SimUser[],
    private readonly options: () => SessionOptions,
  ) {}

  /** `Resolver.mk_token`: a session for valid credentials, else undefined. */
  login(username: unknown, password: unknown, eauth: unknown): Session | undefined {
    const user = this.users.find((u) => u.username === username && u.password === password);
    if (user === undefined || typeof eauth !== 'string' || !(user.eauth ?? ['pam', 'auto']).includes(eauth))
      return undefined;
    const nowMs = Date.now();
    const start = nowMs / 1000;
    const session: Session = {
      id: randomBytes(20).toString('hex'),
      saltToken: randomBytes(20).toString('hex'),
      user: user.username,
      eauth,
      start,
      expire: start + this.options().tokenExpireS,
      perms: user.perms ?? DEFAULT_PERMS,
      lastUsedMs: nowMs,
      revoked: false,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  /** A live CherryPy session for the id (sliding its idle timer), or undefined. */
  touch(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined;
    const s = this.sessions.get(id);
    if (s === undefined) return undefined;
    const now = Date.now();
    if (now - s.lastUsedMs > this.options().sessionTtlMs) {
      this.sessions.delete(id);
      return undefined;
    }
    s.lastUsedMs = now;
    return s;
  }

  /** Whether the master still accepts the session's Salt token. */
  saltTokenValid(s: Session): boolean {
    return !s.revoked && Date.now() / 1000 <= s.expire;
  }

  /** Whether the session still exists and its Salt token is valid, without sliding it. */
  isValid(id: string): boolean {
    const s = this.sessions.get(id);
    return (
      s !== undefined && Date.now() - s.lastUsedMs <= this.options().sessionTtlMs && this.saltTokenValid(s)
    );
  }

  /** Resolves a Salt eauth token (for `/run` and `/events?salt_token=`). */
  bySaltToken(token: string | undefined): Session | undefined {
    if (token === undefined) return undefined;
    for (const s of this.sessions.values()) if (s.saltToken === token && this.saltTokenValid(s)) return s;
    return undefined;
  }

  /** The master forgets every Salt token; salt-api keeps its sessions (and their cookies). */
  revokeSaltTokens(): void {
    for (const s of this.sessions.values()) s.revoked = true;
  }

  /** `POST /logout`: forgets the session. */
  logout(id: string): void {
    this.sessions.delete(id);
  }

  /** Forgets every session, as a salt-api restart does. */
  clear(): void {
    this.sessions.clear();
  }
}
