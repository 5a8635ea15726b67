/**
 * A checked execution body (the engine validated it with the route's schema, `executionRequest`
 * of the master port) -> the parts of a salt-api lowstate chunk (salt/netapi/__init__.py, salt/client/__init__.py). Pure: no I/O.
 *
 * - When EXEC_ALLOWED_FUNS is set, a function it does not allow is refused with 403: the body is
 *   well formed, the server's policy says no.
 * - `client`, `tgt`, `tgt_type`, `full_return` and `raw` are the service's to set: a body's values
 *   are replaced (the spec: "it sets tgt"); every other salt-api field passes through.
 */
import { Forbidden, isPlainObject } from '@fleet/engine';
import type { ExecClient, ExecutionBody } from '@fleet/resources';
import { jidAt } from '../jid';

const SERVICE_SET = new Set([
  'exec_client',
  'client',
  'tgt',
  'tgt_type',
  'fun',
  'arg',
  'kwarg',
  'full_return',
  'metadata',
  'raw',
]);
/** Keys that would reach an object's prototype when copied. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** An execution request as the master is asked it. */
export interface ParsedExecution {
  readonly client: ExecClient;
  readonly fun: string;
  readonly arg: readonly unknown[];
  readonly kwarg: Readonly<Record<string, unknown>>;
  /** Other salt-api fields passed through (`timeout`, `batch`, `ret`...), plus `metadata`. */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** Whether `fun` is allowed by a list of names and `*` globs (`test.*`, `cmd.run`). */
export function funAllowed(fun: string, allowed: readonly string[]): boolean {
  return allowed.some((pattern) => {
    if (!pattern.includes('*')) return pattern === fun;
    const re = pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${re}$`).test(fun);
  });
}

/**
 * The lowstate parts of a checked body. `allowedFuns` is EXEC_ALLOWED_FUNS (undefined or empty:
 * everything); `user` (the token's name) is added to the job's `metadata` as `fleet_user`, so
 * the job cache and the return events say who ran it.
 */
export function parseExecution(
  body: ExecutionBody,
  allowedFuns: readonly string[] | undefined,
  user: string,
): ParsedExecution {
  const { exec_client: client, fun } = body;
  if (allowedFuns !== undefined && allowedFuns.length > 0 && !funAllowed(fun, allowedFuns)) {
    throw new Forbidden(
      `fun: '${fun}' is not allowed on this server (EXEC_ALLOWED_FUNS: ${allowedFuns.join(', ')})`,
    );
  }
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!SERVICE_SET.has(key) && !UNSAFE_KEYS.has(key)) extra[key] = value;
  }
  extra.metadata = { ...(isPlainObject(body.metadata) ? body.metadata : {}), fleet_user: user };
  return { client, fun, arg: body.arg ?? [], kwarg: body.kwarg ?? {}, extra };
}

/** Salt's `fun_args`: the positional values, then the kwargs as a trailing object (salt/minion.py, salt/utils/event.py). */
export function funArgs(parsed: ParsedExecution): unknown[] {
  return Object.keys(parsed.kwarg).length > 0 ? [...parsed.arg, { ...parsed.kwarg }] : [...parsed.arg];
}

/**
 * A jid in Salt's format (`%Y%m%d%H%M%S%f` of now in the master's zone, ../jid.ts) for a call the
 * master gave none: nothing matched, no minion answered a `local` call, or a `local_batch` (one
 * job per batch). Written in the master's zone so it sorts among the master's own jids.
 */
export function localJid(now: Date, masterTz = 'UTC'): string {
  return jidAt(now, masterTz);
}
