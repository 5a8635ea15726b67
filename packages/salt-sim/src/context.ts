/**
 * Everything a request handler of the simulator can reach: the fleet, the bus, the job
 * cache, the sessions and the live, test-adjustable settings.
 */
import type { EventBus } from './bus';
import type { JobStore } from './jobs';
import type { Fleet } from './model';
import type { SessionStore } from './sessions';

/** The simulator's clients list, as `GET /` reports it (alphabetical, salt-api notes §0). */
export const CLIENTS = ['local', 'local_async', 'local_batch', 'local_subset', 'runner', 'runner_async', 'ssh', 'wheel', 'wheel_async'] as const;

/** Settings tests may change at run time. */
export interface SimSettings {
  /** Delay before a minion's return arrives. */
  returnDelayMs: number;
  /** How long a sync `local` call waits for minions that will never answer (timeout + gather_job_timeout). */
  noReturnWaitMs: number;
  /** Session idle timeout (CherryPy `tools.sessions.timeout`). */
  sessionTtlMs: number;
  /** Salt `token_expire`, seconds. */
  tokenExpireS: number;
  /** `netapi_enable_clients`. */
  enabledClients: string[];
  /** False: salt-api is up but the master daemon is not (503 "Salt Master is not available."). */
  masterRunning: boolean;
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
}

/** Fresh zeroed counters. */
export function emptyStats(): SimStats {
  return { requests: 0, logins: 0, failedLogins: 0, byRoute: {}, byFun: {}, injectedFailures: 0, unauthorized: 0 };
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

/** A runner or wheel call after kwargs from every accepted place have been merged. */
export interface FunCall {
  fun: string;
  args: unknown[];
  kwargs: Record<string, unknown>;
  user: string;
}

/** Reads a parameter given by keyword or by position (`salt-run jobs.list_job <jid>`). */
export function param(call: FunCall, name: string, index: number): unknown {
  return call.kwargs[name] ?? call.args[index];
}

/** Python-style truthiness of a CLI/JSON flag (`True`, `true`, `1`, true). */
export function truthy(v: unknown): boolean {
  if (typeof v === 'string') return ['true', '1', 'yes'].includes(v.toLowerCase());
  return v === true || v === 1;
}

/** The string a runner/wheel call returns (HTTP 200) when its function raises. */
export function exceptionText(kind: 'runner' | 'wheel', fun: string, detail: string): string {
  return `Exception occurred in ${kind} ${fun}: Traceback (most recent call last):\n  File "/usr/lib/python3/dist-packages/salt/client/mixins.py", line 395, in low\n    data["return"] = func(*args, **kwargs)\n${detail}\n`;
}

const RESERVED = new Set(['client', 'fun', 'arg', 'kwarg', 'token', 'eauth', 'username', 'password', 'full_return', 'timeout']);

/** `arg` coerced to a list, `kwarg` merged with CLI-style `k=v` args and top-level keys. */
export function funCall(chunk: Record<string, unknown>, user: string, topLevelKwargs: boolean): FunCall {
  const rawArg = chunk['arg'];
  const argList: unknown[] = rawArg === undefined ? [] : Array.isArray(rawArg) ? rawArg : [rawArg];
  const kwarg = chunk['kwarg'];
  const kwargs: Record<string, unknown> = kwarg !== null && typeof kwarg === 'object' && !Array.isArray(kwarg) ? { ...(kwarg as Record<string, unknown>) } : {};
  const args: unknown[] = [];
  for (const a of argList) {
    const m = topLevelKwargs && typeof a === 'string' ? /^(\w+)=(.*)$/s.exec(a) : null;
    if (m?.[1] !== undefined) kwargs[m[1]] = m[2];
    else args.push(a);
  }
  if (topLevelKwargs) for (const [k, v] of Object.entries(chunk)) if (!RESERVED.has(k)) kwargs[k] = v;
  return { fun: String(chunk['fun'] ?? ''), args, kwargs, user };
}
