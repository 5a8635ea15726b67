/**
 * The attack row: `/api/health` while 16 viewers send, back to back, the worst reads the API
 * accepts on the seeded fleet (10,000 hosts, 1,000,000 actions): 1,000-item pages, a projection of
 * 200 dotted paths over them, in-memory sorts and patterns, deep pages. Targets: health p99 <= 100
 * ms in one process and with WORKERS=2, the server's RSS back within 50 MB of its start after the
 * attack, and every attacker request answered 2xx, or 400 / 429 in the error shape (a 429 with
 * `Retry-After`).
 *
 * The health checks run in a process of their own (a plain `node -e` loop), so what they measure
 * is the server, not this process reading 16 large answers. The server's RSS is taken after one
 * pass of every attack read (its read threads started, its caches warm), at the end of the attack,
 * and then every second until it is back within the target (at most {@link SETTLE_S} s).
 */
import { spawn } from 'node:child_process';
import { rssMb, startApi, treeRssMb, type ApiChild } from './child';

/** The bench's admin token, and one viewer token per attacker. */
export const ATTACK_ADMIN = 'bench-token-0123456789abcdef';
export const attackerToken = (n: number): string => `attack-viewer-${String(n).padStart(2, '0')}-0123456789`;

/** How long RSS may take to come back after the attack. */
const SETTLE_S = 30;
/** RSS may end this much above where it started. */
export const RSS_GROWTH_MB = 50;

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const dotted = (top: string) =>
  Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`${top}.k${i}`, 1]));

/** The heaviest reads a viewer may send that the API accepts (docs/limits.md). */
export function attackReads(): readonly string[] {
  return [
    // 200 dotted paths (the most a projection takes) over 1,000 hosts, and over 1,000 actions.
    `/api/hosts?max_results=1000&projection=${q(dotted('grain'))}`,
    `/api/actions?max_results=1000&projection=${q(dotted('args'))}`,
    // Plain 1,000-item pages: every host in full (grains: ~3 MB of JSON), the newest actions.
    `/api/hosts?max_results=1000`,
    `/api/actions?max_results=1000`,
    // Every host decoded and sorted in memory (no index on a grain), 1,000 back.
    `/api/hosts?sort=-grain.osfullname,grain.num_cpus&max_results=1000`,
    // A pattern on an open sub-document: every host decoded and matched in memory, 1,000 back.
    `/api/hosts?where=${q({ 'grain.osfullname': { $regex: `${'.*'.repeat(40)}=` } })}&max_results=1000`,
    // The longest pattern on every host id (RE2 in SQL).
    `/api/hosts?where=${q({ _id: { $regex: `${'[a-z0-9.-]*'.repeat(21)}=` } })}`,
    // A deep page of the actions in index order (skips 1,000,000 entries of the index).
    `/api/actions?page=40000`,
  ];
}

/** What one attack measured. */
export interface AttackFigures {
  readonly checks: number;
  /** Checks that got no 200 (an error, a timeout): counted in the percentiles with their time. */
  readonly failedChecks: number;
  readonly p50: number;
  readonly p99: number;
  readonly worst: number;
  /** Attacker answers by status. */
  readonly statuses: ReadonlyMap<number, number>;
  /** Answers that were neither 2xx nor 400 / 429 in the error shape (with Retry-After on a 429). */
  readonly bad: number;
  /** Requests that got no answer at all (a reset, a refused connection). */
  readonly failed: number;
  readonly rssStart: number;
  readonly rssPeak: number;
  readonly rssEnd: number;
  /** Seconds after the attack until RSS was back within RSS_GROWTH_MB of its start (or SETTLE_S). */
  readonly settleS: number;
  /** One line of the first bad answer, if any. */
  readonly firstBad?: string;
}

/**
 * The health prober: plain JavaScript in its own process, one check every 50 ms whether or not the
 * last one has answered (a stalled server is not asked less often), each timed from its own send;
 * prints the timings as JSON once every check has answered.
 */
const PROBER = `
const [url, seconds] = process.argv.slice(1);
const until = Date.now() + Number(seconds) * 1000;
const checks = [];
const check = async () => {
  const t = performance.now();
  try {
    const res = await fetch(url + '/api/health');
    await res.arrayBuffer();
    return { ms: performance.now() - t, ok: res.status === 200 };
  } catch {
    return { ms: performance.now() - t, ok: false };
  }
};
(async () => {
  while (Date.now() < until) {
    checks.push(check());
    await new Promise((r) => setTimeout(r, 50));
  }
  process.stdout.write(JSON.stringify(await Promise.all(checks)));
})();
`;

/** One health check: how long it took, and whether it answered 200 (a failure counts with its time). */
interface Check {
  readonly ms: number;
  readonly ok: boolean;
}

function probe(url: string, seconds: number): Promise<Check[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', PROBER, url, String(seconds)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(out) as Check[]);
      else reject(new Error(`the health prober exited ${String(code)}: ${err}`));
    });
  });
}

/**
 * Whether an attacker's answer is one the target allows: 2xx, or 400 / 429 in the error shape
 * naming its own code (a 429 with a `Retry-After` of whole seconds, at least one).
 */
