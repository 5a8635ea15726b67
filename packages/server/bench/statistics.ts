/**
 * The statistics benchmark: 10,000 hosts with 30 days of 5-minute host-list history
 * (8,640 snapshots, seeded as the server stores them: docs/statistics.md), the real API as a
 * child process pinned to core 0, and the five statistics over the last 24 h and over 30 days,
 * timed one request at a time after a warm-up, with the server's RSS sampled during them. Also
 * `online` with a `where`, a page of hosts_statistic, the database size and the 90-day size
 * projected from the measured growth (the same fleet seeded with one snapshot is the base).
 * Standalone: `tsx packages/server/bench/statistics.ts`; BENCH_STAT_DAYS (30),
 * BENCH_STAT_INTERVAL_S (300), BENCH_STAT_HOSTS (10000), BENCH_STAT_REQUESTS (20) override;
 * `pnpm bench` times its statistics as S9 (bench/s9.ts).
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withEngine } from './engine';
import { seedFleet } from '../src/seed';
import { rssMb, startApi, type ApiChild } from './child';

/** The token the statistics server accepts. */
export const STAT_TOKEN = 'bench-statistics-token-0123456789';
/** The seed seals secrets (VPN passwords) with it; the server must open them. */
export const SECRET_KEY = 'bench-statistics-secret-0123456789';
/** The five statistics. */
export const KINDS = [
  'online',
  'unique_online',
  'unique_updated',
  'unique_dist_upgraded',
  'new_hosts',
] as const;
/** The issue's targets (p50 ms, MB, bytes). */
export const TARGETS = { day: 50, onlineMonth: 200, otherMonth: 300, rssMb: 300, projectedBytes: 1e9 };

type Say = (line: string) => void;

function envInt(name: string, dflt: number): number {
  const n = Number(process.env[name] ?? dflt);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
}

/** The file's size with its WAL (the server checkpoints it on close). */
function bytesOf(path: string): number {
  return statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
}

/** Seeds `hosts` hosts and `snapshots` snapshots `intervalS` apart into a new file; resolves the seed time. */
export async function seed(
  path: string,
  o: { hosts: number; snapshots: number; intervalS: number },
): Promise<{ ms: number; snapshotsMs: number }> {
  const result = await withEngine(path, SECRET_KEY, (runtime) =>
    seedFleet(runtime, {
      hosts: o.hosts,
      actions: 0,
      snapshots: o.snapshots,
      snapshotIntervalMs: o.intervalS * 1000,
    }),
  );
  return { ms: result.ms, snapshotsMs: result.timings.hosts_statistic };
}

/** One request's figures over a run of requests. */
export interface Timed {
  readonly p50: number;
  readonly max: number;
  readonly bytes: number;
  readonly rss: number;
}

/** Times `path` one request at a time (after 3 warm-up requests), sampling the server's RSS. */
export async function time(api: ApiChild, path: string, count: number): Promise<Timed> {
  let rss = rssMb(api.serverPid);
  const sampler = setInterval(() => (rss = Math.max(rss, rssMb(api.serverPid))), 10);
  try {
    const get = async () => {
      const started = process.hrtime.bigint();
      const res = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${STAT_TOKEN}` } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 300)}`);
      return { ms: Number(process.hrtime.bigint() - started) / 1e6, bytes: text.length };
    };
    for (let i = 0; i < 3; i += 1) await get();
    const runs = [];
    for (let i = 0; i < count; i += 1) runs.push(await get());
    const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
    return {
      p50: ms[Math.floor(ms.length / 2)] ?? Number.NaN,
      max: ms[ms.length - 1] ?? Number.NaN,
      bytes: runs[0]?.bytes ?? 0,
      rss: Math.max(rss, rssMb(api.serverPid)),
    };
  } finally {
    clearInterval(sampler);
  }
}

