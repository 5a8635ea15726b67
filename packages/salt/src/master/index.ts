/**
 * The master service: the implementation of the `MasterService` port that resources call
 * (resources/ports/master.ts) over the salt-api client — execution proxying, patch download,
 * host monitoring, the admin's "sync now" and the hosts' outward-address probe. The server registers it as the `master` service
 * when SALT_API_URL is set (packages/server/src/integrations.ts).
 */
import { ServiceUnavailable, type CallContext, type Log, type Runtime } from '@fleet/engine';
import type { MasterService, MonitoringAction } from '@fleet/resources';
import type { SaltClient } from '../client';
import { AsyncJobTracker } from './async-jobs';
import { execute } from './execute';
import { Monitor } from './monitoring';
import { probeOutward } from './outward';
import { downloadPatches } from './patches';

export { funAllowed, parseExecution } from './request';
export { NO_RESPONSE } from './async-jobs';
export { NOT_TARGETED } from './execute';

/** The fleet sync as the service needs it: run one pass now. */
export interface SyncTrigger {
  runNow(): Promise<unknown>;
}

export interface MasterOptions {
  readonly client: SaltClient;
  /** The engine's runtime: every record goes through its local API. */
  readonly runtime: Runtime;
  readonly log: Log;
  /** Between two `status.all_status` samples of a monitored host. Default 30 s. */
  readonly monitorIntervalMs?: number;
  /** Between two polls of a `local_async` job. Default 1 s. */
  readonly asyncPollMs?: number;
  /** How long a `local_async` job's returns are waited for. Default 5 min. */
  readonly asyncDeadlineMs?: number;
  /** The fleet sync loop, when it runs; `syncNow` answers 503 without it. */
  readonly sync?: SyncTrigger;
  /** The longest wait for an execution (SALT_API_TIMEOUT_S): how long a monitoring sample may take. */
  readonly execTimeoutMs?: number;
  /** The master's IANA zone (SALT_MASTER_TZ, default UTC), for the jids the service makes up. */
  readonly masterTz?: string;
  /** Hosts per outward-address probe call (default 200). */
  readonly probeBatch?: number;
  /** EXEC_ALLOWED_FUNS: the functions executions may run (undefined or empty: every one). */
  readonly allowedFuns?: readonly string[];
}

/** The service plus what the server needs to shut it down. */
export interface RunningMaster extends MasterService {
  /** Stops this instance's monitoring samples and async job follow-ups (others carry on with them). */
  stop(): Promise<void>;
}

function monitoringBody(
  monitor: Monitor,
): (hostId: string, action: MonitoringAction, ctx: CallContext) => Promise<Record<string, unknown>> {
  return async (hostId, action, ctx) => {
    if (action === 'stop_all') return { _status: 'OK', action, stopped: await monitor.stopAll() };
    if (action === 'stop')
      return {
        _status: 'OK',
        action,
        host: hostId,
        monitoring: false,
        was_monitoring: await monitor.stop(hostId),
      };
    // 404 for an unknown or soft-deleted host, as its item GET answers.
    await ctx.runtime.resources.get('hosts').get(hostId, ctx);
    const sample = await monitor.sample(hostId);
    if (action === 'once')
      return { _status: 'OK', host: hostId, answered: sample !== null, all_status: sample };
    await monitor.start(hostId, ctx.principal.name);
    return {
      _status: 'OK',
      action,
      host: hostId,
      monitoring: true,
      interval_s: monitor.intervalMs / 1000,
      answered: sample !== null,
    };
  };
}

/** Builds the master service over a salt-api client. */
export function createMasterService(o: MasterOptions): RunningMaster {
  const tracker = new AsyncJobTracker({
    client: o.client,
    runtime: o.runtime,
    log: o.log,
    pollMs: o.asyncPollMs ?? 1000,
    deadlineMs: o.asyncDeadlineMs ?? 300_000,
  });
  const monitor = new Monitor({
    client: o.client,
    runtime: o.runtime,
    log: o.log,
    intervalMs: o.monitorIntervalMs ?? 30_000,
    ...(o.execTimeoutMs === undefined ? {} : { sampleTimeoutMs: o.execTimeoutMs }),
  });
  // Probes in flight: stop() lets their current batch (and its writes) finish and starts no other.
  const probes = new Set<Promise<unknown>>();
  let stopping = false;
  return {
    execute: (request, ctx) =>
      execute(
        {
          client: o.client,
          runtime: o.runtime,
          tracker,
          masterTz: o.masterTz ?? 'UTC',
          ...(o.allowedFuns ? { allowedFuns: o.allowedFuns } : {}),
        },
        request,
        ctx,
      ),
    downloadPatches: (ctx) => downloadPatches({ client: o.client, runtime: o.runtime, log: o.log }, ctx.now),
    monitoring: monitoringBody(monitor),
    async syncNow() {
      if (o.sync === undefined) throw new ServiceUnavailable('The fleet sync is not running on this server');
      const report = await o.sync.runNow();
      return report !== null && typeof report === 'object' && !Array.isArray(report)
        ? { ...report }
        : { result: report };
    },
    outwardAddresses(request) {
      const probe = probeOutward(
        { client: o.client, stopping: () => stopping, ...(o.probeBatch ? { batch: o.probeBatch } : {}) },
        request,
      );
      probes.add(probe);
      void probe.catch(() => undefined).finally(() => probes.delete(probe));
      return probe;
    },
    async stop() {
      stopping = true;
      await Promise.all([monitor.close(), tracker.stop(), Promise.allSettled([...probes])]);
    },
  };
}
