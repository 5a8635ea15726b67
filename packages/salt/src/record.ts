/**
 * Job returns -> stored records, shared by execution proxying, the live events and the sync:
 * one action per job and host (`_id` = jid + host name, DESIGN §5), a failed patch when a
 * `state.*` run has a step with `result: false` (steps ordered by `__run_num__`, `cmd` taken from
 * the state key `module_|-id_|-name_|-function`), an error alert per failed patch, and the host's
 * `last_action`. Every write is an upsert keyed by `_id`, so recording twice changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { stampNow, type Doc, type Store } from '@fleet/engine';

/** One minion's return of one job, as the master reports it (event, job cache or local call). */
export interface JobReturn {
  readonly jid: string;
  readonly host: string;
  readonly fun: string;
  /** `fun_args`: positional values, kwargs as a trailing object (`__kwarg__: true`). */
  readonly funArgs: readonly unknown[];
  readonly ret: unknown;
  readonly retcode?: number | null;
  readonly success?: boolean | null;
  readonly user?: string | null;
}

const STATE_FUNS = new Set(['state.apply', 'state.sls', 'state.highstate', 'state.single']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `args` of an action: kwargs objects flagged `__kwarg__: true`, positional values as `{arg}`. */
export function actionArgs(funArgs: readonly unknown[]): Record<string, unknown>[] {
  return funArgs.map((a) => (isRecord(a) ? { ...a, __kwarg__: true } : { arg: a, __kwarg__: false }));
}

/** The action's `return` text: strings as they are, anything else as indented JSON. */
export function returnText(ret: unknown): string {
  return typeof ret === 'string' ? ret : (JSON.stringify(ret, null, 2) ?? 'null');
}

/** The action document of one return (without the meta fields). */
export function actionFields(r: JobReturn): Record<string, unknown> {
  return {
    jid: r.jid,
    action: r.fun,
    host: r.host,
    state: 'finished',
    args: actionArgs(r.funArgs),
    return: returnText(r.ret),
    success: r.success ?? (typeof r.retcode === 'number' ? r.retcode === 0 : null),
    user: r.user ?? null,
  };
}

/** The ordered step list of a state return, or null when `ret` is not a state result. */
export function stateSteps(ret: unknown): Record<string, unknown>[] | null {
  if (!isRecord(ret)) return null;
  const steps: Record<string, unknown>[] = [];
  for (const [key, value] of Object.entries(ret)) {
    const parts = key.split('_|-');
    if (parts.length !== 4 || !isRecord(value)) return null;
    const [module, id, , fn] = parts;
    steps.push({ ...value, __id__: value.__id__ ?? id, cmd: `${module ?? ''}.${fn ?? ''}` });
  }
  return steps.sort((a, b) => Number(a.__run_num__ ?? 0) - Number(b.__run_num__ ?? 0));
}

/** The failed-patch fields of a return, or null when it is no failed state run. */
export function failedPatchFields(r: JobReturn): Record<string, unknown> | null {
  if (!STATE_FUNS.has(r.fun)) return null;
  const steps = stateSteps(r.ret);
  if (!steps || !steps.some((s) => s.result === false)) return null;
  const firstArg = r.funArgs.find((a) => typeof a === 'string');
  const patch = typeof firstArg === 'string' ? firstArg : String(steps.find((s) => s.result === false)?.__sls__ ?? r.fun);
  return { jid: r.jid, action: r.fun, host: r.host, state: 'finished', patch, return: steps };
}

/** Upserts one item keyed by `_id`: `_created` kept from the first write, `_updated` / `_etag` new. */
export async function upsertItem(store: Store, collection: string, id: string, fields: Record<string, unknown>, now: Date): Promise<boolean> {
  const result = await store.update(
    collection,
    { _id: id },
    { $set: { ...fields, _updated: now, _etag: randomBytes(20).toString('hex') }, $setOnInsert: { _created: now } },
    { upsert: true },
  );
  return result.upsertedId !== undefined;
}

/** Records a batch of returns; resolves the ids of the actions that were new. */
export async function recordReturns(store: Store, returns: readonly JobReturn[], now = stampNow()): Promise<string[]> {
  const created: string[] = [];
  for (const r of returns) {
    const id = `${r.jid}${r.host}`;
    if (await upsertItem(store, 'actions', id, actionFields(r), now)) created.push(id);
    const failed = failedPatchFields(r);
    if (failed && (await upsertItem(store, 'failed_patches', id, failed, now))) {
      await upsertItem(store, 'alerts', `patch-${id}`.slice(0, 200), alert('patch.failed', 'error', { hostname: r.host, jid: r.jid, patch: failed.patch }), now);
    }
    // last_action only moves forward: jids sort by time (UTC %Y%m%d%H%M%S%f).
    await store.update(
      'hosts',
      { _id: r.host, $or: [{ last_action: null }, { last_action: { $lt: id } }, { last_action: { $exists: false } }] },
      { $set: { last_action: id, _updated: now, _etag: randomBytes(20).toString('hex') } },
    );
  }
  return created;
}

/** The fields of an alert raised by the service. */
export function alert(type: string, level: 'info' | 'warning' | 'error' | 'critical', payload: Record<string, unknown>): Record<string, unknown> {
  return { type, level, payload, read: false };
}

/** Inserts a new alert (its own generated-style id). */
export async function raiseAlert(store: Store, fields: Record<string, unknown>, now = stampNow()): Promise<Doc> {
  const doc: Doc = { _id: randomBytes(12).toString('hex'), ...fields, _created: now, _updated: now, _etag: randomBytes(20).toString('hex') };
  await store.insert('alerts', [doc]);
  return doc;
}
