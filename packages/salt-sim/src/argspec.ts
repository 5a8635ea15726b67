/**
 * How a master turns a runner or wheel lowstate chunk into a Python call, read in Salt 2018.3
 * (the `u''`-prefixed sources) and checked against 3000/3006:
 *
 * - wheel: `NetapiClient.wheel(fun, **kwargs)` -> `ClearFuncs.wheel` (pops `fun` and the token)
 *   -> `WheelClient.call_func` -> `SyncClientMixin._low`: `arg` and `kwarg` are used only when
 *   BOTH are in the chunk (`if u'arg' in low and u'kwarg' in low`); otherwise
 *   `salt.utils.args.format_call` fills the function's parameters from the chunk's top-level keys
 *   and a missing one raises `SaltInvocationError("finger takes at least 1 argument (0 given)")`.
 *   Extra keys (a lone `kwarg` is one: it is in `CLIENT_INTERNAL_KEYWORDS`) are dropped (2018.3
 *   only warns about unknown ones, "until Salt Fluorine").
 * - runner: `NetapiClient.runner(fun, timeout, full_return, **kwargs)` -> `RunnerClient._reformat_low`:
 *   pops `username, password, eauth, token, client, user, key` as credentials (so a top-level
 *   `key` never reaches the runner), parses `k=v` strings of `arg`, then `kwarg`, then every other
 *   top-level key (old-style kwargs, which win); `load_args_and_kwargs(..., ignore_invalid=True)`
 *   drops kwargs the function does not take; the function is then called with both lists.
 */

/** A Python exception raised while calling: its class name and message. */
export class PyError extends Error {
  constructor(
    readonly pyClass: string,
    message: string,
  ) {
    super(message);
  }
}

/** A Python function's parameters: required ones first, then those with defaults (in order). */
export interface Signature {
  /** The Python function name (`finger`, `list_`, `get`), used in Salt's error texts. */
  readonly name: string;
  readonly required: readonly string[];
  readonly optional: Readonly<Record<string, unknown>>;
  /** Takes `**kwargs` (bound under their own names). */
  readonly varKw?: boolean;
  /** Takes `*args` (extra positional values are bound as `VAR_ARGS`). */
  readonly varArgs?: boolean;
}

/** Where `bind` puts the extra positional values of a `*args` function. */
export const VAR_ARGS = '*args';

/** A signature; `optional` keeps its key order (the Python parameter order). */
export function sig(
  name: string,
  required: readonly string[] = [],
  optional: Record<string, unknown> = {},
  rest: { varKw?: boolean; varArgs?: boolean } = {},
): Signature {
  return { name, required, optional, ...rest };
}

function params(s: Signature): string[] {
  return [...s.required, ...Object.keys(s.optional)];
}

/** `salt.client.mixins.CLIENT_INTERNAL_KEYWORDS` of 2018.3 (extra keys format_call ignores). */
const CLIENT_INTERNAL_KEYWORDS = new Set([
  'client',
  'cmd',
  'eauth',
  'fun',
  'kwarg',
  'match',
  'token',
  '__jid__',
  '__tag__',
  '__user__',
  'username',
  'password',
]);

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Python 3 argument binding (`func(*args, **kwargs)`): positional values fill parameters in
 * order, keywords by name; defaults fill the rest. Raises TypeError texts as CPython words them.
 */
export function bind(
  s: Signature,
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const names = params(s);
  if (args.length > names.length && s.varArgs !== true) {
    throw new PyError(
      'TypeError',
      `${s.name}() takes ${names.length === s.required.length ? names.length : `from ${s.required.length} to ${names.length}`} positional arguments but ${args.length} were given`,
    );
  }
  const out: Record<string, unknown> = {};
  args.slice(0, names.length).forEach((v, i) => {
    out[names[i] ?? ''] = v;
  });
  if (s.varArgs === true) out[VAR_ARGS] = args.slice(names.length);
  for (const [k, v] of Object.entries(kwargs)) {
    if (k in out) throw new PyError('TypeError', `${s.name}() got multiple values for argument '${k}'`);
    if (!names.includes(k) && s.varKw !== true)
      throw new PyError('TypeError', `${s.name}() got an unexpected keyword argument '${k}'`);
    out[k] = v;
  }
  const missing = s.required.filter((n) => !(n in out));
  if (missing.length > 0) {
    const list = missing.map((n) => `'${n}'`).join(' and ');
    throw new PyError(
      'TypeError',
      `${s.name}() missing ${plural(missing.length, 'required positional argument')}: ${list}`,
    );
  }
  for (const [k, v] of Object.entries(s.optional)) if (!(k in out)) out[k] = v;
  return out;
}

