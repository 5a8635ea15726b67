/**
 * The parts of the 100,000-host set (scale.ts) beside its request scenarios: the API's RSS sampled
 * throughout, the statistics over 30 days of 5-minute history (the history file cached like the
 * seeded fleets: seeding 100,000 hosts' history takes minutes), and the fleet sync of 100,000
 * minions (packages/salt/bench/sync-bench.ts in a child process: its CPU and RSS are the sync's).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, rssMb, startApi } from './child';
import { KINDS, SECRET_KEY, seed, STAT_TOKEN, time } from './statistics';

type Say = (line: string) => void;

/** The sync child's heap limit (MB), `--max-old-space-size`. */
const SYNC_HEAP_MB = 256;

/** One line of the set's table (scale.ts prints them). */
export interface ScaleLine {
  readonly id: string;
  readonly label: string;
  readonly target: string;
  readonly measured: string;
  readonly pass: boolean;
}

const DAYS = 30;
const INTERVAL_S = 300;

/** A SQLite file's size with its WAL. */
export function bytesOf(path: string): number {
  const wal = `${path}-wal`;
  return statSync(path).size + (existsSync(wal) ? statSync(wal).size : 0);
}

/** The highest RSS of each watched process, sampled every 250 ms while it lives. */
export class RssWatch {
  private readonly peak = new Map<string, number>();

  watch(label: string, pid: number): void {
    const timer = setInterval(() => {
      const mb = rssMb(pid);
      if (Number.isNaN(mb)) clearInterval(timer);
      else this.record(label, mb);
    }, 250);
    timer.unref();
  }

  record(label: string, mb: number): void {
    this.peak.set(label, Math.max(this.peak.get(label) ?? 0, mb));
  }

  peaks(): Array<[string, number]> {
    return [...this.peak];
  }
}

/** The 30 days of history of `hosts` hosts, seeded once and cached; resolves its file and its end. */
async function ensureHistory(
  hosts: number,
  say: Say,
): Promise<{ path: string; end: number; seedMs: number }> {
  const dir = join(process.env.BENCH_DIR ?? join(tmpdir(), 'fleet-api-bench'), `history-h${hosts}-d${DAYS}`);
  const path = join(dir, 'history.db');
  const metaPath = join(dir, 'done.json');
  if (existsSync(metaPath) && existsSync(path)) {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as { end: number; seedMs: number };
    say(`reusing ${path} (delete ${dir} to seed it again)`);
    return { path, ...meta };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  say(`seeding ${hosts} hosts with ${DAYS} days of history every ${INTERVAL_S} s into ${path} ...`);
  const end = Date.now();
  const seeded = await seed(path, { hosts, snapshots: (DAYS * 86_400) / INTERVAL_S, intervalS: INTERVAL_S });
  writeFileSync(metaPath, `${JSON.stringify({ end, seedMs: seeded.ms })}\n`);
  say(`seeded in ${(seeded.ms / 1000).toFixed(1)} s`);
  return { path, end, seedMs: seeded.ms };
}

/** Each statistic over the 30 days, timed one request at a time. */
export async function scaleStatistics(hosts: number, rss: RssWatch, say: Say): Promise<ScaleLine[]> {
  const history = await ensureHistory(hosts, say);
  const api = await startApi(
    {
      DATABASE_URL: `sqlite:${history.path}`,
      API_TOKENS: `bench=${STAT_TOKEN}:admin`,
      SECRET_KEY,
      LOG_LEVEL: 'warn',
      SNAPSHOT_INTERVAL_S: '86400',
    },
    0,
  );
  rss.watch(`API at ${hosts} hosts (statistics)`, api.serverPid);
  const from = new Date(history.end - DAYS * 86_400_000).toISOString();
  const range = `range[]=${encodeURIComponent(from)}&range[]=${encodeURIComponent(new Date(history.end).toISOString())}`;
  const lines: ScaleLine[] = [];
  try {
    for (const kind of KINDS) {
      const t = await time(api, `/api/hosts/statistics/${kind}?${range}`, 5);
      say(
        `  statistics ${kind.padEnd(22)} p50 ${t.p50.toFixed(0)} ms  max ${t.max.toFixed(0)} ms  ${(t.bytes / 1024).toFixed(0)} KiB`,
      );
      lines.push({
        id: 'STAT',
        label: `${kind} over ${DAYS} days of 5-minute history, ${hosts} hosts`,
        target: '<= 1 s (p50)',
        measured: `${t.p50.toFixed(0)} ms (max ${t.max.toFixed(0)} ms)`,
        pass: t.p50 <= 1000,
      });
    }
  } finally {
    await api.stop();
  }
  return lines;
}

/** What sync-bench.ts --json prints of one sync. */
interface SyncFigures {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssMb: number;
}

/** The first and a no-change sync of `hosts` minions, in a child process. */
export async function syncAtScale(hosts: number, rss: RssWatch, say: Say): Promise<ScaleLine[]> {
  const child = spawn(
    process.execPath,
    [
      // The heap bounded as docs/operations.md advises for a large fleet: V8 grows it lazily, and
      // unbounded the process reached 680 MiB for a live set that fits 256 MB.
      `--max-old-space-size=${SYNC_HEAP_MB}`,
      '--import',
      'tsx',
      'packages/salt/bench/sync-bench.ts',
      '--hosts',
      String(hosts),
      // Returns as fast as the minions answer (a large master), not the simulator's 500 a second.
      '--return-spacing',
      '0',
      '--json',
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    out += text;
    for (const l of text.split('\n')) if (l.trim() !== '' && !l.startsWith('{')) say(`  ${l}`);
  });
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  const last = out.trim().split('\n').pop() ?? '';
  if (code !== 0 || !last.startsWith('{')) throw new Error(`the sync bench failed (exit ${String(code)})`);
  const r = JSON.parse(last) as { first: SyncFigures; second: SyncFigures; maxRssMb: number };
  rss.record(`sync process at ${hosts} minions (engine, store, sync)`, r.maxRssMb);
  const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return [
    {
      id: 'SYNC',
      label: `first sync of ${hosts} minions: wall`,
      target: '<= 3 min',
      measured: sec(r.first.wallMs),
      pass: r.first.wallMs <= 180_000,
    },
    {
      id: 'SYNC',
      label: `first sync of ${hosts} minions: the API's CPU`,
      target: '<= 60 s',
      measured: sec(r.first.cpuMs),
      pass: r.first.cpuMs <= 60_000,
    },
    {
      id: 'SYNC',
      label: `sync with no change, ${hosts} minions: the API's CPU`,
      target: '<= 30 s',
      measured: `${sec(r.second.cpuMs)} (wall ${sec(r.second.wallMs)})`,
      pass: r.second.cpuMs <= 30_000,
    },
  ];
}
