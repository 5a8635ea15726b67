/**
 * `fleet restore <file>`: puts a backup in the place of the embedded store. The copy is staged
 * beside the store and checked there first (integrity, a Fleet API store); then, if no server
 * holds the store, the store's files (main file, WAL, shared memory) move aside into
 * `<data dir>/replaced-<time>/` and the staged copy takes their place. A copy written by an older
 * release is brought up to date by the next start, like any store it opens.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { refuseWhileServed } from '@fleet/duties';
import {
  checkSqliteCopy,
  openSqliteStore,
  removeStoreFiles,
  settleCopy,
  sqliteStoreFiles,
  UnusableCopy,
} from '@fleet/engine/sqlite';
import { ConfigError } from '../config';
import type { CommandOutput } from '../cli/output';
import { RESTORE_USAGE } from '../cli/usage';
import { embeddedStore, fileArgument, humanSize } from './files';

/** Refuses, in one line, while a server holds the store at `path` (a store that does not exist has none). */
async function refuseUnderServer(path: string): Promise<void> {
  if (!existsSync(path)) return;
  const store = openSqliteStore({ path, check: 'none' });
  try {
    await refuseWhileServed(store.leases, 'fleet restore');
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
    settleCopy(staged);
    await refuseUnderServer(store.path);
    const aside = keepAside(store.path, store.dataDir);
    renameSync(staged, store.path);
    const size = humanSize(statSync(store.path).size);
    const kept = aside === undefined ? 'there was no store to replace' : `the replaced store is in ${aside}`;
    return { stdout: `Restored ${source} into ${store.path} (${size}, integrity ok); ${kept}\n` };
  } catch (err) {
    if (err instanceof UnusableCopy) throw new ConfigError(`fleet restore: ${err.message}`);
    throw err;
  } finally {
    removeStoreFiles(staged);
  }
}
