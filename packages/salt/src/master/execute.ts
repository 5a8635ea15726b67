/**
 * Execution proxying (spec "Execution proxying"): the validated body becomes one
 * lowstate chunk (`exec_client` renamed `client`; `tgt` the host id, or the group's host names
 * with `tgt_type: list`), sent to salt-api; the answer becomes `{task_id, status, return}`.
 *
 * - `local`: one action per targeted host is recorded at once (user = the token's name).
 * - `local_async`: answers `{jid, minions}` once the job is stored for follow-up; whichever
 *   instance polls it records the returns as they arrive (async-jobs.ts).
 * - `local_batch`: sent with `raw: true`, so each element is a minion's whole return event
 *   (real jid, retcode): one action per host and run under its batch's jid, the same record the
 *   events and the job cache reach (batch.ts); the batch's ping is bookkeeping (sync/noise.ts).
 *
 * `status`: `success` when every targeted host answered successfully (for `local_async`: the
 * job was published to every target), `failed` when none did, `partial` otherwise. A host that did
 * not answer is shown with Salt's "Minion did not return" text and recorded with success false.
 * Master errors (502/503/504) propagate from the client before anything is stored.
 */
import type { CallContext, Runtime } from '@fleet/engine';
import type { ExecutionRequest, ExecutionResponse } from '@fleet/resources';
import type { SaltClient } from '../client';
import type { LocalOptions, MinionOutcome } from '../client/types';
import { outcomeOf, recordReturns, type JobReturn } from '../record';
import { batchLines } from './batch';
import { NO_RESPONSE, type AsyncJobTracker } from './async-jobs';
import { funArgs, localJid, parseExecution, type ParsedExecution } from './request';

/** Shown for a target the master did not publish to (no accepted key, or no match). */
export const NOT_TARGETED = 'Minion did not return. [Not targeted: the master has no accepted key for it]';

export interface ExecuteDeps {
  readonly client: SaltClient;
  readonly runtime: Runtime;
  readonly tracker: AsyncJobTracker;
  /** The master's zone (SALT_MASTER_TZ), for the jids the service makes up. */
  readonly masterTz: string;
  /** EXEC_ALLOWED_FUNS: the functions executions may run (undefined or empty: every one). */
  readonly allowedFuns?: readonly string[];
}

/** One host's line of the answer and its record. */
interface HostResult {
  readonly host: string;
  readonly output: unknown;
  readonly ret: JobReturn;
}

type Call = {
  readonly parsed: ParsedExecution;
  readonly request: ExecutionRequest;
  readonly ctx: CallContext;
};

function target(request: ExecutionRequest): {
  tgt: string | string[];
  options: Pick<LocalOptions, 'tgt_type'>;
} {
  if (request.kind === 'host') return { tgt: request.targets[0] ?? '', options: {} };
  return { tgt: [...request.targets], options: { tgt_type: 'list' } };
}

function options(call: Call): LocalOptions {
  const { parsed } = call;
  return {
    arg: [...parsed.arg],
    ...(Object.keys(parsed.kwarg).length > 0 ? { kwarg: { ...parsed.kwarg } } : {}),
    ...target(call.request).options,
    extra: { ...parsed.extra },
  };
}

function jobReturn(
  call: Call,
  jid: string,
  host: string,
  ret: unknown,
  retcode: number | null,
  success: boolean | null,
  saltUser: string,
): JobReturn {
  return {
    jid,
    host,
    fun: call.parsed.fun,
    funArgs: funArgs(call.parsed),
    ret,
    retcode,
    success,
    user: call.ctx.principal.name,
    saltUser,
  };
}

/** A host's result from its `local` outcome (a missing outcome: the master did not target it). */
function fromOutcome(
  call: Call,
  jid: string,
  host: string,
  outcome: MinionOutcome | undefined,
  saltUser: string,
): HostResult {
  if (outcome === undefined)
    return {
      host,
      output: NOT_TARGETED,
      ret: jobReturn(call, jid, host, NOT_TARGETED, null, false, saltUser),
    };
  if (outcome.status === 'returned') {
    // The outcome is the retcode when the answer has one (record.ts `outcomeOf`).
    const success = outcome.retcode === null ? outcome.ret !== false : null;
    return {
      host,
      output: outcome.ret,
      ret: jobReturn(call, jid, host, outcome.ret, outcome.retcode, success, saltUser),
    };
  }
  const message = outcome.status === 'no_response' ? outcome.message : NO_RESPONSE;
  return { host, output: message, ret: jobReturn(call, jid, host, message, null, false, saltUser) };
}

