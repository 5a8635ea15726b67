/**
 * When reconciles run: every `intervalMs` across the deployment (0: never by itself) and on
 * demand from any instance, on the one instance holding the `vpn-reconcile` lease (@fleet/duties:
 * two instances repairing at once would both make a missing account), one run at a time (a run
 * asked meanwhile waits for the one in progress). The first run comes one interval after the last
 * one recorded, or one interval after the start on a new store: a restart or a takeover is no
 * reason to call every VPN server at once.
 */
import { DUTIES, PeriodicDuty, type DutyContext } from '@fleet/duties';
import { reconcileResponse, type ReconcileReport } from '@fleet/resources';

/** Name of the store lease that elects the reconciling instance. */
export const RECONCILE_LEASE = DUTIES.vpnReconcile.lease;

/** Starts the schedule of `run` (a whole reconcile, or one manager's). */
export function startReconcileLoop(
  duty: DutyContext,
  intervalMs: number,
  run: (manager?: string) => Promise<ReconcileReport>,
): PeriodicDuty<ReconcileReport> {
  return new PeriodicDuty<ReconcileReport>({
    ctx: duty,
    duty: { lease: RECONCILE_LEASE, what: 'the VPN reconcile' },
    intervalMs,
    first: 'after-interval',
    recorded: true,
    run: (manager) => run(manager ?? undefined),
    revive: (stored) => reconcileResponse.parse(stored),
  });
}
