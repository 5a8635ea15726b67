/**
 * Fault injection and inspection for tests: a dead or slow master, injected HTTP errors,
 * expired sessions, dropped event streams, changed keys, hosts going up and down, and
 * counters of what was received.
 */
import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { emptyStats, type SimContext, type SimStats } from './context';
import type { SimSettings } from './settings';
import { generateMinion } from './fleet';
import { SimError, sendSimError, unexpectedError } from './http-errors';
import { makePublicKey, pemFinger, RSA_2048_SPKI_BYTES } from './keys';
import type { Egress, HttpTool, KeyState, SimMinion, SimResolver } from './model';

/** What tests can do to a running simulator. */
export interface SimControls {
  /** true: the listener closes and open sockets are destroyed (connection refused); false: listen again on the same port. */
  masterDown(down: boolean): Promise<void>;
  /** salt-api stays up but the master daemon is gone: every call answers 503 "Salt Master is not available.". */
  masterUnavailable(unavailable: boolean): void;
  /** Delays every answer by `ms` (0 turns it off). */
  slow(ms: number): void;
  /** The next `n` requests answer `status` (500: the JSON catch-all; others: CherryPy HTML page). */
  failNext(n: number, status?: number, message?: string): void;
  /**
   * The next `n` lowstate requests (`POST /`, `/run`) with a chunk calling `fun` answer `status`
   * as `failNext` does; other requests (a service's background sync, events) pass untouched.
   */
  failNextCall(n: number, fun: string, status?: number, message?: string): void;
  /** Forgets every session (a salt-api restart): the next call with an old token gets 401. */
  expireSessions(): void;
  /** Cuts every open `/events` stream. */
  dropEventStream(): void;
  /** Open `/events` streams stay open but receive nothing more (a silently dropped connection). */
  stallEventStreams(): void;
  /** The master forgets every Salt eauth token while salt-api keeps its sessions. */
  revokeSaltTokens(): void;
  /**
   * The minion presents a new key pair, as a reinstalled host does; returns its fingerprint. An
   * accepted minion's new key is denied (listed beside the accepted one), not swapped in.
   */
  changeKey(minionId: string): string;
  /** Deletes the minion's keys and accepts its new one (the administrator's fix); returns the new fingerprint. */
  acceptNewKey(minionId: string): string;
  /** Makes runner or wheel `fun` raise `pyClass(message)` when called (null: stop). */
  raiseIn(fun: string, error: { pyClass: string; message: string } | null): void;
  /** Brings a minion up (firing its start events) or takes it down. */
  setUp(minionId: string, up: boolean): void;
  /** Adds a minion (default: a pending key, as a freshly installed host presents). */
  addMinion(
    minionId: string,
    options?: { key?: KeyState; grains?: Record<string, unknown>; up?: boolean },
  ): SimMinion;
  /** Removes a minion and its key. */
  removeMinion(minionId: string): void;
  /** Fires a raw bus event (as runner `event.send` would: the data dict as given). */
  emitEvent(tag: string, data: Record<string, unknown>): void;
  /** Fires an event the way a minion's `event.send` does: the payload nested under `data`. */
  minionEvent(minionId: string, tag: string, data: Record<string, unknown>): void;
  /** Puts an IP resolver at `host` (a URL's `name[:port]`) on the simulated internet, or removes it (null). */
  setResolver(host: string, resolver: SimResolver | null): void;
  /** Changes how a minion reaches the internet: its outward address, its egress, its HTTP tools. */
  setNetwork(
    minionId: string,
    network: { publicIp?: string; egress?: Egress; httpTools?: readonly HttpTool[] },
  ): void;
  /** Live settings (return delay, session TTL, enabled clients...). */
  readonly settings: SimSettings;
  /** Counters of received requests. */
  readonly stats: SimStats;
  /** Number of open `/events` streams (to wait for a subscription before publishing). */
  openEventStreams(): number;
  resetStats(): void;
}