export function allowedAnswer(status: number, headers: Headers, text: string): boolean {
  if (status >= 200 && status < 300) return true;
  if (status !== 400 && status !== 429) return false;
  if (status === 429 && !/^[1-9]\d*$/.test(headers.get('retry-after') ?? '')) return false;
  try {
    const body = JSON.parse(text) as { _status?: unknown; _error?: { code?: unknown; message?: unknown } };
    return body._status === 'ERR' && body._error?.code === status && typeof body._error.message === 'string';
  } catch {
    return false;
  }
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;

/** RSS of the server: the process, or with WORKERS=N the primary and its workers. */
const serverRss = (api: ApiChild, cluster: boolean): number =>
  cluster ? treeRssMb(api.serverPid) : rssMb(api.serverPid);

/** Sends every read once with `token` (the read threads start, the caches warm). */
async function warm(api: ApiChild, token: string): Promise<void> {
  for (const path of attackReads())
    await (await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
}

/** Runs `viewers` attackers for `seconds` against a started server, with a health prober beside them. */
export async function runAttack(
  api: ApiChild,
  o: { seconds: number; viewers: number; cluster: boolean },
): Promise<AttackFigures> {
  await warm(api, attackerToken(0));
  const rssStart = serverRss(api, o.cluster);
  let rssPeak = rssStart;
  const statuses = new Map<number, number>();
  let bad = 0;
  let failed = 0;
  let firstBad: string | undefined;
  let attacking = true;
  const reads = attackReads();
  const viewer = async (n: number): Promise<void> => {
    const headers = { authorization: `Bearer ${attackerToken(n)}` };
    for (let i = n; attacking; i += 1) {
      const path = reads[i % reads.length] ?? '/api/hosts';
      try {
        const res = await fetch(`${api.url}${path}`, { headers });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (!allowedAnswer(res.status, res.headers, text)) {
          bad += 1;
          firstBad ??= `${res.status} ${decodeURIComponent(path).slice(0, 80)}: ${text.slice(0, 200)}`;
        }
      } catch (err) {
        failed += 1;
        const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
        firstBad ??= `no answer to ${decodeURIComponent(path).slice(0, 80)}: ${cause}`;
      }
    }
  };
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, serverRss(api, o.cluster))), 500);
  const attackers = Array.from({ length: o.viewers }, (_, n) => viewer(n));
  let checks: Check[];
  try {
    checks = await probe(api.url, o.seconds);
  } finally {
    attacking = false;
    await Promise.all(attackers);
    clearInterval(sampler);
  }
  let rssEnd = serverRss(api, o.cluster);
  let settleS = 0;
  while (rssEnd - rssStart > RSS_GROWTH_MB && settleS < SETTLE_S) {
    await new Promise((r) => setTimeout(r, 1000));
    settleS += 1;
    rssEnd = serverRss(api, o.cluster);
  }
  const health = checks.map((c) => c.ms).sort((a, b) => a - b);
  return {
    checks: health.length,
    failedChecks: checks.filter((c) => !c.ok).length,
    p50: percentile(health, 0.5),
    p99: percentile(health, 0.99),
    worst: health.at(-1) ?? Number.NaN,
    statuses,
    bad,
    failed,
    rssStart,
    rssPeak,
    rssEnd,
    settleS,
    ...(firstBad === undefined ? {} : { firstBad }),
  };
}

/** The environment of an attacked server: the admin token and one viewer token per attacker. */
export function attackEnv(
  dbPath: string,
  viewers: number,
  extra: Record<string, string> = {},
): Record<string, string> {
  const tokens = [
    `bench=${ATTACK_ADMIN}:admin`,
    ...Array.from({ length: viewers }, (_, n) => `attacker${n}=${attackerToken(n)}:viewer`),
  ];
  return {
    DATABASE_URL: `sqlite:${dbPath}`,
    API_TOKENS: tokens.join(','),
    LOG_LEVEL: 'warn',
    SNAPSHOT_INTERVAL_S: '86400',
    ...extra,
  };
}

/** Starts a server on `dbPath` (WORKERS=2 when `cluster`), attacks it, stops it. */
export async function attackServer(
  dbPath: string,
  o: { seconds: number; viewers: number; cluster: boolean },
): Promise<AttackFigures> {
  const api = await startApi(attackEnv(dbPath, o.viewers, o.cluster ? { WORKERS: '2' } : {}), undefined);
  try {
    return await runAttack(api, o);
  } finally {
    await api.stop();
  }
}

/** One line of figures. */
export function attackLine(f: AttackFigures): string {
  const answered = [...f.statuses]
    .sort((a, b) => a[0] - b[0])
    .map(([status, n]) => `${n} x ${status}`)
    .join(', ');
  return [
    `health ${f.checks} checks (${f.failedChecks} failed): p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, worst ${f.worst.toFixed(1)} ms`,
    `attacks answered ${answered}; outside the allowed answers ${f.bad}, no answer ${f.failed}${f.firstBad === undefined ? '' : ` (first: ${f.firstBad})`}`,
    `RSS ${f.rssStart.toFixed(0)} MB before, peak ${f.rssPeak.toFixed(0)} MB, ${f.rssEnd.toFixed(0)} MB ${f.settleS} s after (${(f.rssEnd - f.rssStart).toFixed(0)} MB above its start)`,
  ].join('; ');
}
