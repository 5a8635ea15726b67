/** @fleet/server: configuration, boot and the command line of the Fleet API. */
export { startServer, type RunningServer, type StartOptions } from './boot';
export { ConfigError, loadConfig, type Config } from './config';
export { createLogger } from './logger';
export { takeSnapshot, type TakenSnapshot } from './snapshots';
