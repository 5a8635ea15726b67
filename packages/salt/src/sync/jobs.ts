/**
 * The job-cache phase of a sync: what the live events may have missed. `jobs.list_jobs`
 * (GET /jobs) once, then `jobs.list_job` (GET /jobs/<jid>) for each job newer than the
 * watermark, oldest first and at most `MAX_JOBS_PER_RUN` per run; returns whose action is
 * not stored yet go through `recordReturns` (actions, failed patches, patch alerts). A job
 * still waiting for minions is looked at again on later runs until it is `GRACE_MS` old
 * (a down minion never returns). The watermark lives in memory: after a restart the first
 * runs walk the whole cache again, which writes nothing for returns already recorded.
 */
import type { Store } from '@fleet/engine';
import type { JobSummary, SaltClient } from '../client';
import { failedPatchFields, recordReturns, type JobReturn } from '../record';
import { isBookkeeping } from './noise';

/** Jobs fetched with list_job per run (each can be large). */
export const MAX_JOBS_PER_RUN = 100;
/** How long a job with missing returns keeps being re-read. */
export const GRACE_MS = 10 * 60_000;

/** State kept between runs. */
export interface JobCursor {
  watermark: string;
}

/** Counters of the job phase. */
export interface JobsOutcome {
  actions: number;
  failedPatches: number;
}

/** `%Y%m%d%H%M%S%f` (UTC) of a jid -> epoch ms; NaN when it is no jid (notes §4). */
export function jidTime(jid: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{3})/.exec(jid);
  if (!m) return Number.NaN;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), Number(m[7]));
}

function bookkeeping(j: JobSummary): boolean {
  return isBookkeeping({ fun: j.function, tgt: j.target, tgtType: j.targetType, args: j.arguments, metadata: j.metadata });
}

/** Records one job's missing returns; resolves whether it still waits for minions. */
async function repairJob(client: SaltClient, store: Store, jid: string, now: Date, out: JobsOutcome): Promise<boolean> {
  const job = await client.jobs(jid);
  if (job.error !== undefined) return false;
  const returns: JobReturn[] = Object.entries(job.result).map(([host, r]) => ({
    jid, host, fun: job.function, funArgs: job.arguments, ret: r.return, retcode: r.retcode, success: r.success, user: job.user,
  }));
  if (returns.length > 0) {
    const known = await store.find('actions', { _id: { $in: returns.map((r) => `${jid}${r.host}`) } }, { projection: { return: 0, args: 0 } });
    const seen = new Set(known.map((d) => d._id));
    const missing = returns.filter((r) => !seen.has(`${jid}${r.host}`));
    const created = new Set(await recordReturns(store, missing, now));
    out.actions += created.size;
    out.failedPatches += missing.filter((r) => created.has(`${jid}${r.host}`) && failedPatchFields(r) !== null).length;
  }
  return job.pending.length > 0 && now.getTime() - jidTime(jid) < GRACE_MS;
}

/** Walks the job cache past the cursor, recording what is missing, and moves the cursor. */
export async function repairJobs(client: SaltClient, store: Store, cursor: JobCursor, now: Date): Promise<JobsOutcome> {
  const all = Object.values(await client.jobs())
    .filter((j) => j.jid.slice(0, 20) > cursor.watermark)
    .sort((a, b) => (a.jid < b.jid ? -1 : a.jid > b.jid ? 1 : 0));
  const out: JobsOutcome = { actions: 0, failedPatches: 0 };
  let fetched = 0;
  let frozen = false;
  let watermark = cursor.watermark;
  for (const j of all) {
    if (bookkeeping(j)) {
      if (!frozen) watermark = j.jid.slice(0, 20);
      continue;
    }
    if (fetched >= MAX_JOBS_PER_RUN) break;
    fetched += 1;
    const waiting = await repairJob(client, store, j.jid, now, out);
    if (waiting) frozen = true;
    else if (!frozen) watermark = j.jid.slice(0, 20);
  }
  cursor.watermark = watermark;
  return out;
}
