/**
 * The graph's write actions as the routes call them: `request_ips` starts a job (the route waits
 * for it a bounded time, ./answer.ts; past that the caller polls GET /api/graph/jobs/{id}, so no
 * request waits past a proxy's timeout however big the fleet), `build_graph` runs to its end. Both hold the `graph` lease, so
 * one graph action writes groups at a time across every instance (409 otherwise).
 */
import { randomBytes } from 'node:crypto';
import {
  Conflict,
  formatHttpDate,
  systemContext,
  Unprocessable,
  type CallContext,
  type ItemOfFields,
} from '@fleet/engine';
import type { z } from 'zod';
import { master } from '../ports/master';
import { settings } from '../settings';
import { buildGraph, type BuiltGraph } from './build';
import { graph_jobs } from './graph_jobs';
import { normalizedResolver, resolverIssue, shownResolver } from './resolver';
import { GRAPH_LEASE, GRAPH_LEASE_MS, probePlan, runJob } from './request-ips';
import type { jobResponse } from './schemas';

type Job = ItemOfFields<typeof graph_jobs.fields>;
export type JobBody = z.infer<typeof jobResponse>;

/** Jobs kept; older ones are deleted when a new one starts. */
const KEEP_JOBS = 20;

/** The resolver of a run: the body's, else the settings' (422 naming `ip_resolver` when unusable). */
async function resolverFor(ctx: CallContext, given: string | undefined): Promise<string> {
  if (given !== undefined) {
    const why = resolverIssue(given);
    if (why) throw new Unprocessable('graph: bad ip_resolver', { ip_resolver: why });
    return normalizedResolver(given);
  }
  const stored =
    (await ctx.runtime.resources.of(settings).get('0', systemContext(ctx.runtime, ctx.now))).addresses
      .resolver_address ?? '';
  if (stored === '')
    throw new Unprocessable('graph: no resolver', {
      ip_resolver: 'required field (settings.addresses.resolver_address is empty)',
    });
  const why = resolverIssue(stored);
  if (why)
    throw new Unprocessable('graph: bad resolver in the settings', {
      ip_resolver: `settings.addresses.resolver_address ${why}`,
    });
  return normalizedResolver(stored);
}

/** Takes the graph lease for `holder`, or 409 naming the running job. */
async function takeLease(ctx: CallContext, holder: string): Promise<void> {
  if (await ctx.runtime.leases.acquire(GRAPH_LEASE, holder, GRAPH_LEASE_MS)) return;
  const [running] = await ctx.runtime.resources
    .of(graph_jobs)
    .find({ where: { state: 'running' }, limit: 1 }, systemContext(ctx.runtime, ctx.now));
  const which = running ? `: request_ips job ${running._id} (GET /api/graph/jobs/${running._id})` : '';
  throw new Conflict(`graph: another graph action is running${which}; try again when it is done`);
}

/** Deletes the jobs past the newest KEEP_JOBS - 1 (the new one makes KEEP_JOBS). */
async function pruneJobs(ctx: CallContext): Promise<void> {
  const jobs = ctx.runtime.resources.of(graph_jobs);
  const old = await jobs.find({ projection: { _id: 1 }, skip: KEEP_JOBS - 1 }, ctx);
  if (old.length > 0) await jobs.deleteMany({ _id: { $in: old.map((j) => j._id) } }, ctx);
}

/** A started request_ips job: as stored at its start, and its run on this instance (never rejects). */
export interface StartedJob {
  readonly job: JobBody;
  readonly run: Promise<void>;
}

/** Starts a request_ips job. */
export async function startRequestIps(ctx: CallContext, given: string | undefined): Promise<StartedJob> {
  const resolver = await resolverFor(ctx, given);
  const service = master(ctx);
  const sys = systemContext(ctx.runtime, ctx.now);
  const jobId = randomBytes(12).toString('hex');
  await takeLease(ctx, jobId);
  try {
    await pruneJobs(sys);
    const plan = await probePlan(sys);
    const skipped = plan.total - plan.targets.length;
    const job = await ctx.runtime.resources.of(graph_jobs).create(
      {
        _id: jobId,
        action: 'request_ips',
        state: 'running',
        resolver: shownResolver(resolver),
        total: plan.total,
        targeted: plan.targets.length,
        skipped,
      },
      sys,
    );
    const run = runJob({ runtime: ctx.runtime, log: ctx.runtime.log, service, jobId, resolver, plan });
    return { job: jobBody(job, ctx.now), run };
  } catch (err) {
    await ctx.runtime.leases.release(GRAPH_LEASE, jobId).catch(() => false);
    throw err;
  }
}

/** build_graph under the lease. */
export async function startBuild(ctx: CallContext, masterName: string): Promise<BuiltGraph> {
  const holder = randomBytes(12).toString('hex');
  await takeLease(ctx, holder);
  try {
    return await buildGraph(ctx, masterName);
  } finally {
    await ctx.runtime.leases.release(GRAPH_LEASE, holder).catch(() => false);
  }
}

/** A job as the API shows it; a running job without progress for the lease's time was abandoned. */
export function jobBody(job: Job, now: Date): JobBody {
  const abandoned = job.state === 'running' && now.getTime() - job._updated.getTime() > GRAPH_LEASE_MS;
  return {
    _id: job._id,
    action: 'request_ips',
    state: abandoned ? 'failed' : job.state,
    resolver: job.resolver,
    total: job.total,
    targeted: job.targeted,
    skipped: job.skipped,
    probed: job.probed,
    resolved: job.resolved,
    failed: job.failed,
    nat: job.nat,
    direct: job.direct,
    gateways_created: [...job.gateways_created],
    failures: job.failures.map((f) => ({ host: f.host ?? '', reason: f.reason ?? '' })),
    error: abandoned
      ? `abandoned: no progress for ${GRAPH_LEASE_MS / 60_000} minutes (the instance running it stopped)`
      : job.error,
    started: formatHttpDate(job._created),
    updated: formatHttpDate(job._updated),
    finished: job.finished ? formatHttpDate(job.finished) : null,
    _links: { self: { title: 'graph job', href: `graph/jobs/${job._id}` } },
  };
}

/** GET /graph/jobs/{id}: 404 for an unknown (or pruned) job. */
export async function readJob(ctx: CallContext, id: string): Promise<JobBody> {
  return jobBody(
    await ctx.runtime.resources.of(graph_jobs).get(id, systemContext(ctx.runtime, ctx.now)),
    ctx.now,
  );
}
