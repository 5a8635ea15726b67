/**
 * The master's reachability as alerts: ONE `master.unreachable` (error) when an outage starts
 * and ONE `master.reachable` (info) when it ends, however many runs fail in between. The last
 * master.* alert in the store is the state, so several instances and restarts agree.
 */
import { randomBytes } from 'node:crypto';
import { HttpError, systemContext, type Runtime } from '@fleet/engine';
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
 * (unreachable / 5xx -> 502-503, timeout -> 504, refused login -> 502). Anything else
 * (the store, a bug) is not the master's fault and is rethrown by the caller.
 */
export function isMasterFailure(err: unknown): err is HttpError {
  return err instanceof HttpError && err.status >= 500;
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
