/**
 * Jobs that are bookkeeping, not actions: the service's own grains collection (published with
 * `metadata: SYNC_METADATA`, which the master stores with the job and echoes in every return,
 * salt-api notes §2 `metadata`), the liveness pings `manage.status` / `manage.up` / `manage.down`
 * publish (`test.ping` to the glob `*`, no arguments) and Salt's own `saltutil.find_job`.
 * Recording those would add one action per host on every sync.
 */

/** Metadata the sync attaches to what it publishes itself. */
export const SYNC_METADATA: Readonly<Record<string, string>> = Object.freeze({ fleet: 'sync' });

/** The facts of a job that decide whether it is bookkeeping. */
export interface JobFacts {
  readonly fun: string;
  readonly tgt?: unknown;
  readonly tgtType?: unknown;
  readonly args?: readonly unknown[];
  readonly metadata?: unknown;
}

/** Whether a job (from the job cache or a `salt/job/<jid>/new` event) is bookkeeping. */
export function isBookkeeping(job: JobFacts): boolean {
  // Runner and wheel jobs run on the master: they have no minion returns to record.
  if (job.fun === 'saltutil.find_job' || job.fun.startsWith('runner.') || job.fun.startsWith('wheel.'))
    return true;
  const meta = job.metadata;
  if (meta !== null && typeof meta === 'object' && 'fleet' in meta && meta.fleet === SYNC_METADATA['fleet'])
    return true;
  const globAll = job.tgt === '*' && (job.tgtType === undefined || job.tgtType === 'glob');
  return job.fun === 'test.ping' && globAll && (job.args ?? []).length === 0;
}
