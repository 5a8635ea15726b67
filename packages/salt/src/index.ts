/**
 * @fleet/salt: everything that talks to the SaltStack master through salt-api — the typed client,
 * the fleet sync, the live events, the master service (execution, patches, monitoring) and the
 * task scheduler. Every record they make goes through the engine's local API.
 */
export * from './client';
export { SaltFunctionFailed } from './client/errors';
export { DEFAULT_EVENTS_IDLE_MS, startEventConsumer, type EventConsumerOptions } from './events';
export { EVENTS_LEASE, startEventReader, type EventReader, type EventReaderOptions } from './events/leased';
export { isTimeZone, jidAt, jidInstant, shiftJid } from './jid';
export {
  createMasterService,
  NO_RESPONSE,
  NOT_TARGETED,
  type MasterOptions,
  type RunningMaster,
  type SyncTrigger,
} from './master';
export {
  answerOf,
  OUTWARD_METADATA,
  probeCommand,
  probeKwarg,
  probeOutward,
  shellQuote,
  type ProbeDeps,
} from './master/outward';
export {
  executeTask,
  recordOutcome,
  startScheduler,
  claimDue,
  claimUpdate,
  scheduleOf,
  type RunningScheduler,
  type RunOutcome,
  type SchedulerOptions,
} from './scheduler';
export {
  createFleetSync,
  startSyncLoop,
  SYNC_LEASE,
  type StoredReport,
  type SyncLoop,
  type SyncOptions,
  type SyncReport,
} from './sync';
export { recordReturns, alert, raiseAlert, type JobReturn } from './record';