const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL').padEnd(5);
const MB = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/** The requests: each statistic over 24 h (the default range) and over the whole history, and a few more. */
export function requests(days: number): Array<{ name: string; path: string; target?: number }> {
  const end = new Date();
  const range = `range[]=${encodeURIComponent(new Date(end.getTime() - days * 86_400_000).toISOString())}&range[]=${encodeURIComponent(end.toISOString())}`;
  // The workstations are up on working days only: the busiest nodegroup of the seeded history.
  const where = `where=${encodeURIComponent('{"nodegroups":"workstations"}')}`;
  return [
    ...KINDS.map((k) => ({ name: `${k}, 24 h`, path: `/api/hosts/statistics/${k}`, target: TARGETS.day })),
    // The targets are for 30 days; a longer history is measured, not judged.
    ...KINDS.map((k) => ({
      name: `${k}, ${days} d`,
      path: `/api/hosts/statistics/${k}?${range}`,
      ...(days <= 30 ? { target: k === 'online' ? TARGETS.onlineMonth : TARGETS.otherMonth } : {}),
    })),
    { name: 'online where nodegroups=workstations, 24 h', path: `/api/hosts/statistics/online?${where}` },
    {
      name: `online where nodegroups=workstations, ${days} d`,
      path: `/api/hosts/statistics/online?${range}&${where}`,
    },
    {
      name: 'hosts_statistic, 25 items without hosts',
      path: `/api/hosts_statistic?page=100&projection=${encodeURIComponent('{"hosts":0}')}`,
    },
    {
      name: 'hosts_statistic, 1 whole snapshot (page 5000)',
      path: '/api/hosts_statistic?max_results=1&page=5000',
    },
  ];
}

/** Runs the statistics scenario and prints its figures; resolves whether every target was met. */
export async function statisticsBench(say: Say): Promise<boolean> {
  const o = {
    hosts: envInt('BENCH_STAT_HOSTS', 10_000),
    days: envInt('BENCH_STAT_DAYS', 30),
    intervalS: envInt('BENCH_STAT_INTERVAL_S', 300),
  };
  const snapshots = Math.floor((o.days * 86_400) / o.intervalS);
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bench-statistics-'));
  try {
    const path = join(dir, 'history.db');
    const seeded = await seed(path, { ...o, snapshots });
    say(
      `\nstatistics: seeded ${o.hosts} hosts and ${snapshots} snapshots ${o.intervalS} s apart (${o.days} days) in ${(seeded.ms / 1000).toFixed(1)} s (snapshots ${(seeded.snapshotsMs / 1000).toFixed(1)} s)`,
    );
    const base = join(dir, 'base.db');
    await seed(base, { ...o, snapshots: 1 });
    const api = await startApi(
      {
        DATABASE_URL: `sqlite:${path}`,
        API_TOKENS: `bench=${STAT_TOKEN}:admin`,
        SECRET_KEY,
        LOG_LEVEL: 'warn',
        SNAPSHOT_INTERVAL_S: String(o.intervalS),
      },
      0,
    );
    let ok = true;
    let rss = 0;
    try {
      for (const r of requests(o.days)) {
        const t = await time(api, r.path, envInt('BENCH_STAT_REQUESTS', 20));
        rss = Math.max(rss, t.rss);
        const verdict = r.target === undefined ? '     ' : mark(t.p50 <= r.target);
        if (r.target !== undefined) ok &&= t.p50 <= r.target;
        const figures = `p50 ${t.p50.toFixed(1).padStart(7)} ms  max ${t.max.toFixed(1).padStart(7)} ms  ${(t.bytes / 1024).toFixed(0).padStart(6)} KiB  RSS ${t.rss.toFixed(0).padStart(4)} MB`;
        say(
          `  ${verdict} ${r.name.padEnd(52)} ${figures}${r.target === undefined ? '' : `  (<= ${r.target} ms)`}`,
        );
      }
    } finally {
      await api.stop();
    }
    const size = bytesOf(path);
    const baseSize = bytesOf(base);
    const projected = baseSize + ((size - baseSize) * 90) / o.days;
    say(
      `  ${mark(rss <= TARGETS.rssMb)} server RSS during the requests: max ${rss.toFixed(0)} MB (<= ${TARGETS.rssMb} MB)`,
    );
    say(
      `  ${mark(projected <= TARGETS.projectedBytes)} database: ${MB(size)} with ${o.days} days (${MB(baseSize)} of it the fleet itself); 90 days projected: ${MB(projected)} (<= 1 GB)`,
    );
    return ok && rss <= TARGETS.rssMb && projected <= TARGETS.projectedBytes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  statisticsBench((line) => process.stdout.write(`${line}\n`)).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(
        `statistics bench crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
}
