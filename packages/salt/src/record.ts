/**
 * Job returns -> stored records, shared by execution proxying, the live events and the sync:
 * one action per job and host (`_id` = jid + host name), a failed patch when a
 * `state.*` run failed (steps ordered by `__run_num__`, `cmd` taken from the state key
 * `module_|-id_|-name_|-function`; a render error's list of messages as steps of their own), an
 * error alert per failed patch, and the host's `last_action`. Every write is an upsert keyed by
 * `_id` through the local API (as the system principal), so recording twice, from two paths or
 * two processes, changes nothing and never collides.
 *
 * The paths know different things, and none may erase what another wrote: the fleet user (the
 * API token that started it) is known to the request and to returns that echo the `metadata`
 * the service sent; the master account that published the job to the job cache and the `new`
 * event. A field a path does not know is left out of its write, never written as null.
 *
 * The outcome is the job's `retcode` when the return has one (0 success): Salt 2018.3's minion
 * (`minion.py` `_thread_return`) reports `success: True` for every function that returned, a
 * failed state included; `success == (retcode == 0)` only from 2019.2. `success` is used only
 * when no `retcode` came.
 */
import {
  isPlainObject,
  stampNow,
  systemContext,
  type ItemOf,
  type Runtime,
  type WriteDataOf,
} from '@fleet/engine';
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
  /** The fleet user (API token name) that started it; unknown: null or absent. */
  readonly user?: string | null;
  /** The master account that published the job (job cache `User`); unknown: null or absent. */
  readonly saltUser?: string | null;
}

const STATE_FUNS = new Set(['state.apply', 'state.sls', 'state.highstate', 'state.single']);

/** `args` of an action: kwargs objects flagged `__kwarg__: true`, positional values as `{arg}`. */
export function actionArgs(funArgs: readonly unknown[]): Record<string, unknown>[] {
  return funArgs.map((a) => (isPlainObject(a) ? { ...a, __kwarg__: true } : { arg: a, __kwarg__: false }));
}

/** The action's `return` text: strings as they are, anything else as indented JSON. */
export function returnText(ret: unknown): string {
  return typeof ret === 'string' ? ret : (JSON.stringify(ret, null, 2) ?? 'null');
}

/** A return's outcome: its `retcode` when it has one, else its `success`, else unknown (null). */
export function outcomeOf(r: Pick<JobReturn, 'retcode' | 'success'>): boolean | null {
  if (typeof r.retcode === 'number') return r.retcode === 0;
  return typeof r.success === 'boolean' ? r.success : null;
}

/** The fleet user a return names in the `metadata` the service sent (`fleet_user`), or null. */
export function fleetUserOf(metadata: unknown): string | null {
  if (!isPlainObject(metadata)) return null;
  const user = metadata.fleet_user;
  return typeof user === 'string' && user !== '' ? user : null;
}

/**
 * The action document of one return (without the meta fields). `user`, `salt_user` and
 * `success` are left out when this path does not know them, so they never erase what another
 * path recorded (the fields default to null when the action is created).
 */
export function actionFields(r: JobReturn): WriteDataOf<(typeof actions)['fields']> {
  const success = outcomeOf(r);
  return {
    jid: r.jid,
    action: r.fun,
    host: r.host,
    state: 'finished',
    args: actionArgs(r.funArgs),
    return: returnText(r.ret),
    ...(success === null ? {} : { success }),
    ...(typeof r.user === 'string' && r.user !== '' ? { user: r.user } : {}),
    ...(typeof r.saltUser === 'string' && r.saltUser !== '' ? { salt_user: r.saltUser } : {}),
  };
}

/** The ordered step list of a state return, or null when `ret` is not a state result. */
export function stateSteps(ret: unknown): Record<string, unknown>[] | null {
  if (!isPlainObject(ret)) return null;
  const steps: Record<string, unknown>[] = [];
  for (const [key, value] of Object.entries(ret)) {
    const parts = key.split('_|-');
    if (parts.length !== 4 || !isPlainObject(value)) return null;
    const [module, id, , fn] = parts;
    steps.push({ ...value, __id__: value.__id__ ?? id, cmd: `${module ?? ''}.${fn ?? ''}` });
  }
  return steps.sort((a, b) => Number(a.__run_num__ ?? 0) - Number(b.__run_num__ ?? 0));
}

