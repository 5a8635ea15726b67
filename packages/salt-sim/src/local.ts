/**
 * The `local*` clients (salt/netapi/__init__.py, salt/client/__init__.py). `local` waits for every targeted minion;
 * minions that never answer become a bare `false` (also under `full_return`, where real
 * answers are `{ret, retcode, jid[, out]}` dicts); listed ids without an accepted key get
 * the "Minion did not return" entry of `LocalClient.get_cli_event_returns` (no `jid`); no match
 * at all is `{}` with no job. `local_async` answers `{jid, minions}` at once; `local_batch` one
 * element per return.
 */
import type { SimContext } from './context';
import { text, truthy } from './scalars';
import type { SimJob } from './jobs';
import { resolveTarget } from './match';
import { atLeast } from './version';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * `get_cli_event_returns`' entry for a targeted id that never returned: 2018.3 yields
 * `{out: 'no_return', ret: 'Minion did not return. [No response]'}`; 3006 adds the lookup hint
 * to the text and `retcode: EX_GENERIC` (1). Neither carries a `jid`.
 */
function noResponse(ctx: SimContext, jid: string): { out: string; ret: string; retcode?: number } {
  if (!atLeast(ctx.settings.masterVersion, '3006'))
    return { out: 'no_return', ret: 'Minion did not return. [No response]' };
  const ret =
    'Minion did not return. [No response]\nThe minions may not have all finished running and any remaining minions will ' +
    'return upon completion. To look up the return data for this job later, run the following command:\n\n' +
    `salt-run jobs.lookup_jid ${jid}`;
  return { out: 'no_return', ret, retcode: 1 };
}

/** `arg` (a list; salt-api wraps a lone value) and `kwarg` of a `local*` chunk. */
function localCall(chunk: Record<string, unknown>): {
  fun: string;
  args: unknown[];
  kwargs: Record<string, unknown>;
} {
  const raw = chunk['arg'];
  const args = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const kwarg = chunk['kwarg'];
  const kwargs =
    kwarg !== null && typeof kwarg === 'object' && !Array.isArray(kwarg)
      ? { ...(kwarg as Record<string, unknown>) }
      : {};
  return { fun: text(chunk['fun']), args, kwargs };
}

function publish(
  ctx: SimContext,
  chunk: Record<string, unknown>,
  user: string,
  minions?: string[],
): SimJob | undefined {
  const tgtType = text(chunk['tgt_type'], 'glob');
  const target = resolveTarget(ctx.fleet, chunk['tgt'], tgtType);
  const targeted = minions ?? target.minions;
  // `ClearFuncs.publish` (salt/master.py, 2018.3 to 3006): no accepted minion matched, listed ids
  // without a key included, and nothing is published ("Master could not resolve minions for
  // target"); `LocalClient._check_pub_data` then answers `{}`.
  if (targeted.length === 0) return undefined;
  const call = localCall(chunk);
  // Nodegroup targets are expanded to a compound expression before publishing.
  const publishedType = tgtType === 'nodegroup' ? 'compound' : tgtType;
  return ctx.jobs.publish({
    fun: call.fun,
    args: call.args,
    kwargs: call.kwargs,
    tgt: chunk['tgt'],
    tgtType: publishedType,
    user,
    minions: targeted,
    missing: target.missing,
    metadata: chunk['metadata'],
  });
}

/** `LocalClient.cmd`: waits for the returns, then fills non-answering minions with `false`. */
export async function runLocal(
  ctx: SimContext,
  chunk: Record<string, unknown>,
  user: string,
): Promise<Record<string, unknown>> {
  const job = publish(ctx, chunk, user);
  if (job === undefined) return {};
  await job.settled;
  const full = chunk['full_return'] === true;
  // A silent minion costs the caller timeout + gather_job_timeout before it is given up on.
  if (job.minions.some((id) => !job.returns.has(id))) await sleep(ctx.settings.noReturnWaitMs);
  const out: Record<string, unknown> = {};
  for (const id of job.minions) {
    const r = job.returns.get(id);
    if (r === undefined) out[id] = false;
    else
      out[id] = full
        ? { ret: r.return, retcode: r.retcode, jid: job.jid, ...(r.out ? { out: r.out } : {}) }
        : r.return;
  }
  for (const id of job.missing) {
    const entry = noResponse(ctx, job.jid);
    out[id] = full ? entry : entry.ret;
  }
  return out;
}

