/**
 * `fleet backup <file>`: a consistent copy of the embedded store while servers run and write
 * (SQLite's online backup: the store at one instant, uploads included), checked and made one
 * self-contained file before it is kept; prints its size and how long it took. The secret key is
 * not in the copy, by design: a copy holding its own key would give away every sealed secret.
 */
import { backupSqliteFile, UnusableCopy } from '@fleet/engine/sqlite';
import { ConfigError } from '../config';
import type { CommandOutput } from '../cli/output';
import { BACKUP_USAGE } from '../cli/usage';
import { embeddedStore, fileArgument, humanSize } from './files';

/** Runs `fleet backup <file>`. */
export async function backupCommand(argv: readonly string[]): Promise<CommandOutput> {
  const target = fileArgument('backup', argv, BACKUP_USAGE);
  const store = embeddedStore('backup');
  let copy;
  try {
    copy = await backupSqliteFile(store.path, target);
  } catch (err) {
    if (err instanceof UnusableCopy) throw new ConfigError(`fleet backup: ${err.message}`);
    throw err;
  }
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const key =
    store.key === 'no key yet'
      ? 'no secret key exists yet'
      : `the secret key (${store.key}) is not in it: keep it apart`;
  return {
    stdout:
      `Backed up ${store.path} into ${target}: ${humanSize(copy.bytes)} in ${seconds(copy.ms)} ` +
      `(copy ${seconds(copy.copyMs)}, check ${seconds(copy.checkMs)}), integrity ok; ${key}\n`,
  };
}
