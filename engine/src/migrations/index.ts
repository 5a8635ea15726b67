/** Migrations of the store's schema: their declaration, the schema record, the start's schema step. */
export { checkMigrations, defineMigration, type Migration, type MigrationContext } from './define';
export { readSchemaRecord, SCHEMA_COLLECTION, type AppliedMigration, type SchemaRecord } from './record';
export { checkSchema, migrateStore, MigrationFailed, SchemaTooNew, type SchemaOptions } from './run';
