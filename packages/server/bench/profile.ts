/**
 * `tsx packages/server/bench/profile.ts <path-and-query> [seconds]`: the CPU profile of one
 * request under load, start-up left out. The API runs in this process on the bench's seeded file
 * (pinned to core 0 when taskset is there: run it under `taskset -c 0`), autocannon on core 1
 * warms it up, then the V8 profiler (node:inspector, what `--cpu-prof` records) runs while
 * autocannon measures. Writes `<PROFILE_OUT or /tmp/fleet-profile>.cpuprofile` and prints the
 * flame summary (flame.ts) per request. Env: BENCH_HOSTS / BENCH_ACTIONS (the dataset), or
 * HOSTS_JSON (the anchors' hosts, loaded as anchors.sh does), or PROFILE_DB (any SQLite file of
 * ours, e.g. a cached file of `pnpm bench`), CONN (10), METHOD and BODY (a write), LOG_LEVEL (warn).
 */
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startServer } from '../src/boot';
import { loadConfig } from '../src/config';
import { pinTo, REPO } from './child';
import { ensureDataset } from './dataset';
import { loadHostsJson } from './load-hosts-json';

const run = promisify(execFile);
const TOKEN = 'bench-token-0123456789abcdef';

async function load(url: string, seconds: number): Promise<{ total: number; rps: number; p99: number }> {
  const args = [
    '-j',
    '-c',
    process.env.CONN ?? '10',
    '-d',
    String(seconds),
    '-H',
    `Authorization=Bearer ${TOKEN}`,
  ];
  if (process.env.METHOD !== undefined) args.push('-m', process.env.METHOD);
  if (process.env.BODY !== undefined)
    args.push('-H', 'Content-Type=application/json', '-b', process.env.BODY);
  const [command, ...rest] = [...pinTo(1), resolve(REPO, 'node_modules/.bin/autocannon'), ...args, url];
  const { stdout } = await run(command, rest, { maxBuffer: 64 * 1024 * 1024 });
  const j = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
    requests: { total: number; average: number };
    latency: { p99: number };
  };
  return { total: j.requests.total, rps: j.requests.average, p99: j.latency.p99 };
}

async function main(): Promise<void> {
  const path = process.argv[2];
  if (path === undefined) throw new Error('usage: profile.ts <path-and-query> [seconds]');
  const seconds = Number(process.argv[3] ?? 10);
  const json = process.env.HOSTS_JSON;
  const file = process.env.PROFILE_DB;
  const dataset =
    file !== undefined
      ? { path: resolve(file), dir: dirname(resolve(file)) }
      : json === undefined
        ? await ensureDataset(
            {
              hosts: Number(process.env.BENCH_HOSTS ?? 10_000),
              actions: Number(process.env.BENCH_ACTIONS ?? 1_000_000),
              seed: 1,
            },
            () => undefined,
          )
        : await loadHostsJson(json);
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${dataset.path}`,
    API_TOKENS: `bench=${TOKEN}:admin`,
    SNAPSHOT_INTERVAL_S: '86400',
  };
  const server = await startServer(loadConfig({ ...env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' }), {
    cwd: dataset.dir,
  });
  const session = new Session();
  try {
    const url = `${server.url}${path}`;
    await load(url, 3);
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    const measured = await load(url, seconds);
    const { profile } = await session.post('Profiler.stop');
    const out = `${process.env.PROFILE_OUT ?? '/tmp/fleet-profile'}.cpuprofile`;
    writeFileSync(out, JSON.stringify(profile));
    process.stdout.write(
      `${measured.total} requests, ${measured.rps.toFixed(0)} req/s, p99 ${measured.p99} ms; profile ${out}\n`,
    );
    const flame = await run(
      process.execPath,
      [...process.execArgv, resolve(__dirname, 'flame.ts'), out, process.env.TOP ?? '30'],
      {
        env: { ...process.env, REQUESTS: String(measured.total) },
      },
    );
    process.stdout.write(flame.stdout);
  } finally {
    session.disconnect();
    await server.close();
    if (json !== undefined) rmSync(dataset.dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(
      `profile failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
