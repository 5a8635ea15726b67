/** The context every simulated handler receives, and the settings tests may change. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Clock, Gen, SimAdmin, SimState } from './model';
import { hasChange, type Change } from './version';

/** Server settings, named after Pritunl's (settings/app.py) where there is one. */
export interface SimSettings {
  /** `session_timeout`: 43,200 s from login, not sliding (pritunl/handlers/auth.py, pritunl/auth/). */
  sessionTtlMs: number;
  /** `session_limit`: sessions kept per administrator (pritunl/handlers/auth.py, pritunl/auth/). */
  sessionLimit: number;
  /** Max-Age of pritunl-web's `token` cookie: 43,200 s (notes "Checked ... a second time"). */
  tokenTtlMs: number;
  /** `auth_limiter_count_max`: logins allowed per administrator per window (limiter.auth_check). */
  loginMax: number;
  /** `auth_limiter_ttl`: the fixed window, 600 s (pritunl/handlers/auth.py, pritunl/auth/, pritunl/handlers/). */
  loginWindowMs: number;
  /** `auth_time_window` for HMAC timestamps: 43,200 s (pritunl/handlers/auth.py). */
  authTimeWindowS: number;
  /** The 50-100 ms sleep of `auth_session_post`; 0 by default to keep tests fast. */
  loginDelayMs: number;
  /** Organization creation generates a CA (seconds on a real server); 0 by default. */
  orgCreateDelayMs: number;
}

/** Counters tests assert on. */
export interface VpnSimStats {
  requests: number;
  /** `POST /auth/session` calls, whatever their outcome. */
  loginAttempts: number;
  /** Logins that opened a session. */
  logins: number;
  /** Answers with status 401, from either layer. */
  unauthorized: number;
  /** `"<METHOD> <route pattern>"` -> count, e.g. `POST /user/:org_id`. */
  byRoute: Record<string, number>;
}

export function emptyStats(): VpnSimStats {
  return { requests: 0, loginAttempts: 0, logins: 0, unauthorized: 0, byRoute: {} };
}

/**
 * How the server's Python writes the profile `.tar` (`tarfile.open(path, 'w')`, user/user.py
 * `build_key_tar_archive`): its default format, `pax` from Python 3.8, `gnu` before (the
 * Python 3.6 of the EL7/EL8 packages).
 */
export type TarFormat = 'pax' | 'gnu';

export interface SimContext {
  /** The Pritunl release played, e.g. `1.30.2817.44`. */
  readonly version: string;
  /** `versionInt(version)`, what `GET /state` answers. */
  readonly release: number;
  readonly tarFormat: TarFormat;
  readonly state: SimState;
  readonly gen: Gen;
  readonly clock: Clock;
  readonly settings: SimSettings;
  readonly stats: VpnSimStats;
  /** The VPN endpoint written into profiles (`remote <address> <port> <proto>`). */
  readonly publicAddress: string;
}

/** One request as the Flask handler sees it after pritunl-web forwarded it. */
export interface Call {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: IncomingHttpHeaders;
  readonly cookies: Readonly<Record<string, string>>;
  /** The body after the Go struct binding (every known key present). */
  readonly json: Readonly<Record<string, unknown>>;
  /** pritunl-web's `PR-Validated`: the `token` cookie decrypted and is not expired. */
  readonly validated: boolean;
  /** The administrator `check_session` accepted (set for authenticated routes). */
  admin?: SimAdmin;
}

/** Whether the release played has the behaviour that changed in `change` (version.ts). */
export function since(ctx: Pick<SimContext, 'release'>, change: Change): boolean {
  return hasChange(ctx.release, change);
}