/**
 * `salt.utils.args.format_call` (2018.3): parameters from the dict's keys; a missing required
 * one raises SaltInvocationError; extra keys are dropped (or kept under `**kwargs`).
 */
export function formatCall(s: Signature, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const found = s.required.filter((n) => n in data);
  if (found.length < s.required.length) {
    const total = s.required.length;
    throw new PyError(
      'SaltInvocationError',
      `${s.name} takes at least ${total} argument${total > 1 ? 's' : ''} (${found.length} given)`,
    );
  }
  const out: Record<string, unknown> = {};
  for (const n of params(s)) out[n] = n in data ? data[n] : s.optional[n];
  if (s.varKw === true) {
    for (const [k, v] of Object.entries(data))
      if (!(k in out) && !CLIENT_INTERNAL_KEYWORDS.has(k)) out[k] = v;
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** What a function receives and what Salt reports as its `fun_args`. */
export interface BoundCall {
  readonly values: Record<string, unknown>;
  readonly funArgs: unknown[];
}

/**
 * The wheel call of a chunk (`SyncClientMixin._low`). `chunk` is what the master's wheel handler
 * passes on: the lowstate without `fun` and the token.
 */
export function wheelCall(s: Signature, chunk: Readonly<Record<string, unknown>>): BoundCall {
  if ('arg' in chunk && 'kwarg' in chunk) {
    const args: unknown[] = Array.isArray(chunk['arg']) ? (chunk['arg'] as unknown[]) : [];
    const kwargs = isRecord(chunk['kwarg']) ? chunk['kwarg'] : {};
    return {
      values: bind(s, args, kwargs),
      funArgs: [...args, ...(Object.keys(kwargs).length > 0 ? [kwargs] : [])],
    };
  }
  const values = formatCall(s, chunk);
  const optional = Object.fromEntries(Object.keys(s.optional).map((k) => [k, values[k]]));
  return {
    values,
    funArgs: [...s.required.map((n) => values[n]), ...(Object.keys(optional).length > 0 ? [optional] : [])],
  };
}

/** `salt.utils.args.parse_input(arg, condition=False)`: `k=v` strings become kwargs. */
function parseInput(arg: unknown): { args: unknown[]; kwargs: Record<string, unknown> } {
  const list = arg === undefined ? [] : Array.isArray(arg) ? arg : [arg];
  const args: unknown[] = [];
  const kwargs: Record<string, unknown> = {};
  for (const a of list) {
    const m = typeof a === 'string' ? /^([^\W\d]\w*)=(?!=)(.*)$/s.exec(a) : null;
    if (m?.[1] !== undefined) kwargs[m[1]] = m[2];
    else if (isRecord(a) && a['__kwarg__'] === true)
      Object.assign(kwargs, Object.fromEntries(Object.entries(a).filter(([k]) => k !== '__kwarg__')));
    else args.push(a);
  }
  return { args, kwargs };
}

/** Keys `RunnerClient._reformat_low` pops as credentials before the kwargs are built (2018.3). */
export const RUNNER_CREDENTIAL_KEYS = [
  'username',
  'password',
  'eauth',
  'token',
  'client',
  'user',
  'key',
] as const;
/** Keys `NetapiClient.runner` takes itself (`fun`, `timeout`, `full_return`). */
const NETAPI_RUNNER_KEYS = new Set(['fun', 'timeout', 'full_return']);

/** The runner call of a chunk (`RunnerClient._reformat_low` then `SyncClientMixin._low`). */
export function runnerCall(s: Signature, chunk: Readonly<Record<string, unknown>>): BoundCall {
  const low: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(chunk)) {
    if (!NETAPI_RUNNER_KEYS.has(k) && !(RUNNER_CREDENTIAL_KEYS as readonly string[]).includes(k)) low[k] = v;
  }
  const { args, kwargs } = parseInput(low['arg']);
  if (isRecord(low['kwarg'])) Object.assign(kwargs, low['kwarg']);
  for (const [k, v] of Object.entries(low)) if (k !== 'arg' && k !== 'kwarg') kwargs[k] = v;
  // load_args_and_kwargs(ignore_invalid=True): kwargs the function does not take are dropped.
  const accepted = Object.fromEntries(
    Object.entries(kwargs).filter(([k]) => s.varKw === true || params(s).includes(k)),
  );
  return {
    values: bind(s, args, accepted),
    funArgs: [...args, ...(Object.keys(accepted).length > 0 ? [accepted] : [])],
  };
}
