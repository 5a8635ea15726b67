/**
 * The leases of the deployment in one table: each duty done once across every instance on one
 * store, the lease that elects the instance doing it, and its times. Every lease lives
 * `LEASE_TTL_S` (default 15 s) from its last renewal; its holder renews it every third of that,
 * and every other instance asks for it as often. So when the holder dies, another instance holds
 * the duty within TTL + TTL/3 (20 s by default); a holder that stops cleanly releases its leases
 * and the next instance takes them within TTL/3.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Log, Runtime } from '@fleet/engine';

/** A duty and the store lease that elects the one instance doing it. */
export interface DutyEntry {
  /** The lease's name in the store (and the duty's `_id` in the `duties` resource). */
  readonly lease: string;
  /** What the holder does. */
  readonly duty: string;
  /** How often it runs on the holder. */
  readonly cadence: string;
}

/** Every once-per-deployment duty. */
export const DUTIES = {
  sync: {
    lease: 'fleet-sync',
    duty: 'the fleet sync: hosts, keys, nodegroups and the job cache from the master',
    cadence: 'every SYNC_INTERVAL_S across the deployment, and on demand from any instance',
  },
  events: {
    lease: 'salt-events',
    duty: "the salt-api event stream's one reader (returns, keys, minion starts); a repair sync after a takeover",
    cadence: 'continuously while held',
  },
  scheduler: {
    lease: 'task-scheduler',
    duty: 'claims and runs the due scheduled tasks',
    cadence: 'every second',
  },
  snapshots: {
    lease: 'snapshots',
    duty: 'the host-list snapshot and its retention',
    cadence: 'every SNAPSHOT_INTERVAL_S',
  },
  vpnReconcile: {
    lease: 'vpn-reconcile',
    duty: 'the VPN reconcile: repairs drift between the store and the VPN servers',
    cadence: 'every VPN_RECONCILE_INTERVAL_S, and on demand from any instance',
  },
} as const satisfies Readonly<Record<string, DutyEntry>>;

/** The lease time when LEASE_TTL_S is not set. */
export const DEFAULT_LEASE_TTL_MS = 15_000;

/** A lease's times. */
export interface LeaseTimes {
  /** How long the lease lives after its last renewal. */
  readonly ttlMs: number;
  /** Between two renewals by the holder, and two requests by the others. */
  readonly renewMs: number;
}

/** The times of every lease for a lease time of `ttlMs`. */
export function leaseTimes(ttlMs: number = DEFAULT_LEASE_TTL_MS): LeaseTimes {
  return { ttlMs, renewMs: Math.max(100, Math.floor(ttlMs / 3)) };
}

/** What every duty of one process shares: its runtime, its holder name and the lease times. */
export interface DutyContext {
  readonly runtime: Runtime;
  readonly log: Log;
  /** Unique per process: `host:pid:random`. */
  readonly holder: string;
  readonly times: LeaseTimes;
}

/** A holder name unique to this process: `host:pid:random` (the random part tells restarts apart). */
export function holderName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}
