/**
 * One fleet sync run: makes the stored hosts, nodegroups, actions,
 * failed patches and alerts follow the master. One run reads the master first (keys with
 * fingerprints, manage.status, nodegroups), then replaces the nodegroups (hosts refer to them),
 * walks the hosts in bounded batches writing only what changed, marks hosts the master forgot, and records
 * job returns the live events missed. A master failure stops the run where it is: nothing is
 * removed, marked down or emptied because of it (batches already written hold current data),
 * and one `master.unreachable` alert is raised per outage. Running it twice in a row writes
 * nothing the second time.
 */
import { stampNow, systemContext, type Log, type Runtime } from '@fleet/engine';
import { nodegroups as nodegroupsResource } from '@fleet/resources';
import type { SaltClient } from '../client';
import { parseNodegroup } from '../nodegroups';
import type { DeriveContext } from './derive';
import { markForgotten, readSnapshot, syncHosts } from './hosts';
import { newJobCursor, repairJobs, type JobCursor } from './jobs';
import type { SaltFunctionFailed } from '../client/errors';
import {
  isFunctionFailure,
  isMasterFailure,
  noteFunctionFailed,
  noteReachable,
  noteUnreachable,
} from './reachability';

/** What a sync needs. `toolKey` names the grain object holding last_stateapply / last_distupgrade. */
export interface SyncOptions {
  client: SaltClient;
  /** The engine's runtime: every read and write goes through its local API. */
  runtime: Runtime;
  log: Log;
  toolKey: string;
  now?: () => Date;
  /** Refresh an up host's unchanged `heartbeat` once it is this old (default 5 min). */
  heartbeatRefreshMs?: number;
  /** The master's IANA zone (SALT_MASTER_TZ, default UTC): 2018.3 jids are its local time. */
  masterTz?: string;
}

/** The outcome of one run. */
export interface SyncReport {
  hostsSeen: number;
  hostsChanged: number;
  hostsNew: number;
  nodegroups: number;
  actionsRecorded: number;
  failedPatches: number;
  alertsRaised: number;
  ms: number;
  masterReachable: boolean;
  /** Why the run stopped although the master answered (a runner or wheel function raised). */
  failed?: string;
}

const HEARTBEAT_REFRESH_MS = 5 * 60_000;

function emptyReport(ms: number, masterReachable: boolean): SyncReport {
  return {
    hostsSeen: 0,
    hostsChanged: 0,
    hostsNew: 0,
    nodegroups: 0,
    actionsRecorded: 0,
    failedPatches: 0,
    alertsRaised: 0,
    ms,
    masterReachable,
  };
}

/**
 * Upserts the master's nodegroups (`_id` = name; unchanged ones are not written) and deletes the
 * others (their ids are pulled from the hosts in the same batch: a declared relation).
 */
async function syncNodegroups(
  runtime: Runtime,
  groups: Readonly<Record<string, string>>,
  now: Date,
): Promise<void> {
  const ctx = systemContext(runtime, now);
  const api = runtime.resources.of(nodegroupsResource);
  const items = Object.entries(groups).map(([name, expression]) => ({
    _id: name,
    name,
    type: 1,
    info: parseNodegroup(expression),
  }));
  if (items.length > 0) await api.upsertMany(items, ctx);
  const removed = (await api.find({ projection: { _id: 1 } }, ctx))
    .map((d) => d._id)
    .filter((name) => !(name in groups));
  if (removed.length > 0) await api.deleteMany({ _id: { $in: removed } }, ctx);
}

/** Milliseconds spent per phase of a run (logged with the report). */
type Phases = Record<'snapshot' | 'hosts' | 'nodegroups' | 'jobs', number>;

async function fullRun(o: SyncOptions, cursor: JobCursor, now: Date, report: SyncReport): Promise<Phases> {
  let mark = Date.now();
  const lap = (): number => {
    const ms = Date.now() - mark;
    mark = Date.now();
    return ms;
  };
  const snap = await readSnapshot(o.client);
  const snapshot = lap();
  const ctx: DeriveContext = {
    now,
    toolKey: o.toolKey,
    nodegroups: snap.nodegroups,
    heartbeatRefreshMs: o.heartbeatRefreshMs ?? HEARTBEAT_REFRESH_MS,
  };
  await syncNodegroups(o.runtime, snap.nodegroups, now);
  const nodegroups = lap();
  const hosts = await syncHosts(snap, { client: o.client, runtime: o.runtime, ctx });
  const forgotten = await markForgotten(snap, { runtime: o.runtime, ctx });
  if (forgotten.ids.length > 0) {
    o.log.warn(
      { count: forgotten.ids.length, hosts: forgotten.ids.slice(0, 20) },
      'fleet sync: hosts the master no longer knows (kept, key denied, status down)',
    );
  }
  const hostsMs = lap();
  const jobs = await repairJobs(
    { client: o.client, runtime: o.runtime, now, masterTz: o.masterTz ?? 'UTC' },
    cursor,
  );
  Object.assign(report, {
    hostsSeen: hosts.seen,
    hostsChanged: hosts.changed + forgotten.changed,
    hostsNew: hosts.created,
    nodegroups: Object.keys(snap.nodegroups).length,
    actionsRecorded: jobs.actions,
    failedPatches: jobs.failedPatches,
    alertsRaised: hosts.alerts + forgotten.alerts,
  });
  return { snapshot, hosts: hostsMs, nodegroups, jobs: lap() };
}

/**
 * A run stopped by a master function that raised: nothing more is written this run (as for an
 * outage), but the master answered, so it is reachable (an outage on record ends) and the alert
 * is `master.function_failed`, naming the function.
 */
async function functionFailed(
  o: SyncOptions,
  err: SaltFunctionFailed,
  now: Date,
  started: number,
): Promise<SyncReport> {
  const raised = (await noteFunctionFailed(o.runtime, err, now)) ? 1 : 0;
  const back = (await noteReachable(o.runtime, now)) ? 1 : 0;
  o.log.error(
    { err: err.message, fun: err.fun },
    'fleet sync: a salt function failed on the master, stored fleet left as it was; retrying at the next run',
  );
  return { ...emptyReport(Date.now() - started, true), alertsRaised: raised + back, failed: err.message };
}

/** Creates a sync over one client and the engine's runtime; `runOnce` never overlaps itself within this object. */
export function createFleetSync(o: SyncOptions): { runOnce(): Promise<SyncReport> } {
  const cursor: JobCursor = newJobCursor();
  const clock = o.now ?? (() => new Date());
  const run = async (): Promise<SyncReport> => {
    const now = stampNow(clock().getTime());
    const started = Date.now();
    const report = emptyReport(0, true);
    let phases: Phases;
    try {
      phases = await fullRun(o, cursor, now, report);
    } catch (err) {
      if (isFunctionFailure(err)) return functionFailed(o, err, now, started);
      if (!isMasterFailure(err)) throw err;
      const raised = await noteUnreachable(o.runtime, err.message, now);
      o.log.error(
        { err: err.message, status: err.status },
        'fleet sync: salt master unreachable, stored fleet left as it was; retrying at the next run',
      );
      return { ...emptyReport(Date.now() - started, false), alertsRaised: raised ? 1 : 0 };
    }
    if (await noteReachable(o.runtime, now)) report.alertsRaised += 1;
    report.ms = Date.now() - started;
    o.log.info({ ...report, phasesMs: phases }, 'fleet sync done');
    return report;
  };
  let inFlight: Promise<SyncReport> | undefined;
  return {
    runOnce: () => {
      inFlight ??= run().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
  };
}
