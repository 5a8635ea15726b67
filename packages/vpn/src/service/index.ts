/**
 * The VPN service the resources call (`resources/ports/vpn.ts`, registered as the `vpn` service):
 * organizations and host accounts on the managers' VPN servers, profiles, and drift repair.
 * Every read and write of the store goes through the local API as the system principal.
 * docs/vpn.md lists the VPN server calls each API action makes.
 */
import type { DutyContext } from '@fleet/duties';
import type { Log, Runtime } from '@fleet/engine';
import type { VpnService } from '@fleet/resources';
import { moveAccount, profile, undoAccount } from './accounts';
import type { Deps } from './deps';
import { Leftovers } from './leftovers';
import { startReconcileLoop } from './loop';
import { createOrganization, deleteOrganization, undoOrganization } from './organizations';
import { ClientPool, type ClientSettings } from './pool';
import { reconcileAll } from './reconcile';

export type { ManagerReport } from './reconcile';
export { RECONCILE_LEASE } from './loop';

/** What `startVpnService` needs. */
export interface VpnServiceOptions {
  readonly runtime: Runtime;
  readonly log: Log;
  /** Timeouts, TLS and login budget of every manager's client. */
  readonly client?: ClientSettings;
  /** Between two periodic reconciles; 0: only on demand. */
  readonly reconcileIntervalMs: number;
  /** The process's duties: the reconcile runs on the instance holding its lease. */
  readonly duty: DutyContext;
}

/** The running service. */
export interface RunningVpn {
  readonly service: VpnService;
  /** Stops the reconciles and the later looks for leftovers, logs every client out. */
  stop(): Promise<void>;
}

/** How long after a create that may still be running the server is looked at again (its time limit, then four). */
function laterLooks(settings: ClientSettings | undefined): number[] {
  const create = settings?.timeouts?.createOrganization ?? 60_000;
  return [create, create * 4];
}

/** Starts the service (and its periodic reconcile, when `reconcileIntervalMs` > 0). */
export function startVpnService(o: VpnServiceOptions): RunningVpn {
  const pool = new ClientPool({ runtime: o.runtime, log: o.log, settings: o.client ?? {} });
  const leftovers = new Leftovers({ runtime: o.runtime, log: o.log, laterMs: laterLooks(o.client) });
  const d: Deps = { runtime: o.runtime, log: o.log, pool, leftovers };
  const loop = startReconcileLoop(o.duty, o.reconcileIntervalMs, (manager) => reconcileAll(d, manager));
  const service: VpnService = {
    createOrganization: (args) => createOrganization(d, args),
    deleteOrganization: (args) => deleteOrganization(d, args),
    undoOrganization: (args) => undoOrganization(d, args),
    moveAccount: (move) => moveAccount(d, move),
    deleteAccount: (place) => undoAccount(d, place),
    profile: (host, ctx) => profile(d, host, ctx),
    reconcile: (args) => loop.runNow(args.manager ?? null),
    managerChanged: async (id) => pool.retire(id),
  };
  return {
    service,
    async stop() {
      await loop.stop();
      await leftovers.close();
      await pool.close();
    },
  };
}
