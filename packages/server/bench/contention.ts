/**
 * Writes from two processes on one SQLite file (S7c): two `fleet serve` processes (loop-server.ts,
 * each watching its own event loop) on a copy of the anchors' 10,000 hosts, loaded together. Two
 * measurements, each giving the answers that were not 2xx and the worst event-loop delay of each
 * process:
 * - the race: 300 PATCHes of one large task without If-Match sent at once, half to each process
 *   (what test/http/write-races.test.ts asserts, counted here under the bench's load);
 * - the load: a mix of writes (new tasks, alerts, PATCHes of a few hosts and tasks, so that items
 *   are raced for too) at 200 connections spread over both processes for 60 s.
 * Run alone: `tsx packages/server/bench/contention.ts` (CONTENTION_SECONDS, CONTENTION_CONNECTIONS).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO } from './child';
import { measure, type LoadResult, type MixedRequest } from './load';
import type { LoopCommand, LoopMessage } from './loop-server';
import { TOKEN } from './servers';
import { ensureAnchorStore } from './stores';

/** One process's loop over a measurement, in ms. */
export interface LoopDelay {
  readonly pid: number;
  readonly maxMs: number;
  readonly p99Ms: number;
  /** The store's group commit figures since the process started (loop-server.ts). */
  readonly writes?: Readonly<Record<string, number>>;
}

/** A server process of the bench. */
interface LoopServer {
  readonly url: string;
  readonly pid: number;
  reset(): void;
  report(): Promise<LoopDelay>;
  /** The 5xx answers it logged so far, by message (and empties the tally). */
  takeFailures(): Record<string, number>;
  stop(): Promise<void>;
}

/** What one contention run measured. */
export interface ContentionFigures {
  /** The race: statuses of the 300 PATCHes (`{"200": 300}`), and each process's loop. */
  readonly race: {
    readonly statuses: Record<string, number>;
    readonly delays: LoopDelay[];
    readonly failures: Record<string, number>;
  };
  /** The load: autocannon's figures, each process's loop, and the 5xx messages. */
  readonly load: LoadResult & { readonly delays: LoopDelay[]; readonly failures: Record<string, number> };
}