/** success | partial | failed from how many of `total` succeeded. */
export function overallStatus(succeeded: number, total: number): 'success' | 'partial' | 'failed' {
  if (total > 0 && succeeded === total) return 'success';
  return succeeded === 0 ? 'failed' : 'partial';
}

function hostsOf(request: ExecutionRequest, answered: readonly string[]): string[] {
  return [...new Set([...request.targets, ...answered])];
}

async function runLocal(deps: ExecuteDeps, call: Call): Promise<ExecutionResponse> {
  const { tgt } = target(call.request);
  const result = await deps.client.local(tgt, call.parsed.fun, options(call));
  const jid = result.jid ?? localJid(call.ctx.now, deps.masterTz);
  const lines = hostsOf(call.request, Object.keys(result.minions)).map((host) =>
    fromOutcome(call, jid, host, result.minions[host], deps.client.user),
  );
  await recordReturns(
    deps.runtime,
    lines.map((l) => l.ret),
    call.ctx.now,
  );
  const output = Object.fromEntries(lines.map((l) => [l.host, l.output]));
  return {
    task_id: jid,
    status: overallStatus(lines.filter((l) => outcomeOf(l.ret) === true).length, lines.length),
    return: { return: [output] },
  };
}

async function runAsync(deps: ExecuteDeps, call: Call): Promise<ExecutionResponse> {
  const { tgt } = target(call.request);
  const job = await deps.client.localAsync(tgt, call.parsed.fun, options(call));
  const jid = job.jid ?? localJid(call.ctx.now, deps.masterTz);
  const untargeted = call.request.targets.filter((host) => !job.minions.includes(host));
  await recordReturns(
    deps.runtime,
    untargeted.map((host) => jobReturn(call, jid, host, NOT_TARGETED, null, false, deps.client.user)),
    call.ctx.now,
  );
  if (job.jid !== null && job.minions.length > 0) {
    await deps.tracker.track({
      jid: job.jid,
      minions: job.minions,
      fun: call.parsed.fun,
      funArgs: funArgs(call.parsed),
      user: call.ctx.principal.name,
    });
  }
  const published = job.minions.length;
  const body = job.jid === null ? {} : { jid: job.jid, minions: job.minions };
  return {
    task_id: jid,
    status: overallStatus(published, published + untargeted.length),
    return: { return: [body] },
  };
}

async function runBatch(deps: ExecuteDeps, call: Call): Promise<ExecutionResponse> {
  const { tgt, options: t } = target(call.request);
  const { parsed } = call;
  const kwarg = Object.keys(parsed.kwarg).length > 0 ? { kwarg: { ...parsed.kwarg } } : {};
  const elements = await deps.client.run({
    ...parsed.extra,
    client: 'local_batch',
    tgt,
    fun: parsed.fun,
    arg: [...parsed.arg],
    ...kwarg,
    ...t,
    raw: true,
  });
  const made = localJid(call.ctx.now, deps.masterTz);
  const answered = new Map(batchLines(elements).map((l) => [l.host, l] as const));
  const saltUser = deps.client.user;
  // Batch drops the minions that fail its initial ping (salt/netapi/__init__.py, salt/client/__init__.py), and a minion that timed out in
  // its batch has no return: both are shown as silent, and are no success.
  const lines = hostsOf(call.request, [...answered.keys()]).map((host): HostResult => {
    const line = answered.get(host);
    if (line === undefined || line.timedOut)
      return {
        host,
        output: NO_RESPONSE,
        ret: jobReturn(call, line?.jid ?? made, host, NO_RESPONSE, null, false, saltUser),
      };
    const ret = jobReturn(call, line.jid ?? made, host, line.ret, line.retcode, line.success, saltUser);
    return { host, output: line.ret, ret };
  });
  await recordReturns(
    deps.runtime,
    lines.map((l) => l.ret),
    call.ctx.now,
  );
  // The run's id: the jid of its first batch (every host's action carries its own batch's jid).
  const jids = [...answered.values()].flatMap((l) => (l.jid === null ? [] : [l.jid])).sort();
  return {
    task_id: jids[0] ?? made,
    status: overallStatus(lines.filter((l) => outcomeOf(l.ret) === true).length, lines.length),
    return: { return: lines.map((l) => ({ [l.host]: l.output })) },
  };
}

const RUNNERS = { local: runLocal, local_async: runAsync, local_batch: runBatch } as const;

/** Runs an execution request on the master and records its returns. */
export async function execute(
  deps: ExecuteDeps,
  request: ExecutionRequest,
  ctx: CallContext,
): Promise<ExecutionResponse> {
  const parsed = parseExecution(request.body, deps.allowedFuns, ctx.principal.name);
  return RUNNERS[parsed.client](deps, { parsed, request, ctx });
}
