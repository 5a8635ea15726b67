/**
 * S12, writes from two processes on one SQLite file: two `fleet serve` processes (loop-server.ts,
 * each watching its own event loop) on a copy of the anchors' 10,000 hosts, loaded together. Two
 * measurements, each giving the answers that were not 2xx (and their messages), the worst
 * event-loop delay of each process and its store's group commit figures:
 * - the race (S12r): 300 PATCHes of one large task without If-Match sent at once, half to each
 *   process (what test/http/write-races.test.ts asserts);
 * - the load (S12): new tasks, new alerts and PATCHes of hosts and tasks drawn at random from
 *   hundreds, at 200 connections spread over both processes for 60 s.
 * In `pnpm bench` (BENCH_ONLY=S12, BENCH_CONTENTION_SECONDS), or alone:
 * `tsx packages/server/bench/contention.ts` (CONTENTION_SECONDS, CONTENTION_CONNECTIONS).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, type LoadResult, type MixedRequest } from './load';
import {
  delays,
  type LoopDelay,
  type LoopServer,
  serverErrors,
  startLoopServer,
  takeFailures,
} from './loop-servers';
import type { Results } from './results';
import { TOKEN } from './servers';
import { ensureAnchorStore } from './stores';
import type { Verdict } from './table';

/** What one contention run measured. */
export interface ContentionFigures {
  /** The race: statuses of the 300 PATCHes (`{"200": 300}`), and each process's loop. */
  readonly race: {
    readonly statuses: Record<string, number>;
    readonly delays: LoopDelay[];
    readonly failures: Record<string, number>;
  };
  /** The load: autocannon's figures, each process's loop, and the 5xx messages. */
  readonly load: LoadResult & {
    readonly connections: number;
    readonly delays: LoopDelay[];
    readonly failures: Record<string, number>;
  };
}

