/**
 * The scale-out rig's throughput: `npx tsx packages/server/bench/rig.ts`. For 1, 2 and 3 API
 * processes (`fleet serve`, not pinned) on one copy of a seeded SQLite file, behind the tests'
 * round-robin balancer (test/helpers/balancer.ts, in this process), autocannon (a process of its
 * own) sends a mix of three reads and one write per connection: a page of hosts, one host, a page
 * of actions, a PATCH of a host. Prints requests per second, latency percentiles, non-2xx answers
 * and the machine's load average before each run. RIG_WRITES=0 leaves the PATCH out; RIG_HOSTS /
 * RIG_ACTIONS (default 2,000 / 20,000), RIG_SECONDS (10), RIG_WARMUP (3), RIG_CONNECTIONS (20) and
 * RIG_INSTANCES (`1,2,3`) change the rest.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startBalancer } from '../../../test/helpers/balancer';
import { REPO, startApi, type ApiChild } from './child';
import { ensureDataset } from './dataset';

const exec = promisify(execFile);
const TOKEN = 'bench-rig-token-0123456789abcdef';
const say = (line: string) => process.stdout.write(`${line}\n`);

function envInt(name: string, dflt: number): number {
  const n = Number(process.env[name] ?? dflt);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
}

/** The figures of one run. */
interface RunResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
}

/**
 * The requests every connection sends in turn: per round, a page of hosts, one host, a page of
 * actions and a PATCH of that host, over four hosts and two values (each PATCH changes the host).
 */
function mix(hosts: readonly string[], writes: boolean): Record<string, unknown>[] {
  return Array.from({ length: 8 }, (_, k) => {
    const host = encodeURIComponent(hosts[k % hosts.length] ?? '');
    const patch = {
      method: 'PATCH',
      path: `/api/hosts/${host}`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identification_number: k < 4 ? 'rig-a' : 'rig-b' }),
    };
    return [
      { method: 'GET', path: '/api/hosts?max_results=25' },
      { method: 'GET', path: `/api/hosts/${host}` },
      { method: 'GET', path: '/api/actions?max_results=25' },
      ...(writes ? [patch] : []),
    ];
  }).flat();
}

/** One autocannon run (ac-run.ts) against `url`. */
async function autocannon(url: string, hosts: readonly string[], seconds: number): Promise<RunResult> {
  const run = {
    url,
    connections: envInt('RIG_CONNECTIONS', 20),
    duration: seconds,
    headers: { authorization: `Bearer ${TOKEN}` },
    requests: mix(hosts, process.env.RIG_WRITES !== '0'),
  };
  const { stdout } = await exec(
    process.execPath,
    ['--import', 'tsx', resolve(__dirname, 'ac-run.ts'), JSON.stringify(run)],
    { cwd: REPO, maxBuffer: 64 * 1024 * 1024 },
  );
  const j = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  return {
    rps: j.requests.average,
    p50: j.latency.p50,
    p99: j.latency.p99,
    non2xx: j.non2xx,
    errors: j.errors,
  };
}

/** Four host ids of the store `url` serves. */
async function someHosts(url: string): Promise<string[]> {
  const res = await fetch(`${url}/api/hosts?max_results=4`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return ((await res.json()) as { _items: { _id: string }[] })._items.map((h) => h._id);
}

/** `n` instances on a fresh copy of `file`, the balancer, one warm-up and one measured run. */
async function measure(file: string, n: number): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bench-rig-'));
  copyFileSync(file, join(dir, 'fleet.db'));
  // The key the dataset's secrets were sealed with, beside the copy: every instance reads it.
  copyFileSync(join(dirname(file), 'secret-key'), join(dir, 'secret-key'));
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}`,
    API_TOKENS: `bench=${TOKEN}:admin`,
    LOG_LEVEL: 'warn',
    SNAPSHOT_INTERVAL_S: '86400',
  };
  const apis: ApiChild[] = [];
  try {
    for (let i = 0; i < n; i++) apis.push(await startApi(env, undefined));
    const hosts = await someHosts(apis[0]?.url ?? '');
    const balancer = await startBalancer(apis.map((a) => a.url));
    try {
      await autocannon(balancer.url, hosts, envInt('RIG_WARMUP', 3));
      const load = loadavg()[0]?.toFixed(2) ?? '?';
      const result = await autocannon(balancer.url, hosts, envInt('RIG_SECONDS', 10));
      const spread = [...balancer.served.values()].join(' / ');
      say(
        `${n} instance(s): ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ` +
          `non-2xx ${result.non2xx}, errors ${result.errors} (load before ${load}; answered per instance ${spread})`,
      );
      return result;
    } finally {
      await balancer.close();
    }
  } finally {
    await Promise.all(apis.map((a) => a.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const hosts = envInt('RIG_HOSTS', 2_000);
  const dataset = await ensureDataset({ hosts, actions: envInt('RIG_ACTIONS', 20_000), seed: 1 }, say);
  const counts = (process.env.RIG_INSTANCES ?? '1,2,3').split(',').map((s) => Number(s.trim()));
  const what = process.env.RIG_WRITES === '0' ? '3 reads' : '3 reads and 1 write';
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  say(`rig: ${hosts} hosts, mix of ${what} per connection, load average ${load}`);
  for (const n of counts) await measure(dataset.path, n);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