/** The name of the tasks the load creates (on a scratch copy, dropped after the run). */
const TASK = 'bench contention';
const HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function startLoopServer(file: string): Promise<LoopServer> {
  const child: ChildProcess = fork(resolve(__dirname, 'loop-server.ts'), [], {
    cwd: REPO,
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${file}`,
      API_TOKENS: `bench=${TOKEN}:admin`,
      // warn: every 5xx answer is logged with its message ("upstream error"), tallied below.
      LOG_LEVEL: 'warn',
      SNAPSHOT_INTERVAL_S: '86400',
      PORT: '0',
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let tail = '';
  let failures: Record<string, number> = {};
  const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  if (child.stdout !== null)
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /"msg":"upstream error"/.test(line) ? /"message":"((?:[^"\\]|\\.)*)"/.exec(line) : null;
      if (m?.[1] !== undefined) failures[m[1]] = (failures[m[1]] ?? 0) + 1;
    });
  const next = async (type: LoopMessage['type']): Promise<LoopMessage> => {
    for (;;) {
      const [message] = (await Promise.race([
        once(child, 'message'),
        once(child, 'exit').then(() => {
          throw new Error(`a bench server exited:\n${tail}`);
        }),
      ])) as [LoopMessage];
      if (message.type === type) return message;
    }
  };
  const ready = await next('ready');
  if (ready.type !== 'ready') throw new Error('unexpected message');
  const command = (c: LoopCommand) => child.send(c);
  return {
    url: ready.url,
    pid: ready.pid,
    reset: () => command({ type: 'reset' }),
    takeFailures() {
      const taken = failures;
      failures = {};
      return taken;
    },
    async report() {
      const answer = next('report');
      command({ type: 'report' });
      const r = await answer;
      return r.type === 'report'
        ? {
            pid: ready.pid,
            maxMs: r.maxMs,
            p99Ms: r.p99Ms,
            ...(r.writes === undefined ? {} : { writes: r.writes }),
          }
        : { pid: 0, maxMs: 0, p99Ms: 0 };
    },
    async stop() {
      if (child.exitCode !== null) return;
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

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
  // A kwarg of 3,000 entries: each write decodes, merges and hashes it (as a host's grains).
  const kwarg = Object.fromEntries(
    Array.from({ length: 3000 }, (_, i) => [`key_${i}`, `value ${i} `.repeat(4)]),
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

/**
 * The 5xx messages of every server since the last call, once `expected` of them have come (their
 * log lines come over a pipe of their own, after the answers), or after 5 s.
 */
async function takeFailures(
  servers: readonly LoopServer[],
  expected: number,
): Promise<Record<string, number>> {
  const all: Record<string, number> = {};
  let seen = 0;
  for (let waited = 0; ; waited += 50) {
    for (const s of servers)
      for (const [m, n] of Object.entries(s.takeFailures())) {
        all[m] = (all[m] ?? 0) + n;
        seen += n;
      }
    if (seen >= expected || waited >= 5000) return all;
    await sleep(50);
  }
}

/** How many answers of a tally by status were 5xx. */
function serverErrors(statuses: Readonly<Record<string, number>>): number {
  return Object.entries(statuses).reduce((sum, [code, n]) => sum + (Number(code) >= 500 ? n : 0), 0);
}

/** Each server's loop delay since the last reset. */
const delays = (servers: readonly LoopServer[]) => Promise.all(servers.map((s) => s.report()));

/** Both measurements on two fresh processes over a scratch copy of the anchors' 10,000 hosts. */
export async function contentionRun(
  o: { seconds: number; connections: number; warmupSeconds: number },
  log: (line: string) => void,
): Promise<ContentionFigures> {
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
    for (const s of servers) s.reset();
    const load = await measure(
      { name: 'S7c', method: 'POST', path: '/api/tasks', requests, connections: o.connections },
      {
        baseUrl: servers.map((s) => s.url),
        token: TOKEN,
        connections: o.connections,
        seconds: o.seconds,
        warmupSeconds: o.warmupSeconds,
      },
    );
    const loadDelays = await delays(servers);
    const loadFailures = await takeFailures(servers, serverErrors(load.statuses));
    return {
      race: { statuses: raceStatuses, delays: raceDelays, failures: raceFailures },
      load: { ...load, delays: loadDelays, failures: loadFailures },
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
    .join('; ');
}

/** The group commit's figures: writes per commit, the longest group on the loop, the lock waits. */
function writesText(w: Readonly<Record<string, number>> | undefined): string {
  if (w === undefined) return '';
  const n = (key: string) => w[key] ?? Number.NaN;
  return ` (${n('writes')} writes in ${n('commits')} commits, ${(n('writes') / n('commits')).toFixed(1)} a commit; longest group ${n('maxGroupMs').toFixed(1)} ms; lock busy ${n('busy')} times, longest wait ${n('maxLockWaitMs').toFixed(1)} ms off the loop)`;
}

if (require.main === module) {
  const seconds = Number(process.env.CONTENTION_SECONDS ?? 60);
  const connections = Number(process.env.CONTENTION_CONNECTIONS ?? 200);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  contentionRun({ seconds, connections, warmupSeconds: 0 }, say).then(
    (f) => {
      say(
        `race: 300 PATCHes of one task over 2 processes: ${statusText(f.race.statuses)}; ${delayText(f.race.delays)}`,
      );
      say(
        `load: ${seconds} s at ${connections} connections over 2 processes: ${f.load.rps.toFixed(0)} req/s, p50 ${f.load.p50} ms, p99 ${f.load.p99} ms, non-2xx ${f.load.non2xx}, errors ${f.load.errors} (${statusText(f.load.statuses)}); ${delayText(f.load.delays)}`,
      );
      for (const [m, n] of Object.entries(f.load.failures)) say(`  load 5xx x${n}: ${m}`);
    },
    (err: unknown) => {
      process.stderr.write(
        `contention failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
}
