/**
 * What backup and restore share: the one positional argument, the store they work on (an
 * embedded SQLite file; MongoDB has its own tools, named in one line), and sizes for people.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { chooseStore } from '../store';

/** The MongoDB tools' lines, as docs/backup.md gives them. */
export const MONGO_TOOLS = {
  backup: 'mongodump --uri "<replica set URI, no database>" --oplog --gzip --archive=<file>',
  restore: 'mongorestore --uri "<replica set URI, no database>" --oplogReplay --drop --gzip --archive=<file>',
} as const;

/** The embedded store of DATABASE_URL and where its key lives. */
export interface EmbeddedStore {
  /** The SQLite file. */
  readonly path: string;
  readonly dataDir: string;
  /** Where the key that seals the store's secrets comes from, for the reminder that it is not in a copy. */
  readonly key: string;
}

/** The embedded store of the environment's DATABASE_URL; one line for MongoDB or `memory:`. */
export function embeddedStore(
  command: 'backup' | 'restore',
  env: NodeJS.ProcessEnv = process.env,
): EmbeddedStore {
  const config = loadConfig(env);
  const choice = chooseStore(config.DATABASE_URL);
  if (choice.kind === 'mongo')
    throw new ConfigError(
      `fleet ${command}: the store is MongoDB: use ${MONGO_TOOLS[command]} (docs/backup.md)`,
    );
  if (choice.kind === 'memory' || choice.path === undefined)
    throw new ConfigError(`fleet ${command}: DATABASE_URL=memory: keeps nothing to ${command}`);
  const keyFile = join(choice.dataDir, 'secret-key');
  const key = config.SECRET_KEY !== undefined ? 'SECRET_KEY' : existsSync(keyFile) ? keyFile : 'no key yet';
  return { path: choice.path, dataDir: choice.dataDir, key };
}

/** The single `<file>` argument, resolved against the working directory. */
export function fileArgument(command: string, argv: readonly string[], usage: string): string {
  const words = argv.filter((a) => a !== '');
  const [file] = words;
  if (words.length !== 1 || file === undefined || file.startsWith('-'))
    throw new ConfigError(`fleet ${command}: expected one file name\n${usage}`);
  return resolve(file);
}

/** 12.3 MB, 512 KB, 1.2 GB. */
export function humanSize(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}
