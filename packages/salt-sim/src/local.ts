/**
 * The `local*` clients (salt-api notes §2). `local` waits for every targeted minion;
 * minions that never answer become a bare `false` (also under `full_return`, where real
 * answers are `{ret, retcode, jid[, out]}` dicts); listed ids without an accepted key get
 * the "Minion did not return" entry of `LocalClient.get_cli_event_returns` (no `jid`); no match
 * at all is `{}` with no job. `local_async` answers `{jid, minions}` at once; `local_batch` one
 * element per return.
 */
import { text, type SimContext } from './context';
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
  if (targeted.length === 0 && target.missing.length === 0) return undefined;
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

function batchSize(spec: unknown, total: number): number {
  const size = text(spec, '10%');
  const n = size.endsWith('%') ? Math.ceil((Number(size.slice(0, -1)) / 100) * total) : Number(size);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

/** `LocalClient.cmd_batch`: minions that do not answer the initial ping are left out. */
export async function runLocalBatch(
  ctx: SimContext,
  chunk: Record<string, unknown>,
  user: string,
): Promise<unknown[]> {
  const target = resolveTarget(ctx.fleet, chunk['tgt'], text(chunk['tgt_type'], 'glob'));
  const up = target.minions.filter((id) => ctx.fleet.minions.get(id)?.up === true);
  const size = batchSize(chunk['batch'], up.length);
  const out: unknown[] = [];
  for (let i = 0; i < up.length; i += size) {
    const job = publish(ctx, chunk, user, up.slice(i, i + size));
    if (job === undefined) continue;
    await job.settled;
    for (const [id, r] of job.returns) out.push({ [id]: r.return });
  }
  return out;
}
