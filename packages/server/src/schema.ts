/**
 * What every process that opens the store declares: this release and its migrations
 * (engine/src/migrations), which never run while a server holds the store.
 */
import { refuseWhileServed } from '@fleet/duties';
import type { SchemaOptions } from '@fleet/engine';
import { allMigrations } from '@fleet/resources';
import { VERSION } from './version';

/** The store's schema as this release knows it. */
export const STORE_SCHEMA: SchemaOptions = { release: VERSION, migrations: allMigrations, refuseWhileServed };
