/**
 * `fleet restore <file>`: puts a backup in the place of the embedded store. The copy is staged
 * beside the store and checked there first (integrity, a Fleet API store); then, if no server
 * holds the store, the store's files (main file, WAL, shared memory) move aside into
 * `<data dir>/replaced-<time>/` and the staged copy takes their place. A copy written by a newer
 * release is refused; one written by an older release is brought up to date by the next start.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { checkMigrations, readSchemaRecord, type SchemaRecord } from '@fleet/engine';
import {
  checkSqliteCopy,
  openSqliteStore,
  removeStoreFiles,
  settleCopy,
  sqliteStoreFiles,
  UnusableCopy,
  type SqliteStore,
} from '@fleet/engine/sqlite';
import { ConfigError } from '../config';
import { refuseUnderServer } from '../store';
import { STORE_SCHEMA } from '../schema';
import type { CommandOutput } from '../cli/output';
import { RESTORE_USAGE } from '../cli/usage';
import { embeddedStore, fileArgument, humanSize } from './files';

/**
 * Refuses, in one line, while a server holds the store at `path`. A store that does not exist has
 * no server, nor one that does not open as a database (a damaged store is what a restore is for).
 */
async function refuseUnderServerAt(path: string): Promise<void> {
  if (!existsSync(path)) return;
  let store: SqliteStore;
  try {
    store = openSqliteStore({ path, check: 'none', readOffload: { workers: 0 } });
  } catch {
    return;
  }
  try {
    await refuseUnderServer(store, 'fleet restore');
  } finally {
    await store.close();
  }
}

/** Moves the store's files into a new folder beside it; resolves the folder (undefined: nothing to move). */
function keepAside(path: string, dataDir: string): string | undefined {
  const files = sqliteStoreFiles(path);
  if (files.length === 0) return undefined;
  const aside = join(dataDir, `replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(aside);
  for (const file of files) renameSync(file, join(aside, basename(file)));
  return aside;
}

/**
 * The copy's schema against this release's: a copy written by a newer release is refused (this
 * one cannot read it); an older one is brought up to date by the next start. Resolves the note.
 */
async function copySchema(staged: string, source: string): Promise<string> {
  const latest = checkMigrations(STORE_SCHEMA.migrations);
  const copy = openSqliteStore({ path: staged, check: 'none', readOffload: { workers: 0 } });
  let record: SchemaRecord | undefined;
  try {
    record = await readSchemaRecord(copy);
  } finally {
    await copy.close();
  }
  if (record === undefined)
    return `no schema record: the next start records it at schema ${latest} or migrates it`;
  if (record.version > latest)
    throw new ConfigError(
      `fleet restore: ${source} is at schema ${record.version} (written by Fleet API ${record.release}), newer ` +
        `than Fleet API ${STORE_SCHEMA.release} knows (schema ${latest}): restore it with ${record.release} or later`,
    );
  return record.version === latest
    ? `schema ${latest}`
    : `schema ${record.version}: the next start migrates it to ${latest}`;
}

/** Runs `fleet restore <file>`. */
export async function restoreCommand(argv: readonly string[]): Promise<CommandOutput> {
  const source = fileArgument('restore', argv, RESTORE_USAGE);
  const store = embeddedStore('restore');
  if (!existsSync(source)) throw new ConfigError(`fleet restore: ${source} does not exist`);
  mkdirSync(store.dataDir, { recursive: true });
  const staged = `${store.path}.restoring-${process.pid}`;
  try {
    copyFileSync(source, staged);
    checkSqliteCopy(staged, source);
    const schema = await copySchema(staged, source);
    settleCopy(staged);
    await refuseUnderServerAt(store.path);
    const aside = keepAside(store.path, store.dataDir);
    renameSync(staged, store.path);
    const size = humanSize(statSync(store.path).size);
    const kept = aside === undefined ? 'there was no store to replace' : `the replaced store is in ${aside}`;
    return { stdout: `Restored ${source} into ${store.path} (${size}, integrity ok, ${schema}); ${kept}\n` };
  } catch (err) {
    if (err instanceof UnusableCopy) throw new ConfigError(`fleet restore: ${err.message}`);
    throw err;
  } finally {
    removeStoreFiles(staged);
  }
}
