/**
 * Fault injection and inspection for tests: a server that refuses or drops connections, one
 * that answers late, injected error answers, a changed password (refused credentials),
 * invalidated sessions, a clock moved forward, and counters of what was received.
 */
import type { NextFunction, Request, Response } from 'express';
import { emptyStats, type SimContext, type SimSettings, type VpnSimStats } from './context';
import type { SimServer } from './model';
import { attach } from './servers';
import { abort } from './wire';

/** Fault state shared by the middleware, the listener and the controls. */
export interface Faults {
  slowMs: number;
  failCount: number;
  failStatus: number;
  /** Accept each connection, then destroy it before any answer. */
  reset: boolean;
}

/** What tests can do to a running simulator. */
export interface VpnSimControls {
  /**
   * `'refuse'`: the listener closes and open sockets are destroyed (connection refused);
   * `'reset'`: connections are accepted and destroyed at once (socket hang up);
   * `false`: serve again on the same port.
   */
  down(mode: 'refuse' | 'reset' | false): Promise<void>;
  /** Delays every answer by `ms` (0 turns it off). */
  slow(ms: number): void;
  /** The next `n` requests answer `status` as Flask's error page (`500: Internal Server Error`). */
  failNext(n: number, status?: number): void;
  /** Changes an administrator's password: the client's stored one is now refused. */
  setPassword(username: string, password: string): void;
  /**
   * Invalidates every session. `'flask'` (default): the Flask sessions are forgotten, the next
   * call answers `401: Unauthorized` (text/html); `'proxy'`: the `token` cookies expire, the
   * proxy answers `401 Token session expired` (text/plain).
   */
  expireSessions(layer?: 'flask' | 'proxy'): void;
  /** Moves the server's clock forward (session timeout, limiter window, HMAC window). */
  advanceClock(ms: number): void;
  /** Attaches an organization to a server without the API (and its offline rule). */
  attach(serverId: string, orgId: string): void;
  /** Starts or stops a server. */
  setServerStatus(serverId: string, status: SimServer['status']): void;
  /** Live settings (limits, TTLs, delays). */
  readonly settings: SimSettings;
  readonly stats: VpnSimStats;
  resetStats(): void;
}

/** Counts, delays and fails requests before they reach the routes. */
export function faultMiddleware(ctx: SimContext, faults: Faults) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    ctx.stats.requests += 1;
    if (faults.slowMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.slowMs));
    if (res.destroyed || req.destroyed) return;
    if (faults.failCount > 0) {
      faults.failCount -= 1;
      const answer = abort(faults.failStatus);
      res.status(answer.status).setHeader('Content-Type', answer.contentType ?? 'text/html');
      res.end(answer.body);
      return;
    }
    next();
  };
}

function server(ctx: SimContext, id: string): SimServer {
  const s = ctx.state.servers.get(id);
  if (s === undefined) throw new Error(`no such server: ${id}`);
  return s;
}

/** Builds the controls of one simulator. */
export function createControls(
  ctx: SimContext,
  faults: Faults,
  setDown: (mode: 'refuse' | 'reset' | false) => Promise<void>,
): VpnSimControls {
  return {
    down: setDown,
    slow: (ms) => {
      faults.slowMs = ms;
    },
    failNext: (n, status = 500) => {
      faults.failCount = n;
      faults.failStatus = status;
    },
    setPassword: (username, password) => {
      const admin = [...ctx.state.admins.values()].find((a) => a.username === username);
      if (admin === undefined) throw new Error(`no such administrator: ${username}`);
      admin.password = password;
    },
    expireSessions: (layer = 'flask') => {
      if (layer === 'proxy') {
        for (const t of ctx.state.tokens.values()) t.expiresAtMs = 0;
        return;
      }
      ctx.state.sessions.clear();
      for (const a of ctx.state.admins.values()) a.sessions = [];
    },
    advanceClock: (ms) => ctx.clock.advance(ms),
    attach: (serverId, orgId) => attach(ctx, server(ctx, serverId), orgId),
    setServerStatus: (serverId, status) => {
      server(ctx, serverId).status = status;
    },
    settings: ctx.settings,
    stats: ctx.stats,
    resetStats: () => {
      Object.assign(ctx.stats, emptyStats());
    },
  };
}
