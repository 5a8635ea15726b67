/**
 * @fleet/duties: the work done once per deployment of several instances on one store. A lease
 * held while the process lives (keeper.ts), a periodic duty on its holder with runs asked from
 * any instance (periodic.ts, requests.ts), whether a server holds the store (presence.ts), the claim of a due item among instances (claim.ts),
 * and the table of the leases and their times (table.ts).
 */
export { claimDue, type ClaimSpec } from './claim';
export { ClaimLoop, type ClaimLoopOptions } from './claim-loop';
export { LeaseKeeper, type KeeperOptions } from './keeper';
export { dutyRecord, noteDuty, type DutyRecord } from './ledger';
export { PeriodicDuty, type PeriodicOptions } from './periodic';
export { refuseWhileServed, SERVER_LEASES, storeHolder, StoreInUse } from './presence';
export { askHolder, RequestDesk, type Relayed } from './requests';
export {
  DEFAULT_LEASE_TTL_MS,
  DUTIES,
  holderName,
  leaseTimes,
  type DutyContext,
  type DutyEntry,
  type LeaseTimes,
} from './table';
