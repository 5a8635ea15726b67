/**
 * The embedded store adapter: one SQLite file through better-sqlite3, MongoDB
 * semantics through mingo where a query cannot be pushed down to SQL.
 */
export {
  backupSqliteFile,
  checkSqliteCopy,
  removeStoreFiles,
  settleCopy,
  sqliteStoreFiles,
  UnusableCopy,
  type SqliteCopy,
} from './backup';
export { newObjectId } from '../../ids';
export { type StartupCheck } from './faults';
export { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from './store';
