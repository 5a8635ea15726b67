/**
 * Fleet sync benchmark: salt-sim with 10,000 accepted hosts (in a child process, so the
 * figures are the sync's own) and a SQLite store on a temp file. Measures one full first sync
 * (wall time, peak RSS of this process) and a second, no-change sync, and prints the figures.
 *
 *   npx tsx packages/salt/bench/sync-bench.ts [--hosts 10000] [--seed 1] [--return-spacing 2] [--json]
 *
 * `--return-spacing`: the simulator's time between two minions' returns of one job, in ms (its
 * own default, 2, is 500 returns a second: a ping of 100,000 minions then takes 200 s on the
 * master's side alone; a large master gathers them as fast as they answer, `0`).
 *
 * `--json`: one last line of JSON with both syncs' figures (`pnpm bench`'s 100,000-host set
 * runs it as a child and reads that line).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, createSecretBox, type Log } from '@fleet/engine';
import { openSqliteStore } from '@fleet/engine/sqlite';
import { allResources } from '@fleet/resources';
import { createSaltClient } from '../src/client';
import { createFleetSync, type SyncReport } from '../src/sync';

const ROOT = join(__dirname, '..', '..', '..');
const MB = 1024 * 1024;
/** The simulator's own spacing of a job's returns (salt-sim jobs.ts), unless `--return-spacing` says. */
const SPACING_MS = 2;

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** Starts `salt-sim` in a child process; resolves its URL once it listens. */
function startSim(
  hosts: number,
  seed: number,
  spacingMs: number,
): Promise<{ url: string; child: ChildProcess }> {
  const tsx = require.resolve('tsx/cli', { paths: [ROOT] });
  const cli = join(ROOT, 'packages', 'salt-sim', 'src', 'cli.ts');
  const child = spawn(
    process.execPath,
    [
      tsx,
      cli,
      '--port',
      '0',
      '--hosts',
      String(hosts),
      '--seed',
      String(seed),
      '--return-spacing',
      String(spacingMs),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url !== undefined) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`salt-sim exited with ${String(code)}`)));
  });
}

/** Samples this process's RSS while `fn` runs; resolves its result, wall time and peak RSS. */
async function measure<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; ms: number; cpuMs: number; peakRss: number; peakHeap: number }> {
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 10);
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  try {
    const value = await fn();
    const used = process.cpuUsage(cpu);
    return {
      value,
      ms: Number(process.hrtime.bigint() - started) / 1e6,
      cpuMs: (used.user + used.system) / 1000,
      peakRss,
      peakHeap,
    };
  } finally {
    clearInterval(timer);
  }
}

/** What `--json` prints of one sync. */
function figures(r: {
  value: SyncReport;
  ms: number;
  cpuMs: number;
  peakRss: number;
}): Record<string, number> {
  return {
    wallMs: r.ms,
    cpuMs: r.cpuMs,
    peakRssMb: r.peakRss / MB,
    seen: r.value.hostsSeen,
    created: r.value.hostsNew,
    changed: r.value.hostsChanged,
  };
}

function line(
  label: string,
  r: { value: SyncReport; ms: number; cpuMs: number; peakRss: number; peakHeap: number },
): string {
  const v = r.value;
  return (
    `${label}: ${(r.ms / 1000).toFixed(2)} s wall, ${(r.cpuMs / 1000).toFixed(2)} s CPU in this process, peak RSS ${(r.peakRss / MB).toFixed(0)} MiB (heap ${(r.peakHeap / MB).toFixed(0)} MiB); ` +
    `seen ${v.hostsSeen}, new ${v.hostsNew}, changed ${v.hostsChanged}, nodegroups ${v.nodegroups}, actions ${v.actionsRecorded}, ` +
    `failed patches ${v.failedPatches}, alerts ${v.alertsRaised}, master reachable ${String(v.masterReachable)}`
  );
}

async function main(): Promise<void> {
  const hosts = flag('hosts', 10_000);
  const quiet: Log = {
    info: (o, m) => {
      if (m === 'fleet sync done')
        console.log('  phases (ms):', JSON.stringify((o as { phasesMs?: unknown }).phasesMs));
    },
    debug: () => undefined,
    warn: (o, m) => console.warn(m, o),
    error: (o, m) => console.error(m, o),
  };
  const dir = mkdtempSync(join(tmpdir(), 'fleet-sync-bench-'));
  const spacingMs = flag('return-spacing', SPACING_MS);
  const { url, child } = await startSim(hosts, flag('seed', 1), spacingMs);
  const store = openSqliteStore({ path: join(dir, 'fleet.db') });
  try {
    const engine = createEngine({
      definitions: allResources,
      store,
      secrets: createSecretBox('bench'),
      log: quiet,
    });
    await engine.ensureCollections();
    const runtime = engine.runtime;
    // manage.status over the whole fleet answers once every minion has: spaced 2 ms apart, a
    // ping of 100,000 minions takes over 200 s on the simulator.
    const patience = Math.max(180_000, hosts * Math.max(spacingMs, 0.1) * 2.5);
    const client = createSaltClient({
      url,
      username: 'saltdev',
      password: 'saltdev',
      timeouts: { read: patience, exec: patience },
    });
    // A job cache to repair: a patch run on one site's hosts (a fifth of the fleet).
    await client.local('berlin', 'state.apply', { arg: ['patches.chrony-pool'], tgt_type: 'nodegroup' });
    // A sync refreshes an up host's unchanged heartbeat once it is 5 minutes old; at 100,000
    // minions one run on the simulator lasts about that long, so the second run would rewrite
    // every heartbeat and be no "no change" run. An hour keeps the second run what it says.
    const sync = createFleetSync({
      client,
      runtime,
      log: quiet,
      toolKey: 'tool',
      heartbeatRefreshMs: 3_600_000,
    });
    const baseline = process.memoryUsage().rss;
    console.log(
      `salt-sim: ${hosts} accepted hosts at ${url}; SQLite at ${dir}; baseline RSS ${(baseline / MB).toFixed(0)} MiB`,
    );
    const first = await measure(() => sync.runOnce());
    console.log(line('first sync (full)', first));
    const second = await measure(() => sync.runOnce());
    console.log(line('second sync (no change)', second));
    const maxRss = process.resourceUsage().maxRSS / 1024;
    console.log(`process maxRSS (getrusage): ${maxRss.toFixed(0)} MiB`);
    if (process.argv.includes('--json'))
      console.log(
        JSON.stringify({ hosts, first: figures(first), second: figures(second), maxRssMb: maxRss }),
      );
    client.close();
  } finally {
    await store.close();
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
