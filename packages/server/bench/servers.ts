/**
 * The API servers of a `pnpm bench` run, each `fleet serve` as a child process (child.ts) on its
 * own file, started once and measured in every round: the anchors' hosts at 10,000 and at 100,000,
 * the seeded fleet (started `restarts` times before the others: its start-up row is the median), the graph
 * store, and a copy of the 10,000-host file served with WORKERS=2 on every core.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApi, type ApiChild } from './child';
import type { ServerKey } from './scenarios';

/** The token every bench server accepts (admin: S7 writes). */
export const TOKEN = 'bench-token-0123456789abcdef';

/** The SQLite file each server serves. */
export type ServerFiles = Partial<Record<ServerKey, string>>;

/** The running servers, their start-up times and a way to stop them all. */
export interface Servers {
  readonly api: Partial<Record<ServerKey, ApiChild>>;
  /** Cold starts of the seeded fleet (spawn to the first 200 of /api/health), in ms. */
  readonly storeStartsMs: number[];
  stopAll(): Promise<void>;
}

/** The environment of a bench server on `file`. */
export function serverEnv(file: string, extra: Record<string, string> = {}): Record<string, string> {
  // No snapshot of the host list in the middle of a measurement (the first is a day away).
  return {
    DATABASE_URL: `sqlite:${file}`,
    API_TOKENS: `bench=${TOKEN}:admin`,
    LOG_LEVEL: 'warn',
    SNAPSHOT_INTERVAL_S: '86400',
    ...extra,
  };
}

/** Starts a server for every file given; `restarts` cold starts of the seeded fleet are timed. */
export async function startServers(
  files: ServerFiles,
  restarts: number,
  log: (line: string) => void,
): Promise<Servers> {
  const api: Partial<Record<ServerKey, ApiChild>> = {};
  const storeStartsMs: number[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'fleet-bench-workers-'));
  const stopAll = async () => {
    await Promise.all(Object.values(api).map((child) => child.stop()));
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    // A copy, made before anything opens the file: two servers writing leases into one file would
    // measure each other.
    const workersFile = join(scratch, 'fleet.db');
    if (files.workers !== undefined) copyFileSync(files.workers, workersFile);
    // First, alone: the other servers' own start-up work would be timed with it otherwise.
    if (files.seeded !== undefined) {
      for (let i = 0; i < restarts; i += 1) {
        if (api.seeded !== undefined) await api.seeded.stop();
        api.seeded = await startApi(serverEnv(files.seeded), 0);
        storeStartsMs.push(api.seeded.coldStartMs);
      }
      log(`seeded fleet: cold starts ${storeStartsMs.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`);
    }
    for (const key of ['anchor', 'big', 'graph'] as const) {
      const file = files[key];
      if (file !== undefined) api[key] = await startApi(serverEnv(file), 0);
    }
    if (files.workers !== undefined)
      api.workers = await startApi(serverEnv(workersFile, { WORKERS: '2' }), undefined);
  } catch (err) {
    await stopAll();
    throw err;
  }
  return { api, storeStartsMs, stopAll };
}
