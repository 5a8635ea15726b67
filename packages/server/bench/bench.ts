/**
 * `pnpm bench`: the seeded store (10,000 hosts, 1,000,000 actions by default; BENCH_HOSTS /
 * BENCH_ACTIONS override), the real API as a child process pinned to core 0, autocannon pinned to
 * core 1, and four scenarios: a filtered sorted hosts page, a host with its grains, one host's
 * actions newest first, and a task POST. Prints req/s, p50/p99, non-2xx and the server's RSS per
 * scenario, the targets with PASS/FAIL, and the cold start. Exits non-zero only when something
 * crashed, never for a missed target.
 */
import { loadavg } from 'node:os';
import { systemContext } from '@fleet/engine';
import { withEngine } from './engine';
import { ensureDataset } from './dataset';
import { pinTo, rssMb, startApi, type ApiChild } from './child';
import { graphBench } from './graph';
import { statisticsBench } from './statistics';
import { measure, type LoadOptions, type LoadResult, type Scenario } from './load';

const TOKEN = 'bench-token-0123456789abcdef';
/** The key of the engine that clears the bench's tasks: it reads no secret, any key does. */
const BENCH_KEY = 'bench-cleanup-key-0123456789';
const BENCH_TASK = 'bench task';
const TARGETS = { hostsP99: 25, actionsP99: 25, rssMb: 300 };

function envInt(name: string, dflt: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number (got "${raw}")`);
  return n;
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** A real host with actions: the host of the newest action. */
async function pickHost(api: ApiChild): Promise<string> {
  const res = await fetch(`${api.url}/api/actions?max_results=1`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const body = (await res.json()) as { _items?: Array<{ host?: string }> };
  const host = body._items?.[0]?.host;
  if (res.status !== 200 || typeof host !== 'string') throw new Error(`GET /api/actions answered ${res.status}: cannot pick a host`);
  return host;
}

function scenarios(host: string): Scenario[] {
  const task = { name: BENCH_TASK, fun: 'test.ping', tgt: [host], start: '2030-01-01 00:00', interval: 3600 };
  return [
    {
      name: 'hosts page (status=up, -_updated, page 3)',
      method: 'GET',
      path: `/api/hosts?where=${q({ status: 'up' })}&sort=-_updated&page=3`,
      p99Target: TARGETS.hostsP99,
    },
    { name: 'host item with grains', method: 'GET', path: `/api/hosts/${encodeURIComponent(host)}` },
    { name: "one host's actions (-_created)", method: 'GET', path: `/api/actions?where=${q({ host })}&sort=-_created`, p99Target: TARGETS.actionsP99 },
    { name: 'POST a task', method: 'POST', path: '/api/tasks', body: JSON.stringify(task) },
  ];
}

/** One request first: a scenario answering 4xx/5xx would measure the error path. */
async function check(api: ApiChild, s: Scenario): Promise<string> {
  const init: RequestInit = { method: s.method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } };
  if (s.body !== undefined) init.body = s.body;
  const res = await fetch(`${api.url}${s.path}`, init);
  const text = await res.text();
  return res.status < 300 ? `${res.status}, ${text.length} bytes` : `${res.status} (!): ${text.slice(0, 300)}`;
}

function row(s: Scenario, r: LoadResult, rss: number): string {
  return `${s.name.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   non-2xx ${r.non2xx}   errors ${r.errors}   RSS ${rss.toFixed(0)} MB`;
}

async function removeBenchTasks(path: string): Promise<number> {
  return withEngine(path, BENCH_KEY, (runtime) => runtime.resources.get('tasks').deleteMany({ name: BENCH_TASK }, systemContext(runtime)));
}

async function main(): Promise<number> {
  const params = { hosts: envInt('BENCH_HOSTS', 10_000), actions: envInt('BENCH_ACTIONS', 1_000_000), seed: 1 };
  const load: Omit<LoadOptions, 'baseUrl'> = { token: TOKEN, connections: 10, seconds: envInt('BENCH_SECONDS', 10), warmupSeconds: 3 };
  say(
    `fleet-api bench: ${params.hosts} hosts, ${params.actions} actions; server ${pinTo(0).length > 0 ? 'pinned to core 0, load on core 1' : 'not pinned (no taskset or one core)'}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const dataset = await ensureDataset(params, say);
  say(
    `seed: ${(dataset.seedMs / 1000).toFixed(1)} s for ${dataset.counts.hosts} hosts and ${dataset.counts.actions} actions${dataset.reused ? ' (cached file, seeded earlier)' : ''}`,
  );

  const api = await startApi({ DATABASE_URL: `sqlite:${dataset.path}`, API_TOKENS: `bench=${TOKEN}:admin`, LOG_LEVEL: 'warn' }, 0);
  say(
    `cold start: ${api.coldStartMs.toFixed(0)} ms (spawn -> first 200 of /api/health); server pid ${api.serverPid}, RSS ${rssMb(api.serverPid).toFixed(0)} MB`,
  );
  const results: Array<{ s: Scenario; r: LoadResult; rss: number }> = [];
  let crashed: string | undefined;
  try {
    const host = await pickHost(api);
    say(`host under test: ${host}\n`);
    for (const s of scenarios(host)) {
      say(`  ${s.method} ${decodeURIComponent(s.path)} -> ${await check(api, s)}`);
      const r = await measure(s, { ...load, baseUrl: api.url });
      const rss = rssMb(api.serverPid);
      if (api.exited() !== undefined) {
        crashed = `the API exited (${api.exited() ?? ''}) during "${s.name}":\n${api.output()}`;
        break;
      }
      results.push({ s, r, rss });
      say(row(s, r, rss));
    }
  } catch (err) {
    crashed = err instanceof Error ? err.message : String(err);
  } finally {
    await api.stop();
  }
  if (crashed === undefined) say(`\nremoved ${await removeBenchTasks(dataset.path)} task(s) the bench created`);
  if (crashed === undefined) await graphBench(say);
  if (crashed === undefined) await statisticsBench(say);

  say('\ntargets (10 connections, this machine):');
  for (const { s, r } of results.filter((x) => x.s.p99Target !== undefined)) {
    const target = s.p99Target ?? 0;
    say(`  ${(r.p99 <= target ? 'PASS' : 'FAIL').padEnd(5)} ${s.name}: p99 ${r.p99} ms <= ${target} ms`);
  }
  const maxRss = Math.max(...results.map((x) => x.rss));
  if (results.length > 0) say(`  ${(maxRss <= TARGETS.rssMb ? 'PASS' : 'FAIL').padEnd(5)} server RSS: max ${maxRss.toFixed(0)} MB <= ${TARGETS.rssMb} MB`);
  say(
    `cold start ${api.coldStartMs.toFixed(0)} ms; load average now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  if (crashed !== undefined) {
    process.stderr.write(`\nCRASH: ${crashed}\n`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
