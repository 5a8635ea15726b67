/**
 * The sync's schedule: one run every `intervalMs` across the deployment, on the instance holding
 * the `fleet-sync` lease (@fleet/duties), one run at a time. A new holder continues the recorded
 * cadence (its first run one interval after the last one, or at once on a new store). `runNow`
 * (the admin endpoint, the repair after an event stream reconnect or takeover) runs after the run
 * in progress, here or, on an instance without the lease, on the holder through the store.
 */
import { DUTIES, PeriodicDuty, type DutyContext } from '@fleet/duties';
import { createFleetSync, type SyncOptions, type SyncReport } from './run';

/** Name of the store lease that elects the syncing instance. */
export const SYNC_LEASE = DUTIES.sync.lease;

/** A sync report as the store and the API carry it. */
export type StoredReport = Readonly<Record<string, unknown>>;

/** The running schedule. */
export interface SyncLoop {
  /** Runs a sync now, after the one in progress (on the holder when this instance is not it). */
  runNow(): Promise<StoredReport>;
  /** Whether this instance holds the lease now. */
  readonly held: boolean;
  stop(): Promise<void>;
}

type LoopOptions = Omit<SyncOptions, 'runtime' | 'log'> & {
  readonly intervalMs: number;
  readonly duty: DutyContext;
  /** Told of every run this instance made (metrics), with its report. Must not throw. */
  readonly onRun?: (report: SyncReport) => void;
};

/** Starts the schedule; `duty.holder` must be unique per process. */
export function startSyncLoop(o: LoopOptions): SyncLoop {
  const sync = createFleetSync({ ...o, runtime: o.duty.runtime, log: o.duty.log });
  const duty = new PeriodicDuty<StoredReport>({
    ctx: o.duty,
    duty: { lease: SYNC_LEASE, what: 'the fleet sync' },
    intervalMs: o.intervalMs,
    first: 'now',
    recorded: true,
    run: async () => {
      const report = await sync.runOnce();
      o.onRun?.(report);
      return { ...report };
    },
    revive: (stored) => stored,
    failureOf: (report) =>
      report.masterReachable === false
        ? 'the master did not answer'
        : typeof report.failed === 'string'
          ? report.failed
          : undefined,
  });
  return {
    runNow: () => duty.runNow(),
    get held() {
      return duty.held;
    },
    stop: () => duty.stop(),
  };
}