/** The name of the tasks the load creates (on a scratch copy, dropped after the run). */
const TASK = 'bench contention';
const HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function call(url: string, method: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, { method, headers: HEADERS, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

async function created(url: string, body: unknown): Promise<string> {
  const { status, json } = await call(url, 'POST', body);
  const id = typeof json === 'object' && json !== null && '_id' in json ? json._id : undefined;
  if (status !== 201 || typeof id !== 'string') throw new Error(`POST ${url} answered ${status}`);
  return id;
}

function task(host: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: TASK, fun: 'test.ping', tgt: [host], start: '2030-01-01 00:00', ...extra };
}

/** Some host ids of the file, through the API. */
async function hostIds(url: string, n: number): Promise<string[]> {
  const res = await fetch(`${url}/api/hosts?max_results=${n}&sort=_id`, { headers: HEADERS });
  const page = (await res.json()) as { _items?: Array<{ _id: string }> };
  const ids = (page._items ?? []).map((h) => h._id);
  if (ids.length < n) throw new Error(`the bench store has fewer than ${n} hosts`);
  return ids;
}

/** 300 PATCHes of one large task at once, half to each server; the statuses by code (loop delays reset just before). */
async function race(
  servers: readonly LoopServer[],
  host: string,
  writes: number,
): Promise<Record<string, number>> {
  // A kwarg of 900 entries (within the 1,000 keys a body's object may have), ~100 KB: each write
  // decodes, merges and hashes it (as a host's grains).
  const kwarg = Object.fromEntries(
    Array.from({ length: 900 }, (_, i) => [`key_${i}`, `value ${i} `.repeat(12)]),
  );
  const first = servers[0]?.url ?? '';
  const id = await created(`${first}/api/tasks`, task(host, { kwarg }));
  // A few PATCHes one at a time first, so that neither process meets the burst cold.
  for (const s of servers)
    for (let i = 0; i < 5; i += 1) await call(`${s.url}/api/tasks/${id}`, 'PATCH', { name: 'warm-up' });
  for (const s of servers) s.reset();
  const statuses = await Promise.all(
    Array.from({ length: writes }, async (_, i) => {
      const url = servers[i % servers.length]?.url ?? first;
      return (await call(`${url}/api/tasks/${id}`, 'PATCH', { name: `write-${i}`, arg: [String(i)] })).status;
    }),
  );
  const counts: Record<string, number> = {};
  for (const s of statuses) counts[String(s)] = (counts[String(s)] ?? 0) + 1;
  return counts;
}

/** The load's connections, spread over the two processes. */
const CONNECTIONS = 200;

/** Items the load's PATCHes are spread over: hosts of the file, and tasks made for the run. */
const SPREAD = { hosts: 500, tasks: 100 } as const;

/**
 * The mixed writes every connection sends in turn: new tasks and alerts, and PATCHes without
 * If-Match of a host or a task drawn at random from many (two connections sometimes race for one
 * item; the 300-PATCH race is the case of all of them racing for one).
 */
async function mix(url: string): Promise<MixedRequest[]> {
  const hosts = await hostIds(url, SPREAD.hosts);
  const host = hosts[0] ?? '';
  const tasks: string[] = [];
  for (let i = 0; i < SPREAD.tasks; i += 1) tasks.push(await created(`${url}/api/tasks`, task(host)));
  const post: MixedRequest = { method: 'POST', path: '/api/tasks', body: JSON.stringify(task(host)) };
  const alert: MixedRequest = {
    method: 'POST',
    path: '/api/alerts',
    body: JSON.stringify({ type: 'bench.contention' }),
  };
  const hostPaths = hosts.map((h) => `/api/hosts/${encodeURIComponent(h)}`);
  const taskPaths = tasks.map((t) => `/api/tasks/${t}`);
  const patch = (paths: string[], body: unknown): MixedRequest => ({
    method: 'PATCH',
    path: paths[0] ?? '',
    paths,
    body: JSON.stringify(body),
  });
  return [
    post,
    patch(hostPaths, { identification_number: 'bench-a' }),
    patch(taskPaths, { name: `${TASK} a` }),
    alert,
    patch(hostPaths, { identification_number: 'bench-b' }),
    patch(taskPaths, { name: `${TASK} b` }),
  ];
}

/** Both measurements on two fresh processes over a scratch copy of the anchors' 10,000 hosts. */
export async function contentionRun(
  o: { contentionSeconds: number; warmupSeconds: number; connections?: number },
  log: (line: string) => void,
): Promise<ContentionFigures> {
  const connections = o.connections ?? CONNECTIONS;
  const source = (await ensureAnchorStore(10_000, log)).path;
  const scratch = mkdtempSync(join(tmpdir(), 'fleet-bench-contention-'));
  const file = join(scratch, 'fleet.db');
  copyFileSync(source, file);
  const servers: LoopServer[] = [];
  try {
    // One after the other: the first makes the secret key both then read.
    for (let i = 0; i < 2; i += 1) servers.push(await startLoopServer(file));
    const first = servers[0]?.url ?? '';
    const [host = ''] = await hostIds(first, 1);
    const raceStatuses = await race(servers, host, 300);
    const raceDelays = await delays(servers);
    const raceFailures = await takeFailures(servers, serverErrors(raceStatuses));
    const requests = await mix(first);
    const scenario = { name: 'S12', method: 'POST' as const, path: '/api/tasks', requests, connections };
    const run = { baseUrl: servers.map((s) => s.url), token: TOKEN, connections, warmupSeconds: 0 };
    // The warm-up on its own, so that neither its answers nor its loop delays count.
    if (o.warmupSeconds > 0) {
      const warm = await measure(scenario, { ...run, seconds: o.warmupSeconds });
      await takeFailures(servers, serverErrors(warm.statuses));
    }
    for (const s of servers) s.reset();
    const load = await measure(scenario, { ...run, seconds: o.contentionSeconds });
    const loadDelays = await delays(servers);
    const loadFailures = await takeFailures(servers, serverErrors(load.statuses));
    return {
      race: { statuses: raceStatuses, delays: raceDelays, failures: raceFailures },
      load: { ...load, connections, delays: loadDelays, failures: loadFailures },
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `{"200": 298, "503": 2}` as `200 x298, 503 x2`. */
export function statusText(statuses: Readonly<Record<string, number>>): string {
  return Object.entries(statuses)
    .map(([code, n]) => `${code} x${n}`)
    .join(', ');
}

/** Each process's worst and p99 loop delay. */
export function delayText(list: readonly LoopDelay[]): string {
  return list
    .map(
      (d) =>
        `pid ${d.pid}: loop max ${d.maxMs.toFixed(1)} ms, p99 ${d.p99Ms.toFixed(1)} ms${writesText(d.writes)}`,
    )
    .join(';\n  ');
}

/** The group commit's figures: writes per commit, the longest group on the loop, the lock waits. */
function writesText(w: Readonly<Record<string, number>> | undefined): string {
  if (w === undefined) return '';
  const n = (key: string) => w[key] ?? Number.NaN;
  return ` (${n('writes')} writes in ${n('commits')} commits, ${(n('writes') / n('commits')).toFixed(1)} a commit, ${n('failed')} failed alone; longest group ${n('maxGroupMs').toFixed(1)} ms; lock busy ${n('busy')} times, longest wait on the loop ${n('maxBlockedMs').toFixed(1)} ms, off it ${n('maxLockWaitMs').toFixed(1)} ms)`;
}

/** The table's S12 rows (the race, `S12r`, and the load) from one run, and their verdicts. */
export function contentionRows(f: ContentionFigures, seconds: number, r: Results): Map<string, Verdict[]> {
  const raceBad = Object.entries(f.race.statuses).reduce((n, [code, k]) => n + (code === '200' ? 0 : k), 0);
  const none = { rps: Number.NaN, p50: Number.NaN, p99: Number.NaN, errors: 0, timeouts: 0, rss: Number.NaN };
  r.add('S12r', '300 PATCHes of one task at once, 2 processes, 1 file', 1, { ...none, non2xx: raceBad });
  r.add('S12', `mixed writes, 2 processes, 1 file, ${f.load.connections} conn., ${seconds} s`, 1, {
    rps: f.load.rps,
    p50: f.load.p50,
    p99: f.load.p99,
    non2xx: f.load.non2xx,
    errors: f.load.errors,
    timeouts: f.load.timeouts,
    rss: Number.NaN,
  });
  const clean = (bad: number): Verdict => ({ target: 'no non-2xx', measured: String(bad), pass: bad === 0 });
  const loops = (d: readonly LoopDelay[]): Verdict => ({
    target: 'worst loop delay (info)',
    measured: d.map((x) => `${x.maxMs.toFixed(0)}`).join('/') + ' ms',
    pass: true,
    info: true,
  });
  return new Map([
    ['S12r', [clean(raceBad), loops(f.race.delays)]],
    ['S12', [clean(f.load.non2xx + f.load.errors), loops(f.load.delays)]],
  ]);
}

/** The run in words: statuses, 5xx messages, each process's loop and group commit figures. */
export function describeContention(f: ContentionFigures, seconds: number, say: (line: string) => void): void {
  say(`S12r race: 300 PATCHes of one task over 2 processes: ${statusText(f.race.statuses)}`);
  for (const [m, n] of Object.entries(f.race.failures)) say(`  5xx x${n}: ${m}`);
  say(`  ${delayText(f.race.delays)}`);
  say(
    `S12 load: ${seconds} s at ${f.load.connections} connections over 2 processes: ${f.load.rps.toFixed(0)} req/s, p50 ${f.load.p50} ms, p99 ${f.load.p99} ms, errors ${f.load.errors} (${statusText(f.load.statuses)})`,
  );
  for (const [m, n] of Object.entries(f.load.failures)) say(`  5xx x${n}: ${m}`);
  say(`  ${delayText(f.load.delays)}`);
}

if (require.main === module) {
  const seconds = Number(process.env.CONTENTION_SECONDS ?? 60);
  const connections = Number(process.env.CONTENTION_CONNECTIONS ?? 200);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  contentionRun({ contentionSeconds: seconds, connections, warmupSeconds: 2 }, say).then(
    (f) => describeContention(f, seconds, say),
    (err: unknown) => {
      process.stderr.write(
        `contention failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
}