/** `LocalClient.run_job`: `{jid, minions}` right away, or `{}` when nothing matched. */
export function runLocalAsync(
  ctx: SimContext,
  chunk: Record<string, unknown>,
  user: string,
): Record<string, unknown> {
  const job = publish(ctx, chunk, user);
  return job === undefined || job.minions.length === 0 ? {} : { jid: job.jid, minions: job.minions };
}

/** `Batch.get_bnum`: a percentage of the pinged minions (at least 1, else rounded down), or a count. */
function batchSize(spec: unknown, total: number): number {
  const size = text(spec, '10%');
  if (size.endsWith('%')) {
    const share = (Number(size.slice(0, -1)) / 100) * total;
    return share < 1 ? Math.max(1, Math.ceil(share)) : Math.floor(share);
  }
  const n = Number.parseInt(size, 10);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

/**
 * One minion's element of a batch answer (`Batch.run`): with `raw`, its whole return event, or
 * `{ret: {}}` when it did not return in its batch; otherwise `{mid: ret}`, a dict `ret` getting
 * the job's `retcode` added unless it has one ("Munge retcode into return data"), and `{mid: {}}`
 * when it did not return.
 */
function batchElement(job: SimJob, id: string, raw: boolean): Record<string, unknown> {
  const r = job.returns.get(id);
  const event = job.events.get(id);
  if (raw) return event === undefined ? { ret: {} } : { data: event, tag: `salt/job/${job.jid}/ret/${id}` };
  if (r === undefined) return { [id]: {} };
  const ret = r.return;
  const isDict = typeof ret === 'object' && ret !== null && !Array.isArray(ret);
  return { [id]: isDict && !('retcode' in ret) ? { ...ret, retcode: r.retcode } : ret };
}

/**
 * `LocalClient.cmd_batch` -> `Batch` (salt/cli/batch.py, 2018.3 to 3006). `cmd_batch` builds the
 * batch's options from tgt, fun, arg (kwarg folded in by `condition_input`), tgt_type, ret,
 * batch, failhard and raw: `metadata` is not passed on. `Batch.__gather_minions` first publishes
 * `test.ping` to the whole target as the caller and keeps the minions that answer (the others
 * get no job and no element); `run` then publishes `fun` to batches of them as `tgt_type: list`
 * and yields one element per minion of each batch (`batchElement`). Nothing matched: no element.
 */
export async function runLocalBatch(
  ctx: SimContext,
  chunk: Record<string, unknown>,
  user: string,
): Promise<unknown[]> {
  const tgtType = text(chunk['tgt_type'], 'glob');
  const target = resolveTarget(ctx.fleet, chunk['tgt'], tgtType);
  if (target.minions.length === 0) return [];
  const ping = ctx.jobs.publish({
    fun: 'test.ping',
    args: [],
    kwargs: {},
    tgt: chunk['tgt'],
    tgtType: tgtType === 'nodegroup' ? 'compound' : tgtType,
    user,
    minions: target.minions,
    missing: target.missing,
  });
  await ping.settled;
  const up = target.minions.filter((id) => ping.returns.has(id));
  const size = batchSize(chunk['batch'], up.length);
  const raw = truthy(chunk['raw']);
  const call = localCall(chunk);
  const out: unknown[] = [];
  for (let i = 0; i < up.length; i += size) {
    const batch = up.slice(i, i + size);
    const job = ctx.jobs.publish({
      fun: call.fun,
      args: call.args,
      kwargs: call.kwargs,
      tgt: batch,
      tgtType: 'list',
      user,
      minions: batch,
      missing: [],
    });
    await job.settled;
    for (const id of batch) out.push(batchElement(job, id, raw));
  }
  return out;
}