/** Fault state shared by the middleware and the controls. */
export interface Faults {
  slowMs: number;
  failCount: number;
  failStatus: number;
  failMessage: string | undefined;
  /** `failNextCall`: the function whose calls fail, how many more, and how. */
  failCall?: { fun: string; count: number; status: number; message: string | undefined };
}

/** `"<METHOD> <route pattern>"` of a request, e.g. `GET /jobs/:jid`. */
export function routeKey(method: string, path: string): string {
  const pattern = path
    .replace(/^\/(jobs)\/[^/]+$/, '/$1/:jid')
    .replace(/^\/(minions|keys)\/[^/]+$/, '/$1/:mid')
    .replace(/^\/hook(\/.*)?$/, '/hook{/*path}');
  return `${method} ${pattern}`;
}

/** Counts, delays and fails requests before they reach the salt-api routes. */
export function faultMiddleware(ctx: SimContext, faults: Faults) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    ctx.stats.requests += 1;
    const key = routeKey(req.method, req.path);
    ctx.stats.byRoute[key] = (ctx.stats.byRoute[key] ?? 0) + 1;
    if (faults.slowMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.slowMs));
    if (res.destroyed || req.destroyed) return;
    if (faults.failCount > 0) {
      faults.failCount -= 1;
      ctx.stats.injectedFailures += 1;
      sendSimError(res, injected(faults.failStatus, faults.failMessage));
      return;
    }
    next();
  };
}

function injected(status: number, message: string | undefined): SimError {
  return status === 500 && message === undefined ? unexpectedError() : new SimError(status, message);
}

/** Whether the raw lowstate body has a chunk calling `fun` (a chunk or a list of them; anything else: no). */
function callsFun(body: unknown, fun: string): boolean {
  if (!Buffer.isBuffer(body)) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return false;
  }
  const chunks: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  return chunks.some((c) => typeof c === 'object' && c !== null && 'fun' in c && c.fun === fun);
}

/** `failNextCall`'s check, once the body is read: fails the matching lowstate requests. */
export function callFaultMiddleware(ctx: SimContext, faults: Faults) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const call = faults.failCall;
    if (
      call === undefined ||
      call.count <= 0 ||
      req.method !== 'POST' ||
      (req.path !== '/' && req.path !== '/run') ||
      !callsFun(req.body, call.fun)
    ) {
      next();
      return;
    }
    call.count -= 1;
    ctx.stats.injectedFailures += 1;
    sendSimError(res, injected(call.status, call.message));
  };
}

function minion(ctx: SimContext, id: string): SimMinion {
  const m = ctx.fleet.minions.get(id);
  if (m === undefined) throw new Error(`no such minion: ${id}`);
  return m;
}

function fireStart(ctx: SimContext, id: string): void {
  const data = `Minion ${id} started at ${new Date().toUTCString()}`;
  ctx.bus.fire(`salt/minion/${id}/start`, {
    id,
    cmd: '_minion_event',
    pretag: null,
    data,
    tag: `salt/minion/${id}/start`,
  });
  ctx.bus.fire('minion_start', { id, cmd: '_minion_event', pretag: null, data, tag: 'minion_start' });
}

/**
 * A minion presents a new key pair (a reinstalled host). `_auth` (salt/transport/mixins/auth.py
 * 2018.3; salt/channel/server.py 3006): while the old key is accepted, the new one does not
 * match it: it is written to `minions_denied`, `salt/auth` fires `{result: False, act: 'denied'}`
 * with the new public key, and the minion is refused (it stays disconnected). A key that was
 * not accepted is replaced (pending again). Returns the new key's fingerprint.
 */
function changeKey(ctx: SimContext, id: string): string {
  const m = minion(ctx, id);
  const pem = makePublicKey(randomBytes(RSA_2048_SPKI_BYTES));
  if (m.key === 'accepted') {
    m.deniedPem = pem;
    m.up = false;
    ctx.bus.fire('salt/auth', { result: false, id, act: 'denied', pub: pem });
  } else {
    m.pem = pem;
    m.key = 'pending';
    ctx.bus.fire('salt/auth', { result: true, act: 'pend', id, pub: pem });
  }
  return pemFinger(pem);
}

