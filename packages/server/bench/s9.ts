/**
 * S9 in the table: the statistics scenario (statistics.ts) on 10,000 hosts with
 * `days` of 5-minute history, each statistic timed one request at a time (its targets are p50s of
 * single requests). Three rows: the five statistics over 24 h, `online` over the whole history,
 * the four others over it; each row gives its slowest statistic's p50 and max.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rssMb, startApi, type ApiChild } from './child';
import { requests, SECRET_KEY, seed, STAT_TOKEN, TARGETS, time } from './statistics';

const INTERVAL_S = 300;

/** One S9 row's figures in one round. */
export interface S9Sample {
  readonly id: 'S9a' | 'S9b' | 'S9c';
  readonly p50: number;
  readonly max: number;
  readonly rss: number;
}

/** The rows: which requests each covers (by name) and its p50 target. */
export function s9Rows(
  days: number,
): Array<{ id: S9Sample['id']; label: string; target: number; names: string[] }> {
  const all = requests(days).filter((r) => r.target !== undefined);
  const day = all.filter((r) => r.name.endsWith('24 h')).map((r) => r.name);
  const month = all.filter((r) => !r.name.endsWith('24 h'));
  return [
    { id: 'S9a', label: 'statistics: 5 kinds over 24 h (slowest)', target: TARGETS.day, names: day },
    {
      id: 'S9b',
      label: `statistics: online over ${days} d`,
      target: TARGETS.onlineMonth,
      names: month.filter((r) => r.name.startsWith('online')).map((r) => r.name),
    },
    {
      id: 'S9c',
      label: `statistics: 4 others over ${days} d (slowest)`,
      target: TARGETS.otherMonth,
      names: month.filter((r) => !r.name.startsWith('online')).map((r) => r.name),
    },
  ];
}

/** A server over a freshly seeded history (not cached: the history ends now, as the 24 h rows need). */
export async function startStatistics(
  hosts: number,
  days: number,
  log: (line: string) => void,
): Promise<{ api: ApiChild; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bench-s9-'));
  const path = join(dir, 'history.db');
  try {
    const seeded = await seed(path, {
      hosts,
      snapshots: Math.floor((days * 86_400) / INTERVAL_S),
      intervalS: INTERVAL_S,
    });
    log(`S9: seeded ${hosts} hosts with ${days} days of history in ${(seeded.ms / 1000).toFixed(1)} s`);
    const env = {
      DATABASE_URL: `sqlite:${path}`,
      API_TOKENS: `bench=${STAT_TOKEN}:admin`,
      SECRET_KEY,
      LOG_LEVEL: 'warn',
      SNAPSHOT_INTERVAL_S: String(INTERVAL_S),
    };
    const api = await startApi(env, 0);
    return {
      api,
      async close() {
        await api.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** One round: every timed statistic `count` times; resolves each row's slowest p50 and max. */
export async function s9Round(api: ApiChild, days: number, count: number): Promise<S9Sample[]> {
  const paths = new Map(requests(days).map((r) => [r.name, r.path]));
  const out: S9Sample[] = [];
  for (const row of s9Rows(days)) {
    let p50 = 0;
    let max = 0;
    for (const name of row.names) {
      const t = await time(api, paths.get(name) ?? '', count);
      p50 = Math.max(p50, t.p50);
      max = Math.max(max, t.max);
    }
    out.push({ id: row.id, p50, max, rss: rssMb(api.serverPid) });
  }
  return out;
}
