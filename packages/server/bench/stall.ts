/**
 * `tsx packages/server/bench/stall.ts`: the worst event-loop stall each hostile request causes on
 * the seeded store (10,000 hosts, 1,000,000 actions; BENCH_HOSTS / BENCH_ACTIONS override), with a
 * viewer token. The server runs in this process, so `monitorEventLoopDelay` (and the widest gap
 * between ticks of a 5 ms interval) sees every stall it causes: while it lasts, no other request
 * of any client is answered, `/api/health` included.
 * Each attack runs once after a warm-up request; the figures feed docs/limits.md. The
 * queries go as a viewer; the hostile bodies, raw requests and uploads of bench/hostile.ts with
 * the role each needs. STALL_ONLY / STALL_SKIP select attacks by name (regular expressions).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startServer } from '../src/boot';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { attackReads } from './attack';
import { ensureDataset } from './dataset';
import { hostileRequests, type Answer, type Attack } from './hostile';

const VIEWER = 'stall-viewer-token-0123456789';
const OPERATOR = 'stall-operator-token-0123456789';
const ADMIN = 'stall-admin-token-0123456789';
const say = (line: string) => process.stdout.write(`${line}\n`);
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

function envInt(name: string, dflt: number): number {
  const n = Number(process.env[name] ?? dflt);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
}

/** A short name of an attack read: its path and query, decoded, cut at 34 characters. */
function attackName(path: string): string {
  const text = decodeURIComponent(path).replace(/^\/api\//, '');
  return text.length > 34 ? `${text.slice(0, 33)}…` : text;
}

/** The hostile queries, each a path a viewer may send. */
function queries(): [string, string][] {
  const nestedIn = `{"_id":{"$in":${'['.repeat(7000)}${']'.repeat(7000)}}}`;
  return [
    ['$regex .*x7= on hosts._id', `/api/hosts?where=${q({ _id: { $regex: '.*.*.*.*.*.*.*=' } })}`],
    [
      '$regex [a-z0-9.-]*x7= on hosts._id',
      `/api/hosts?where=${q({ _id: { $regex: `${'[a-z0-9.-]*'.repeat(7)}=` } })}`,
    ],
    [
      '$regex on actions.action (unindexed)',
      `/api/actions?where=${q({ action: { $regex: 'nomatch$' } })}&max_results=1`,
    ],
    ['actions sort=args (unindexed)', '/api/actions?sort=args&max_results=1'],
    ['actions where user (unindexed)', `/api/actions?where=${q({ user: 'nobody' })}&max_results=1`],
    ['actions where return $exists', `/api/actions?where=${q({ return: { $exists: true } })}&max_results=1`],
    ['actions page 40,000 (offset 1M)', '/api/actions?page=40000&max_results=25'],
    ['actions where host (indexed)', `/api/actions?where=${q({ host: 'nohost' })}&max_results=1`],
    ['actions newest page (indexed)', '/api/actions?max_results=25'],
    ['hosts sort by a grain (in memory)', '/api/hosts?sort=grain.osfullname&max_results=1'],
    [
      'hosts where grain $regex (in memory)',
      `/api/hosts?where=${q({ 'grain.osfullname': { $regex: 'nomatch$' } })}&max_results=1`,
    ],
    // The reads of the attack row (attack.ts): 1,000-item pages, 200 dotted paths, in-memory work.
    ...attackReads().map((path, i): [string, string] => [`attack ${i + 1}: ${attackName(path)}`, path]),
    // Barely encoded: percent-encoding would push it past Node's 16 KB request head (a 431).
    ['$in nested 7,000 deep', `/api/hosts?where=${nestedIn}`],
    ['sort with 2,001 terms', `/api/hosts?sort=${Array.from({ length: 2001 }, () => '_id').join(',')}`],
    ['page 2^53-1', '/api/hosts?page=9007199254740991&max_results=1000'],
  ];
}

interface Outcome {
  readonly status: number;
  readonly ms: number;
  readonly stallMs: number;
  readonly message: string;
}

/** Every attack: the viewer's queries, then the other hostile requests. */
function attacks(): Attack[] {
  const headers = { authorization: `Bearer ${VIEWER}` };
  const asViewer = queries().map(([name, path]): Attack => ({
    name,
    send: async (url) => {
      const res = await fetch(`${url}${path}`, { headers });
      return { status: res.status, text: await res.text() };
    },
  }));
  return [...asViewer, ...hostileRequests({ viewer: VIEWER, operator: OPERATOR, admin: ADMIN })];
}

async function attack(url: string, send: (url: string) => Promise<Answer>): Promise<Outcome> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  // Timestamps too: the largest gap between ticks of a 5 ms interval is the longest stall.
  let last = performance.now();
  let widestGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    widestGap = Math.max(widestGap, now - last);
    last = now;
  }, 5);
  const started = performance.now();
  let status = 0;
  let message: string;
  try {
    const res = await send(url);
    status = res.status;
    message = res.status >= 400 ? res.text.slice(0, 140) : `${res.text.length} bytes`;
  } catch (err) {
    // The client gives up on a head that takes over 300 s (undici's headersTimeout).
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    message = `no answer: ${cause}`;
  }
  const ms = performance.now() - started;
  clearInterval(ticker);
  histogram.disable();
  return { status, ms, stallMs: Math.max(histogram.max / 1e6, widestGap), message };
}

async function main(): Promise<void> {
  const params = {
    hosts: envInt('BENCH_HOSTS', 10_000),
    actions: envInt('BENCH_ACTIONS', 1_000_000),
    seed: 1,
  };
  const dataset = await ensureDataset(params, say);
  const dir = mkdtempSync(join(tmpdir(), 'fleet-stall-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${dataset.path}`,
    API_TOKENS: `viewer=${VIEWER}:viewer,operator=${OPERATOR}:operator,admin=${ADMIN}:admin`,
    LOG_LEVEL: 'fatal',
    SNAPSHOT_INTERVAL_S: '86400',
  });
  const server = await startServer(config, { log: createLogger('fatal'), cwd: dir });
  try {
    await fetch(`${server.url}/api/actions?max_results=1`, {
      headers: { authorization: `Bearer ${VIEWER}` },
    });
    say(`store: ${dataset.counts.hosts} hosts, ${dataset.counts.actions} actions (${dataset.path})`);
    say(`${'attack'.padEnd(40)} status     total   worst stall   answer`);
    // STALL_ONLY / STALL_SKIP: a regular expression on the attack names (a backtracking engine
    // can take hours on the first two, so a "before" run may skip them).
    const only = new RegExp(process.env.STALL_ONLY ?? '');
    const skip = process.env.STALL_SKIP === undefined ? undefined : new RegExp(process.env.STALL_SKIP);
    for (const { name, send } of attacks().filter(
      (a) => only.test(a.name) && !(skip?.test(a.name) ?? false),
    )) {
      const o = await attack(server.url, send);
      const cols = [
        name.padEnd(40),
        String(o.status).padEnd(6),
        `${o.ms.toFixed(0)} ms`.padStart(9),
        `${o.stallMs.toFixed(0)} ms`.padStart(13),
      ];
      say(`${cols.join(' ')}   ${o.message}`);
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
