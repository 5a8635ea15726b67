/**
 * @fleet/salt: everything that talks to the SaltStack master through salt-api.
 * The typed HTTP client lives in `./client`.
 */
export * from './client';
