/**
 * The master's reachability as alerts: ONE `master.unreachable` (error) when an outage starts
 * and ONE `master.reachable` (info) when it ends, however many runs fail in between. The last
 * master.* alert in the store is the state, so several instances and restarts agree. A master
 * that answers but whose runner or wheel function raised is reachable: that is a
 * `master.function_failed` warning instead, naming the function and the exception.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Conflict, HttpError, systemContext, type Runtime } from '@fleet/engine';
import { SaltFunctionFailed } from '../client/errors';
import { alerts } from '@fleet/resources';
import { alert, type AlertFields } from '../record';

const TYPES = ['master.unreachable', 'master.reachable'];

async function lastState(runtime: Runtime, now: Date): Promise<string | undefined> {
  // `_created` has whole seconds; the id's millisecond stamp orders two alerts of one second.
  const where = { type: { $in: TYPES } };
  const [last] = await runtime.resources.of(alerts).find(
    {
      where,
      sort: [
        ['_created', -1],
        ['_id', -1],
      ],
      limit: 1,
    },
    systemContext(runtime, now),
  );
  return last?.type;
}

async function insertState(runtime: Runtime, fields: AlertFields, now: Date): Promise<void> {
  const id = `master-${String(Date.now()).padStart(15, '0')}-${randomBytes(4).toString('hex')}`;
  await runtime.resources.of(alerts).create({ ...fields, _id: id }, systemContext(runtime, now));
}

/**
 * Whether an error means the master could not be used for this run: the client's typed errors
 * (unreachable / 5xx -> 502-503, timeout -> 504, refused login -> 502). A runner or wheel
 * function that raised is not one: the master answered (`isFunctionFailure`). Anything else
 * (the store, a bug) is not the master's fault and is rethrown by the caller.
 */
export function isMasterFailure(err: unknown): err is HttpError {
  return err instanceof HttpError && err.status >= 500 && !(err instanceof SaltFunctionFailed);
}

/** Whether the run stopped because a master function raised (the master itself answered). */
export function isFunctionFailure(err: unknown): err is SaltFunctionFailed {
  return err instanceof SaltFunctionFailed;
}

/**
 * Raises one `master.function_failed` warning per failing function and message per day (its id
 * is derived from them, so several runs and instances store it once); resolves whether it was new.
 */
export async function noteFunctionFailed(
  runtime: Runtime,
  err: SaltFunctionFailed,
  now: Date,
): Promise<boolean> {
  const day = now.toISOString().slice(0, 10);
  const id = `master-fn-${createHash('sha1')
    .update(JSON.stringify([err.kind, err.fun, err.summary, day]))
    .digest('hex')
    .slice(0, 24)}`;
  const fields = alert('master.function_failed', 'warning', {
    hostname: 'salt-master',
    status: 'function_failed',
    function: `${err.kind} ${err.fun}`,
    message: err.summary,
  });
  try {
    await runtime.resources.of(alerts).create({ ...fields, _id: id }, systemContext(runtime, now));
    return true;
  } catch (e) {
    if (e instanceof Conflict) return false;
    throw e;
  }
}

/** Raises `master.unreachable` unless the outage is already on record; resolves whether it did. */
export async function noteUnreachable(runtime: Runtime, message: string, now: Date): Promise<boolean> {
  if ((await lastState(runtime, now)) === 'master.unreachable') return false;
  await insertState(
    runtime,
    alert('master.unreachable', 'error', { hostname: 'salt-master', status: 'unreachable', message }),
    now,
  );
  return true;
}

/** Raises `master.reachable` when the last record is an outage; resolves whether it did. */
export async function noteReachable(runtime: Runtime, now: Date): Promise<boolean> {
  if ((await lastState(runtime, now)) !== 'master.unreachable') return false;
  await insertState(
    runtime,
    alert('master.reachable', 'info', { hostname: 'salt-master', status: 'reachable' }),
    now,
  );
  return true;
}
