/**
 * Everything a request handler of the simulator can reach: the fleet, the bus, the job
 * cache, the sessions and the live, test-adjustable settings.
 */
import type { EventBus } from './bus';
import type { JobStore } from './jobs';
import type { Fleet } from './model';
import type { SessionStore } from './sessions';
import { PyError } from './argspec';
import type { SimSettings } from './settings';
import { atLeast } from './version';

/** The simulator's clients list, as `GET /` reports it (alphabetical, salt/netapi/rest_cherrypy/app.py). */
export const CLIENTS = [
  'local',
  'local_async',
  'local_batch',
  'local_subset',
  'runner',
  'runner_async',
  'ssh',
  'wheel',
  'wheel_async',
] as const;

/** Throws the exception a test made `fun` raise (`controls.raiseIn`), if any. */
export function raiseIfBroken(ctx: SimContext, fun: string): void {
  const broken = ctx.settings.raising[fun];
  if (broken !== undefined) throw new PyError(broken.pyClass, broken.message);
}

/** Counters of what the simulator received, for tests (e.g. "exactly one re-login"). */
export interface SimStats {
  /** Every HTTP request that reached the server (failed and slowed ones included). */
  requests: number;
  /** POST /login attempts, successful or not. */
  logins: number;
  failedLogins: number;
  /** `"<METHOD> <route>"` -> count, e.g. `"POST /"`, `"GET /jobs/:jid"`. */
  byRoute: Record<string, number>;
  /** `"<client>:<fun>"` -> count of lowstate chunks, e.g. `"runner:manage.status"`. */
  byFun: Record<string, number>;
  /** Requests answered by `failNext`. */
  injectedFailures: number;
  /** 401 answers sent (no, expired or refused session / credentials). */
  unauthorized: number;
  /** The lowstate chunks received on `POST /` and `/run`, token removed (the last 2000). */
  lowstates: Array<Record<string, unknown>>;
}

/** How many received chunks `stats.lowstates` keeps. */
export const MAX_RECORDED_LOWSTATES = 2000;

/** Fresh zeroed counters. */
export function emptyStats(): SimStats {
  return {
    requests: 0,
    logins: 0,
    failedLogins: 0,
    byRoute: {},
    byFun: {},
    injectedFailures: 0,
    unauthorized: 0,
    lowstates: [],
  };
}

/** Shared state of one simulator instance. */
export interface SimContext {
  fleet: Fleet;
  bus: EventBus;
  jobs: JobStore;
  sessions: SessionStore;
  settings: SimSettings;
  stats: SimStats;
}

/** A runner or wheel call bound to its function's parameters (argspec.ts). */
export interface FunCall {
  fun: string;
  /** Every parameter by name, defaults filled in. */
  values: Record<string, unknown>;
  /** What Salt reports as `fun_args`. */
  funArgs: unknown[];
  user: string;
}

/**
 * The string a runner/wheel call returns (HTTP 200, `success: false`) when it raises:
 * `SyncClientMixin._low`'s `'Exception occurred in {client} {fun}: ' + traceback.format_exc()`.
 */
export function exceptionText(
  kind: 'runner' | 'wheel',
  fun: string,
  pyClass: string,
  message: string,
): string {
  return `Exception occurred in ${kind} ${fun}: Traceback (most recent call last):\n  File "/usr/lib/python3/dist-packages/salt/client/mixins.py", line 395, in _low\n    data[u'return'] = self.functions[fun](*args, **kwargs)\n${pyClass}: ${message}\n`;
}

/**
 * The return of a runner/wheel function called with arguments it does not take. 2018.3's
 * `_low` lets the TypeError reach its `except` (an exception text, `success: false`); the 3000 and
 * 3006 `_low` (salt/client/mixins.py) catch TypeError around the call and return
 * `"\nPassed invalid arguments: ..."` with `success` still true.
 */
export function typeErrorReturn(
  ctx: SimContext,
  kind: 'runner' | 'wheel',
  fun: string,
  message: string,
): { ret: string; success: boolean } {
  if (atLeast(ctx.settings.masterVersion, '3000'))
    return {
      ret: `\nPassed invalid arguments: ${message}\n\nUsage:\n    (see salt-run -d ${fun})`,
      success: true,
    };
  return { ret: exceptionText(kind, fun, 'TypeError', message), success: false };
}

/** The master's clock (its own, which tests may move). */
export function masterNow(ctx: SimContext): number {
  return Date.now() + ctx.settings.clockOffsetMs;
}
