/**
 * Job returns -> stored records, shared by execution proxying, the live events and the sync:
 * one action per job and host (`_id` = jid + host name, DESIGN §5), a failed patch when a
 * `state.*` run has a step with `result: false` (steps ordered by `__run_num__`, `cmd` taken from
 * the state key `module_|-id_|-name_|-function`), an error alert per failed patch, and the host's
 * `last_action`. Every write is an upsert keyed by `_id` through the local API (as the system
 * principal), so recording twice changes nothing.
 */
import { stampNow, systemContext, type ItemOf, type Runtime, type WriteDataOf } from '@fleet/engine';
import { actions, alerts, failed_patches, hosts } from '@fleet/resources';
import { text } from './client/normalize';

/** The fields of an alert the service raises. */
export type AlertFields = WriteDataOf<(typeof alerts)['fields']>;

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
export function actionFields(r: JobReturn): WriteDataOf<(typeof actions)['fields']> {
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
export function failedPatchFields(
  r: JobReturn,
): (WriteDataOf<(typeof failed_patches)['fields']> & { jid: string; host: string; patch: string }) | null {
  if (!STATE_FUNS.has(r.fun)) return null;
  const steps = stateSteps(r.ret);
  if (!steps || !steps.some((s) => s.result === false)) return null;
  const firstArg = r.funArgs.find((a) => typeof a === 'string');
  const patch =
    typeof firstArg === 'string' ? firstArg : text(steps.find((s) => s.result === false)?.__sls__, r.fun);
  return { jid: r.jid, action: r.fun, host: r.host, state: 'finished', patch, return: steps };
}

/**
 * Moves each host's `last_action` forward to the newest of `ids` (jid + host name). Jids sort by
 * time, so a lower one never replaces a higher one. Hosts the sync has not stored yet are skipped.
 */
async function advanceLastAction(
  runtime: Runtime,
  newest: ReadonlyMap<string, string>,
  now: Date,
): Promise<void> {
  const ctx = systemContext(runtime, now);
  const api = runtime.resources.of(hosts);
  const stored = await api.find(
    { where: { _id: { $in: [...newest.keys()] } }, projection: { last_action: 1 }, showDeleted: true },
    ctx,
  );
  const moves = stored.flatMap((h) => {
    const id = newest.get(h._id);
    return id !== undefined && (h.last_action === null || h.last_action === undefined || h.last_action < id)
      ? [{ _id: h._id, last_action: id }]
      : [];
  });
  if (moves.length > 0) await api.upsertMany(moves, ctx);
}

/** Records a batch of returns; resolves the ids of the actions that were new. */
export async function recordReturns(
  runtime: Runtime,
  returns: readonly JobReturn[],
  now = stampNow(),
): Promise<string[]> {
  if (returns.length === 0) return [];
  const ctx = systemContext(runtime, now);
  const byId = new Map(returns.map((r) => [`${r.jid}${r.host}`, r] as const));
  const { created } = await runtime.resources.of(actions).upsertMany(
    [...byId].map(([id, r]) => ({ _id: id, ...actionFields(r) })),
    ctx,
  );
  const failed = [...byId].flatMap(([id, r]) => {
    const fields = failedPatchFields(r);
    return fields === null ? [] : [{ _id: id, ...fields }];
  });
  if (failed.length > 0) {
    const patches = await runtime.resources.of(failed_patches).upsertMany(failed, ctx);
    const raised = failed
      .filter((f) => patches.created.includes(f._id))
      .map((f) => ({
        _id: `patch-${f._id}`.slice(0, 200),
        ...alert('patch.failed', 'error', { hostname: f.host, jid: f.jid, patch: f.patch }),
      }));
    if (raised.length > 0) await runtime.resources.of(alerts).upsertMany(raised, ctx);
  }
  const newest = new Map<string, string>();
  for (const [id, r] of byId) if ((newest.get(r.host) ?? '') < id) newest.set(r.host, id);
  await advanceLastAction(runtime, newest, now);
  return [...created];
}

/** The fields of an alert raised by the service. */
export function alert(
  type: string,
  level: 'info' | 'warning' | 'error' | 'critical',
  payload: Record<string, unknown>,
): AlertFields {
  return { type, level, payload, read: false };
}

/** Raises a new alert; resolves it. */
export async function raiseAlert(
  runtime: Runtime,
  fields: AlertFields,
  now = stampNow(),
): Promise<ItemOf<typeof alerts>> {
  return runtime.resources.of(alerts).create(fields, systemContext(runtime, now));
}
