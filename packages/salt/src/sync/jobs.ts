/**
 * The job-cache phase of a sync: what the live events may have missed. `jobs.list_jobs`
 * (GET /jobs) once, then `jobs.list_job` (GET /jobs/<jid>) for each job not handled yet,
 * oldest first and at most `MAX_JOBS_PER_RUN` per run; returns whose action is not stored yet
 * go through `recordReturns` (actions, failed patches, patch alerts). A job still waiting for
 * minions is looked at again on later runs until it is `GRACE_MS` old (a down minion never
 * returns).
 *
 * The cursor is a watermark with an overlap window. 2018.3 masters write jids in their local
 * time (`gen_jid`: `datetime.now()`, see ../jid.ts), so when daylight saving time ends the jids
 * of new jobs are lower than those of the hour before: a plain "jid > watermark" would skip them.
 * Every job whose jid is above the watermark minus `JID_OVERLAP_MS` (wall-clock digits) is a
 * candidate; those already handled are remembered in `done` (pruned below the window) and not
 * fetched again. The cursor lives in memory: after a restart the first runs walk the whole cache
 * again, which writes nothing for returns already recorded.
 */
import { systemContext, type Runtime } from '@fleet/engine';
import { actions } from '@fleet/resources';
import type { JobSummary, SaltClient } from '../client';
import { jidInstant, shiftJid } from '../jid';
import { failedPatchFields, fleetUserOf, recordReturns, type JobReturn } from '../record';
import { isBatchPing, isBookkeeping } from './noise';

/** Jobs fetched with list_job per run (each can be large). */
export const MAX_JOBS_PER_RUN = 100;
/** How long a job with missing returns keeps being re-read. */
export const GRACE_MS = 10 * 60_000;
/**
 * How far below the watermark jids are still looked at: the largest step back of a wall clock
 * at the end of DST (1 h nearly everywhere, 2 h at Antarctica/Troll) with an hour of margin.
 */
export const JID_OVERLAP_MS = 3 * 3_600_000;

/** State kept between runs. */
export interface JobCursor {
  /** The highest jid (20 digits) below which every job was handled. */
  watermark: string;
  /** Jids within the overlap window that were handled (not fetched again). */
  done: Set<string>;
}

/** A fresh cursor. */
export function newJobCursor(): JobCursor {
  return { watermark: '', done: new Set() };
}

/** Counters of the job phase. */
export interface JobsOutcome {
  actions: number;
  failedPatches: number;
}

function bookkeeping(j: JobSummary, serviceUser: string): boolean {
  const facts = {
    fun: j.function,
    tgt: j.target,
    tgtType: j.targetType,
    args: j.arguments,
    metadata: j.metadata,
    user: j.user,
  };
  return isBookkeeping(facts) || isBatchPing(facts, serviceUser);
}

/** What a job-cache pass needs. */
export interface RepairContext {
  readonly client: SaltClient;
  readonly runtime: Runtime;
  readonly now: Date;
  /** The master's zone (SALT_MASTER_TZ): jids are wall-clock digits in it. */
  readonly masterTz: string;
}

/** Records one job's missing returns; resolves whether it still waits for minions. */
async function repairJob(rc: RepairContext, jid: string, out: JobsOutcome): Promise<boolean> {
  const { client, runtime, now } = rc;
  const job = await client.jobs(jid);
  if (job.error !== undefined) return false;
  const returns: JobReturn[] = Object.entries(job.result).map(([host, r]) => ({
    jid,
    host,
    fun: job.function,
    funArgs: job.arguments,
    ret: r.return,
    retcode: r.retcode,
    success: r.success,
    // The job cache's `User` is the account that published it (the salt-api user for the
    // service's calls); the fleet user is the one the service put in `metadata`.
    user: fleetUserOf(job.metadata),
    saltUser: job.user,
  }));
  if (returns.length > 0) {
    const where = { _id: { $in: returns.map((r) => `${jid}${r.host}`) } };
    const known = await runtime.resources
      .of(actions)
      .find({ where, projection: { _id: 1, salt_user: 1 } }, systemContext(runtime, now));
    // Recorded already, with the publishing account when a path knew it (the events never do:
    // only the job cache names it, so those are completed here once).
    const seen = new Set(known.filter((d) => d.salt_user !== null || job.user === '').map((d) => d._id));
    const missing = returns.filter((r) => !seen.has(`${jid}${r.host}`));
    const created = new Set(await recordReturns(runtime, missing, now));
    out.actions += created.size;
    out.failedPatches += missing.filter(
      (r) => created.has(`${jid}${r.host}`) && failedPatchFields(r) !== null,
    ).length;
  }
  return job.pending.length > 0 && now.getTime() - jidInstant(jid, rc.masterTz) < GRACE_MS;
}

/** The jobs to look at: above the watermark minus the overlap, not handled yet, oldest first. */
function candidates(all: readonly JobSummary[], cursor: JobCursor): JobSummary[] {
  const floor = cursor.watermark === '' ? '' : shiftJid(cursor.watermark, -JID_OVERLAP_MS);
  for (const jid of cursor.done) if (jid <= floor) cursor.done.delete(jid);
  return all
    .filter((j) => j.jid.slice(0, 20) > floor && !cursor.done.has(j.jid))
    .sort((a, b) => (a.jid < b.jid ? -1 : a.jid > b.jid ? 1 : 0));
}

/** Walks the job cache past the cursor, recording what is missing, and moves the cursor. */
export async function repairJobs(rc: RepairContext, cursor: JobCursor): Promise<JobsOutcome> {
  const out: JobsOutcome = { actions: 0, failedPatches: 0 };
  let fetched = 0;
  let frozen = false;
  for (const j of candidates(Object.values(await rc.client.jobs()), cursor)) {
    if (!bookkeeping(j, rc.client.user)) {
      if (fetched >= MAX_JOBS_PER_RUN) break;
      fetched += 1;
      // A job still waiting is read again next run: the watermark stops below it.
      if (await repairJob(rc, j.jid, out)) {
        frozen = true;
        continue;
      }
    }
    cursor.done.add(j.jid);
    const jid = j.jid.slice(0, 20);
    if (!frozen && jid > cursor.watermark) cursor.watermark = jid;
  }
  return out;
}
