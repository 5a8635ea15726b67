/**
 * Jobs that are bookkeeping, not actions: the service's own grains collection (published with
 * `metadata: SYNC_METADATA`, which the master stores with the job and echoes in every return,
 * salt/netapi/__init__.py, salt/client/__init__.py `metadata`), the liveness pings `manage.status` / `manage.up` / `manage.down`
 * publish (`test.ping` to the glob `*`, no arguments), Salt's own `saltutil.find_job`, and the
 * ping a `local_batch` call publishes before its batches (`isBatchPing`). Recording those would
 * add one action per host on every sync, or per batch run.
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
  /** The account that published it (`user` of the `new` event, the job cache's `User`). */
  readonly user?: unknown;
}

function hasMetadata(metadata: unknown): boolean {
  return metadata !== null && typeof metadata === 'object' && Object.keys(metadata).length > 0;
}

/**
 * The ping of a `local_batch` call: `Batch.__gather_minions` (salt/cli/batch.py, 2018.3 to 3006)
 * publishes `test.ping` without arguments to the whole target, as the caller (the service's
 * salt-api user, `serviceUser`), before any batch. `LocalClient.cmd_batch` passes no `metadata`
 * on, while every other `test.ping` the service publishes carries it (`fleet_user` or
 * SYNC_METADATA): a metadata-less `test.ping` from the service's own user is that ping. (The
 * batches of a batch `test.ping` look the same; the request that ran them records them.)
 */
export function isBatchPing(job: JobFacts, serviceUser: string): boolean {
  return (
    serviceUser !== '' &&
    job.user === serviceUser &&
    job.fun === 'test.ping' &&
    (job.args ?? []).length === 0 &&
    !hasMetadata(job.metadata)
  );
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
