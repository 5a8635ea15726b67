/**
 * The elements of a `local_batch` answer, read as `Batch.run` (salt/cli/batch.py, 2018.3 to
 * 3006) yields them through `LocalClient.cmd_batch`:
 *
 * - with `raw: true` (what the service sends; `cmd_batch` passes it to `Batch`), each return is
 *   the minion's whole return event `{data: {id, jid, return, retcode, success, ...}, tag}`, so
 *   its real jid and retcode are known; a minion that timed out in its batch is `{ret: {}}`,
 *   without its id;
 * - without it (a master that ignored `raw`), a return is `{mid: ret}`: a dict `ret` without a
 *   `retcode` key gets the job's retcode added as one ("Munge retcode into return data"), other
 *   returns lose it, and a minion that timed out in its batch is `{mid: {}}`.
 */
import { isPlainObject } from '@fleet/engine';
import { stateSteps } from '../record';

/** One host's return in a batch answer. */
export interface BatchLine {
  readonly host: string;
  /** The jid of the host's batch, when the answer tells it (raw returns). */
  readonly jid: string | null;
  readonly ret: unknown;
  readonly retcode: number | null;
  readonly success: boolean | null;
  /** The host was in a batch but did not return in time. */
  readonly timedOut: boolean;
}

function rawLine(data: Record<string, unknown>, host: string): BatchLine {
  return {
    host,
    jid: typeof data['jid'] === 'string' ? data['jid'] : null,
    ret: data['return'],
    retcode: typeof data['retcode'] === 'number' ? data['retcode'] : null,
    success: typeof data['success'] === 'boolean' ? data['success'] : null,
    timedOut: false,
  };
}

/**
 * A `{mid: ret}` return. The munged `retcode` is taken back out of a state run's steps (the steps
 * are then recognised); any other dict keeps its own `retcode` key (cmd.run_all has one), which
 * is the job's retcode too.
 */
function plainLine(host: string, ret: unknown): BatchLine {
  if (!isPlainObject(ret)) return { host, jid: null, ret, retcode: null, success: null, timedOut: false };
  if (Object.keys(ret).length === 0)
    return { host, jid: null, ret, retcode: null, success: false, timedOut: true };
  const { retcode, ...rest } = ret;
  if (typeof retcode !== 'number')
    return { host, jid: null, ret, retcode: null, success: null, timedOut: false };
  const steps = stateSteps(rest);
  const unmunged = steps !== null && steps.length > 0 ? rest : ret;
  return { host, jid: null, ret: unmunged, retcode, success: null, timedOut: false };
}

/** The hosts' returns in a `local_batch` answer (raw or not), in answer order. */
export function batchLines(elements: readonly unknown[]): BatchLine[] {
  const out: BatchLine[] = [];
  for (const element of elements) {
    if (!isPlainObject(element)) continue;
    const data = element['data'];
    if (isPlainObject(data) && typeof data['id'] === 'string') {
      out.push(rawLine(data, data['id']));
      continue;
    }
    const keys = Object.keys(element);
    // A raw answer's timed-out minion: `{ret: {}}` names no host (it is shown as silent).
    const only = element['ret'];
    if (keys.length === 1 && keys[0] === 'ret' && isPlainObject(only) && Object.keys(only).length === 0)
      continue;
    for (const [host, ret] of Object.entries(element)) out.push(plainLine(host, ret));
  }
  return out;
}
