/**
 * request_ips: every host asks the resolver for its outward address through
 * the master; the address becomes the host's `ip`, and `nat` is true when it is not one of the
 * host's own addresses (its `ip_interfaces`, `ipv4` and `ipv6` grains). Hosts are written batch by
 * batch as the answers come, so a long run's progress is durable; at the end every new outward
 * address of NAT'd hosts becomes a gateway group (type 3), not linked (./build.ts).
 *
 * The run is a job (./graph_jobs.ts) driven in the background by the instance that started it,
 * under the `graph` lease (one graph action at a time across instances); a host that fails is
 * counted and its reason kept, a master failure ends the job as failed.
 */
import { stampNow, systemContext, type CallContext, type Log, type Runtime } from '@fleet/engine';
import { hosts } from '../hosts';
import type { MasterService, OutwardAnswer } from '../ports/master';
import { reconcileGateways } from './build';
import { graph_jobs } from './graph_jobs';

/** The lease every graph action holds while it writes groups. */
export const GRAPH_LEASE = 'graph';
/** How long the lease lasts without a renewal (each batch renews it); a silent job past it is abandoned. */
export const GRAPH_LEASE_MS = 5 * 60_000;
/** Failed hosts whose reason a job keeps. */
const MAX_FAILURES = 100;

/** What a run needs to know before it starts. */
export interface ProbePlan {
  readonly total: number;
  /** Accepted, up hosts, sorted. */
  readonly targets: readonly string[];
  /** Every address of each targeted host, lowercased. */
  readonly own: ReadonlyMap<string, ReadonlySet<string>>;
}

function addressesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(addressesOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(addressesOf);
  return [];
}

/** The hosts to probe (accepted key, up; hidden hosts left out) and their own addresses. */
export async function probePlan(ctx: CallContext): Promise<ProbePlan> {
  const projection = {
    key: 1,
    status: 1,
    'grain.ip_interfaces': 1,
    'grain.ipv4': 1,
    'grain.ipv6': 1,
  } as const;
  const all = await ctx.runtime.resources.of(hosts).find({ projection, sort: [['_id', 1]] }, ctx);
  const targets = all.filter((h) => h.key === 'accepted' && h.status === 'up');
  const own = new Map(
    targets.map((h) => {
      const g: Readonly<Record<string, unknown>> = h.grain ?? {};
      return [
        h._id,
        new Set(addressesOf([g['ip_interfaces'], g['ipv4'], g['ipv6']]).map((a) => a.toLowerCase())),
      ] as const;
    }),
  );
  return { total: all.length, targets: targets.map((h) => h._id), own };
}

/** Running totals of a job. */
interface Tally {
  probed: number;
  resolved: number;
  failed: number;
  nat: number;
  direct: number;
  failures: Array<{ host: string; reason: string }>;
}

/** Writes one batch's addresses and counts it. */
async function recordBatch(
  runtime: Runtime,
  plan: ProbePlan,
  tally: Tally,
  answers: readonly OutwardAnswer[],
): Promise<void> {
  const writes: Array<{ _id: string; ip: string; nat: boolean }> = [];
  for (const a of answers) {
    tally.probed += 1;
    if ('error' in a) {
      tally.failed += 1;
      if (tally.failures.length < MAX_FAILURES) tally.failures.push({ host: a.host, reason: a.error });
      continue;
    }
    const nat = !(plan.own.get(a.host)?.has(a.address) ?? false);
    tally.resolved += 1;
    tally[nat ? 'nat' : 'direct'] += 1;
    writes.push({ _id: a.host, ip: a.address, nat });
  }
  const sys = systemContext(runtime, stampNow());
  // Only planned hosts are answered, and hosts are never removed (DELETE hides them), so this
  // patches existing hosts; hidden ones are written too, as the sync keeps them current.
  if (writes.length > 0) await runtime.resources.of(hosts).upsertMany(writes, sys);
}

/** What the background run needs. */
export interface RunArgs {
  readonly runtime: Runtime;
  readonly log: Log;
  readonly service: MasterService;
  readonly jobId: string;
  /** The URL as sent (normalised). */
  readonly resolver: string;
  readonly plan: ProbePlan;
}

/** Drives a job to its end; never rejects (a failure is the job's state). Releases the lease. */
export async function runJob(a: RunArgs): Promise<void> {
  const jobs = a.runtime.resources.of(graph_jobs);
  const tally: Tally = { probed: 0, resolved: 0, failed: 0, nat: 0, direct: 0, failures: [] };
  const progress = async (extra: Record<string, unknown> = {}): Promise<void> => {
    await jobs.patch(
      a.jobId,
      { ...tally, failures: [...tally.failures], ...extra },
      systemContext(a.runtime, stampNow()),
    );
  };
  try {
    await a.service.outwardAddresses(
      {
        hosts: a.plan.targets,
        resolver: a.resolver,
        onBatch: async (answers) => {
          await recordBatch(a.runtime, a.plan, tally, answers);
          await progress();
          await a.runtime.leases.renew(GRAPH_LEASE, a.jobId, GRAPH_LEASE_MS);
        },
      },
      systemContext(a.runtime, stampNow()),
    );
    const gateways = await reconcileGateways(systemContext(a.runtime, stampNow()), { prune: false });
    await progress({ state: 'done', gateways_created: [...gateways.created], finished: stampNow() });
  } catch (err) {
    const known = err instanceof Error && 'status' in err;
    a.log.warn(
      { job: a.jobId, err: err instanceof Error ? err.message : String(err) },
      'request_ips job failed',
    );
    await progress({
      state: 'failed',
      error: known ? err.message : 'internal error (see the server log)',
      finished: stampNow(),
    }).catch((e: unknown) => {
      a.log.error(
        { job: a.jobId, err: e instanceof Error ? e.message : String(e) },
        'request_ips job state not written',
      );
    });
  } finally {
    await a.runtime.leases.release(GRAPH_LEASE, a.jobId).catch(() => false);
  }
}
