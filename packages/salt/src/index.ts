/**
 * @fleet/salt: everything that talks to the SaltStack master through salt-api — the typed HTTP
 * client (`./client`), the fleet sync, the live event consumer, the master service (execution
 * proxying, patches, monitoring), the task scheduler, and Salt's job ids in the master's zone.
 */
export * from './client';
export { safeUrl } from './client/errors';
export { createFleetSync, startSyncLoop, SYNC_LEASE, type SyncOptions, type SyncReport } from './sync';
export { DEFAULT_EVENTS_IDLE_MS, startEventConsumer, type EventConsumerOptions } from './events';
export { createMasterService, NO_RESPONSE, NOT_TARGETED, type MasterOptions, type RunningMaster } from './master';
export { startScheduler, type RunningScheduler, type SchedulerOptions } from './scheduler';
export { isTimeZone, jidAt, jidInstant, shiftJid } from './jid';