/**
 * What an administrator does for a reinstalled host: `salt-key -d <id>` (every key of the id,
 * the denied one included) then, once the minion presented its new key again, `salt-key -a`.
 * The accepted key's fingerprint changes; `salt/key` fires `delete` then `accept`.
 */
function acceptNewKey(ctx: SimContext, id: string): string {
  const m = minion(ctx, id);
  m.pem = m.deniedPem ?? makePublicKey(randomBytes(RSA_2048_SPKI_BYTES));
  delete m.deniedPem;
  ctx.bus.fire('salt/key', { result: true, act: 'delete', id });
  ctx.bus.fire('salt/auth', { result: true, act: 'pend', id, pub: m.pem });
  ctx.bus.fire('salt/key', { result: true, act: 'accept', id });
  m.key = 'accepted';
  m.up = true;
  fireStart(ctx, id);
  return pemFinger(m.pem);
}

/** A freshly installed host presenting its key (pending by default). */
function addMinion(
  ctx: SimContext,
  id: string,
  options: { key?: KeyState; grains?: Record<string, unknown>; up?: boolean },
): SimMinion {
  const key = options.key ?? 'pending';
  const m = generateMinion(ctx.fleet, id, key, ctx.fleet.minions.size + 1);
  Object.assign(m.grains, options.grains ?? {});
  m.up = options.up ?? key === 'accepted';
  ctx.fleet.minions.set(id, m);
  ctx.bus.fire('salt/auth', { result: true, act: key === 'accepted' ? 'accept' : 'pend', id, pub: m.pem });
  if (m.up) fireStart(ctx, id);
  return m;
}

/** Builds the controls of one simulator. */
export function createControls(
  ctx: SimContext,
  faults: Faults,
  setDown: (down: boolean) => Promise<void>,
): SimControls {
  return {
    masterDown: setDown,
    masterUnavailable: (u) => {
      ctx.settings.masterRunning = !u;
    },
    slow: (ms) => {
      faults.slowMs = ms;
    },
    failNext: (n, status = 500, message) => {
      faults.failCount = n;
      faults.failStatus = status;
      faults.failMessage = message;
    },
    failNextCall: (n, fun, status = 500, message) => {
      faults.failCall = { fun, count: n, status, message };
    },
    expireSessions: () => ctx.sessions.clear(),
    dropEventStream: () => ctx.bus.dropStreams(),
    stallEventStreams: () => ctx.bus.stallStreams(),
    revokeSaltTokens: () => ctx.sessions.revokeSaltTokens(),
    changeKey: (id) => changeKey(ctx, id),
    acceptNewKey: (id) => acceptNewKey(ctx, id),
    raiseIn: (fun, error) => {
      if (error === null) delete ctx.settings.raising[fun];
      else ctx.settings.raising[fun] = { ...error };
    },
    setUp: (id, up) => {
      const m = minion(ctx, id);
      const wasUp = m.up;
      m.up = up;
      if (up && !wasUp) fireStart(ctx, id);
    },
    addMinion: (id, options = {}) => addMinion(ctx, id, options),
    removeMinion: (id) => {
      if (ctx.fleet.minions.delete(id)) ctx.bus.fire('salt/key', { result: true, act: 'delete', id });
    },
    setResolver: (host, resolver) => {
      if (resolver === null) ctx.fleet.resolvers.delete(host);
      else ctx.fleet.resolvers.set(host, { ...resolver });
    },
    setNetwork: (id, network) => {
      Object.assign(minion(ctx, id), network);
    },
    emitEvent: (tag, data) => ctx.bus.fire(tag, data),
    minionEvent: (id, tag, data) => ctx.bus.fire(tag, { id, cmd: '_minion_event', pretag: null, tag, data }),
    settings: ctx.settings,
    stats: ctx.stats,
    openEventStreams: () => ctx.bus.openStreams,
    resetStats: () => {
      Object.assign(ctx.stats, emptyStats());
    },
  };
}
