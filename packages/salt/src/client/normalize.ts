/**
 * Reshaping of salt-api answers into the client's types, narrowing `unknown` at the
 * trust boundary. Each function cites the shape it reads (salt-api notes sections).
 */
import { isPlainObject } from '@fleet/engine';
import { malformed } from './errors';
import type {
  JobDetail,
  JobMinionResult,
  JobSummary,
  KeyFingerprints,
  KeyLists,
  KeyState,
  MinionOutcome,
  SaltEvent,
} from './types';

type Obj = Record<string, unknown>;

/** A plain object or undefined. */
export function asObject(v: unknown): Obj | undefined {
  return isPlainObject(v) ? v : undefined;
}

/** A JSON list (Array.isArray alone narrows to any[]). */
export function isList(v: unknown): v is unknown[] {
  return Array.isArray(v);
}

/** A scalar as text; `fallback` for anything else (an object is never printed as "[object Object]"). */
export function text(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : fallback;
}

const str = (v: unknown): string => text(v);

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** `{"return": [a, b, ...]}` -> the list (POST /, GET /jobs, GET /minions). */
export function returnList(body: unknown, what: string): unknown[] {
  const ret = asObject(body)?.['return'];
  if (!Array.isArray(ret)) throw malformed(what, 'no "return" list');
  return ret;
}

const NO_RETURN = /^Minion did not return/;

/**
 * One minion's value of a `local` call (salt/netapi/__init__.py, salt/client/__init__.py): under full_return a real answer is a
 * `{ret, retcode, jid}` dict and silence a bare `false`; listed ids without a key get the
 * "Minion did not return" text. Without full_return a `false` cannot be told apart.
 */
export function minionOutcome(value: unknown, fullReturn: boolean): MinionOutcome {
  if (typeof value === 'string' && NO_RETURN.test(value))
    return { status: 'no_response', message: value.split('\n')[0] ?? value };
  if (!fullReturn)
    return value === false
      ? { status: 'ambiguous_false' }
      : { status: 'returned', ret: value, retcode: null, jid: null };
  if (value === false) return { status: 'no_response', message: 'Minion did not return. [No response]' };
  const obj = asObject(value);
  if (obj === undefined || !('ret' in obj))
    return { status: 'returned', ret: value, retcode: null, jid: null };
  const ret = obj['ret'];
  if (typeof ret === 'string' && NO_RETURN.test(ret))
    return { status: 'no_response', message: ret.split('\n')[0] ?? ret };
  const out = typeof obj['out'] === 'string' ? { out: obj['out'] } : {};
  return {
    status: 'returned',
    ret,
    retcode: typeof obj['retcode'] === 'number' ? obj['retcode'] : null,
    jid: typeof obj['jid'] === 'string' ? obj['jid'] : null,
    ...out,
  };
}

/** A `jobs.list_jobs` entry (salt/runners/jobs.py). */
export function jobSummary(jid: string, v: unknown): JobSummary {
  const o = asObject(v) ?? {};
  const target = o['Target'];
  return {
    jid,
    function: str(o['Function']),
    arguments: isList(o['Arguments']) ? o['Arguments'] : [],
    target: Array.isArray(target) ? strings(target) : str(target),
    targetType: str(o['Target-type']),
    user: str(o['User']),
    startTime: str(o['StartTime']),
    ...(o['Metadata'] !== undefined ? { metadata: o['Metadata'] } : {}),
  };
}

function minionResult(v: unknown): JobMinionResult {
  const o = asObject(v) ?? {};
  return {
    return: o['return'],
    retcode: typeof o['retcode'] === 'number' ? o['retcode'] : null,
    success: typeof o['success'] === 'boolean' ? o['success'] : null,
    ...(typeof o['out'] === 'string' ? { out: o['out'] } : {}),
  };
}

/** GET /jobs/<jid> -> `{info: [list_job], return: [...]}` (salt/netapi/rest_cherrypy/app.py). */
export function jobDetail(jid: string, body: unknown): JobDetail {
  const infoList = asObject(body)?.['info'];
  const info = asObject(Array.isArray(infoList) ? infoList[0] : undefined) ?? {};
  const result = Object.fromEntries(
    Object.entries(asObject(info['Result']) ?? {}).map(([id, r]) => [id, minionResult(r)]),
  );
  const minions = strings(info['Minions']);
  const error = typeof info['Error'] === 'string' ? { error: info['Error'] } : {};
  return {
    ...jobSummary(jid, info),
    minions,
    result,
    pending: minions.filter((id) => !(id in result)),
    ...error,
  };
}

/** wheel key.list_all / GET /keys (salt/runners/manage.py, salt/wheel/key.py). */
export function keyLists(v: unknown): KeyLists {
  const o = asObject(v) ?? {};
  return {
    minions: strings(o['minions']),
    minions_pre: strings(o['minions_pre']),
    minions_rejected: strings(o['minions_rejected']),
    minions_denied: strings(o['minions_denied']),
    local: strings(o['local']),
  };
}

const DIR_STATE: Record<string, KeyState> = {
  minions: 'accepted',
  minions_pre: 'pending',
  minions_rejected: 'rejected',
  minions_denied: 'denied',
};

/** wheel key.finger -> fingerprints per state; the master's own `local` keys are left out. */
export function keyFingerprints(v: unknown): KeyFingerprints {
  const out: KeyFingerprints = { accepted: {}, pending: {}, rejected: {}, denied: {} };
  for (const [dir, ids] of Object.entries(asObject(v) ?? {})) {
    const state = DIR_STATE[dir];
    if (state === undefined) continue;
    for (const [id, fp] of Object.entries(asObject(ids) ?? {}))
      if (typeof fp === 'string') out[state][id] = fp;
  }
  return out;
}

/**
 * Master `nodegroups` -> compound strings (salt/utils/minions.py): a string stays; a token list (any
 * element with `@` or an operator) is joined with spaces; a plain id list becomes `L@a,b`.
 * The 2017.7+ list-of-single-key-dicts form is flattened first.
 */
export function nodegroupExpressions(v: unknown): Record<string, string> {
  const entries: Array<[string, unknown]> = Array.isArray(v)
    ? v.flatMap((d) => Object.entries(asObject(d) ?? {}))
    : Object.entries(asObject(v) ?? {});
  const out: Record<string, string> = {};
  for (const [name, expr] of entries) {
    if (typeof expr === 'string') out[name] = expr;
    else if (Array.isArray(expr)) {
      const tokens = expr.map(String);
      const compound = tokens.some((t) => t.includes('@') || ['and', 'or', 'not', '(', ')'].includes(t));
      out[name] = compound ? tokens.join(' ') : `L@${tokens.join(',')}`;
    }
  }
  return out;
}

/**
 * The user payload of a custom event (salt/minion.py, salt/utils/event.py): a minion's `event.send` nests it under
 * `data.data` (with `cmd: "_minion_event"`); a runner's `event.send` puts it in `data`.
 */
export function eventPayload(event: SaltEvent): Record<string, unknown> {
  if (event.data['cmd'] === '_minion_event') {
    const inner = asObject(event.data['data']);
    if (inner !== undefined) return inner;
  }
  return event.data;
}
