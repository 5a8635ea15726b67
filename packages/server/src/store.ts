/**
 * Picks the store from DATABASE_URL: unset -> ./data/fleet.db, `sqlite:<path>`, `memory:`, or
 * `mongodb://` / `mongodb+srv://` (loaded only then, so the embedded mode never loads the driver).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { refuseWhileServed } from '@fleet/duties';
import type { Log, Store } from '@fleet/engine';
import { openSqliteStore } from '@fleet/engine/sqlite';
import type * as MongoAdapter from '@fleet/engine/mongo';

export interface StoreChoice {
  readonly kind: 'sqlite' | 'memory' | 'mongo';
  /** Where the server keeps its generated files (admin token, secret key). */
  readonly dataDir: string;
  /** The SQLite file (kind `sqlite` only): what backup and restore copy. */
  readonly path?: string;
  /**
   * Opens the store; `checked`: its file was checked by another process that opened it first (a
   * cluster's primary before it forked, cluster.ts), so the SQLite open check is skipped.
   */
  readonly open: (log: Log, o?: { checked?: boolean }) => Promise<Store>;
  /** For logs: the location without credentials. */
  readonly describe: string;
}

/** Interprets DATABASE_URL. */
export function chooseStore(
  databaseUrl: string | undefined,
  cwd = process.cwd(),
  o: { readWorkers?: number } = {},
): StoreChoice {
  const readOffload = o.readWorkers === undefined ? {} : { readOffload: { workers: o.readWorkers } };
  const url = databaseUrl ?? `sqlite:${resolve(cwd, 'data', 'fleet.db')}`;
  if (url === 'memory:') {
    return {
      kind: 'memory',
      dataDir: resolve(cwd, 'data'),
      describe: 'memory:',
      open: async () => openSqliteStore({ path: ':memory:' }),
    };
  }
  if (url.startsWith('sqlite:')) {
    const path = resolve(cwd, url.slice('sqlite:'.length));
    return {
      kind: 'sqlite',
      dataDir: dirname(path),
      path,
      describe: `sqlite:${path}`,
      open: async (_log, opened) => {
        mkdirSync(dirname(path), { recursive: true });
        return openSqliteStore({
          path,
          ...readOffload,
          ...(opened?.checked === true ? { check: 'none' as const } : {}),
        });
      },
    };
  }
  return {
    kind: 'mongo',
    dataDir: resolve(cwd, 'data'),
    describe: url.replace(/\/\/[^@/]*@/, '//***@'),
    open: async (log) => {
      // Loaded only in mongo mode: the embedded mode never pays for the driver at start.
      // require() is untyped (a dynamic import() would be, but ts-jest runs these files as CommonJS
      // without ESM support): the assertion names the module's own type.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { openMongoStore } = require('@fleet/engine/mongo') as typeof MongoAdapter;
      return openMongoStore({ url, log });
    },
  };
}

/**
 * Empties collections outright, soft delete and relations aside: `seed --reset` replacing a
 * development fleet. Bootstrap-only (like opening the store), never reachable from the API.
 */
export async function emptyCollections(store: Store, names: readonly string[]): Promise<void> {
  for (const name of names) await store.delete(name, {});
}

/**
 * Refuses, in one line, while a server holds `store` (packages/duties/src/presence.ts): for the
 * commands that must run with every server stopped (restore, rotate-key). Bootstrap-only.
 */
export async function refuseUnderServer(store: Store, command: string): Promise<void> {
  await refuseWhileServed(store.leases, command);
}

/** The store's own write figures (the embedded store's group commit: `writeStats()`), or undefined. */
export async function writeStats(store: Store): Promise<Readonly<Record<string, number>> | undefined> {
  if (!('writeStats' in store) || typeof store.writeStats !== 'function') return undefined;
  const stats: unknown = await (store.writeStats as () => Promise<unknown>)();
  return typeof stats === 'object' && stats !== null ? (stats as Record<string, number>) : undefined;
}
