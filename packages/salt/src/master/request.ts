/**
 * The body of an execution request (spec "Execution proxying", DESIGN §5) -> the parts of a
 * salt-api lowstate chunk (salt-api notes §2). Pure: no I/O, so every refusal is decided here.
 *
 * - `exec_client` must be local | local_async | local_batch (422 otherwise): the other clients
 *   (runner, wheel, ssh) administer the master itself and are not proxied.
 * - `fun` must look like `module.function` (422); when EXEC_ALLOWED_FUNS is set, a function it
 *   does not allow is refused with 403: the body is well formed, the server's policy says no.
 * - `client`, `tgt`, `tgt_type`, `full_return` and `raw` are the service's to set: a body's values are
 *   replaced (the spec: "it sets tgt"). Credentials (`token`, `username`, `password`, `eauth`) are
 *   refused with 422: the service always calls the master with its own session.
 */
import { Forbidden, Unprocessable } from '@fleet/engine';
import { jidAt } from '../jid';

/** The clients the API proxies. */
export const EXEC_CLIENTS = ['local', 'local_async', 'local_batch'] as const;
export type ExecClient = (typeof EXEC_CLIENTS)[number];

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
const CREDENTIALS = ['token', 'username', 'password', 'eauth'] as const;
/** `module.function`, as Salt names execution functions (`cmd.run`, `state.apply`, `x509.create_csr`). */
const FUN = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/;

/** A validated execution request. */
export interface ParsedExecution {
  readonly client: ExecClient;
  readonly fun: string;
  readonly arg: readonly unknown[];
  readonly kwarg: Readonly<Record<string, unknown>>;
  /** Other salt-api fields passed through (`timeout`, `batch`, `ret`...), plus `metadata`. */
  readonly extra: Readonly<Record<string, unknown>>;
}

const isExecClient = (v: unknown): v is ExecClient => EXEC_CLIENTS.some((c) => c === v);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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

/** The issues of a body, by field (empty when it is valid). */
function issuesOf(body: Readonly<Record<string, unknown>>): Record<string, string> {
  const issues: Record<string, string> = {};
  if (!isExecClient(body.exec_client)) {
    issues.exec_client = `must be one of ${EXEC_CLIENTS.join(', ')}`;
  }
  if (typeof body.fun !== 'string' || !FUN.test(body.fun) || body.fun.length > 200)
    issues.fun = 'must be a Salt function name: module.function';
  if (body.arg !== undefined && !Array.isArray(body.arg)) issues.arg = 'must be a list';
  if (body.kwarg !== undefined && !isRecord(body.kwarg)) issues.kwarg = 'must be an object';
  if (body.metadata !== undefined && !isRecord(body.metadata)) issues.metadata = 'must be an object';
  for (const key of CREDENTIALS)
    if (key in body) issues[key] = 'credentials are not accepted: the service uses its own salt-api session';
  return issues;
}

/**
 * Validates an execution body. `allowedFuns` is EXEC_ALLOWED_FUNS (undefined: everything);
 * `user` (the token's name) is added to the job's `metadata` as `fleet_user`, so the job
 * cache and the return events say who ran it.
 */
export function parseExecution(
  body: Readonly<Record<string, unknown>>,
  allowedFuns: readonly string[] | undefined,
  user: string,
): ParsedExecution {
  const issues = issuesOf(body);
  const { exec_client: client, fun } = body;
  // issuesOf checked both; the guards again tell the compiler.
  if (Object.keys(issues).length > 0 || !isExecClient(client) || typeof fun !== 'string')
    throw new Unprocessable('execution: invalid request', issues);
  if (allowedFuns !== undefined && allowedFuns.length > 0 && !funAllowed(fun, allowedFuns)) {
    throw new Forbidden(
      `fun: '${fun}' is not allowed on this server (EXEC_ALLOWED_FUNS: ${allowedFuns.join(', ')})`,
    );
  }
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!SERVICE_SET.has(key) && !UNSAFE_KEYS.has(key)) extra[key] = value;
  }
  extra.metadata = { ...(isRecord(body.metadata) ? body.metadata : {}), fleet_user: user };
  return {
    client,
    fun,
    arg: Array.isArray(body.arg) ? body.arg : [],
    kwarg: isRecord(body.kwarg) ? body.kwarg : {},
    extra,
  };
}

/** Salt's `fun_args`: the positional values, then the kwargs as a trailing object (notes §10). */
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