/**
 * A state run's error messages as steps: `_set_retcode` (salt/modules/state.py) makes a list
 * answer retcode 1 (render errors, "No matching sls", a concurrent run), one message each.
 */
function messageSteps(r: JobReturn, messages: readonly unknown[], patch: string): Record<string, unknown>[] {
  return messages.map((message, i) => ({
    __id__: patch,
    name: patch,
    comment: returnText(message),
    result: false,
    __run_num__: i,
    changes: {},
    cmd: r.fun,
  }));
}

/**
 * The failed-patch fields of a return, or null when it is no failed state run: a `state.*` job
 * whose outcome is a failure (retcode 2 for a failed step, 1 for a list of error messages) or
 * that has a step with `result: false`.
 */
export function failedPatchFields(
  r: JobReturn,
): (WriteDataOf<(typeof failed_patches)['fields']> & { jid: string; host: string; patch: string }) | null {
  if (!STATE_FUNS.has(r.fun)) return null;
  const steps = stateSteps(r.ret);
  const stepFailed = steps?.some((s) => s.result === false) === true;
  const messages = Array.isArray(r.ret) && r.ret.length > 0 ? r.ret : null;
  const hasSteps = steps !== null && steps.length > 0;
  if (!stepFailed && !(outcomeOf(r) === false && (hasSteps || messages !== null))) return null;
  const firstArg = r.funArgs.find((a) => typeof a === 'string');
  const failedSls = steps?.find((s) => s.result === false)?.__sls__;
  const patch = typeof firstArg === 'string' ? firstArg : text(failedSls, r.fun);
  const list = hasSteps && steps !== null ? steps : messageSteps(r, messages ?? [], patch);
  return { jid: r.jid, action: r.fun, host: r.host, state: 'finished', patch, return: list };
}

/**
 * Moves each host's `last_action` forward to the newest of `ids` (jid + host name). Jids sort by
 * time, so a lower one never replaces a higher one, also when another writer moved it meanwhile
 * (`patchEach` decides on the version it writes). Hosts the sync has not stored yet are skipped.
 */
async function advanceLastAction(
  runtime: Runtime,
  newest: ReadonlyMap<string, string>,
  now: Date,
): Promise<void> {
  await runtime.resources.of(hosts).patchEach(
    [...newest.keys()],
    (h) => {
      const id = newest.get(h._id);
      return id !== undefined && (h.last_action === null || h.last_action === undefined || h.last_action < id)
        ? { last_action: id }
        : undefined;
    },
    systemContext(runtime, now),
  );
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
  const failed = [...byId].flatMap(([id, r]) => {
    const fields = failedPatchFields(r);
    return fields === null ? [] : [{ _id: id, ...fields }];
  });
  // Asked together, so the store's group commit makes them durable in one transaction: the
  // actions with their failed patches, then the alerts with the hosts' last_action (which
  // refers to the actions, so it waits for them).
  const [{ created }, patches] = await Promise.all([
    runtime.resources.of(actions).upsertMany(
      [...byId].map(([id, r]) => ({ _id: id, ...actionFields(r) })),
      ctx,
    ),
    failed.length > 0 ? runtime.resources.of(failed_patches).upsertMany(failed, ctx) : undefined,
  ]);
  const raised = failed
    .filter((f) => patches?.created.includes(f._id) === true)
    .map((f) => ({
      _id: `patch-${f._id}`.slice(0, 200),
      ...alert('patch.failed', 'error', { hostname: f.host, jid: f.jid, patch: f.patch }),
    }));
  const newest = new Map<string, string>();
  for (const [id, r] of byId) if ((newest.get(r.host) ?? '') < id) newest.set(r.host, id);
  await Promise.all([
    raised.length > 0 ? runtime.resources.of(alerts).upsertMany(raised, ctx) : undefined,
    advanceLastAction(runtime, newest, now),
  ]);
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
