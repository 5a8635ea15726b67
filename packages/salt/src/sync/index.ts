/**
 * The fleet sync: `createFleetSync` (one run on demand) and `startSyncLoop` (once every
 * interval across the deployment, on the instance holding the `fleet-sync` lease). See run.ts and
 * loop.ts.
 */
export { createFleetSync, type SyncOptions, type SyncReport } from './run';
export { startSyncLoop, SYNC_LEASE, type StoredReport, type SyncLoop } from './loop';
