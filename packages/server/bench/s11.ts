/**
 * S11, a burst of job returns (`BENCH_ONLY=S11 pnpm bench`, or `tsx packages/server/bench/s11.ts`):
 * the simulated master with 10,000 minions in a child process, `fleet serve` on a fresh store
 * connected to it (its first sync stores the hosts), then a `state.apply` on every minion
 * published straight to the master (as `salt '*'` on the master would): each up minion's return
 * arrives on the event stream and is stored as an action. Measured: the time from the publish
 * until every return is stored (polling the actions of the job's jid), beside the time the master
 * took to send them all (an observer on its event stream), and the anchor query's latency under
 * autocannon during the burst. The minions all finish at once (salt-sim `--return-spacing`,
 * default 0 here, BENCH_S11_SPACING_MS): a large master's bus delivers thousands of returns a
 * second, and the burst is what the API can take, not what the simulator's pacing lets through.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createSaltClient } from '@fleet/salt';
import { REPO, startApi, type ApiChild } from './child';
import { measure, type LoadResult } from './load';
import { ANCHOR_PATH } from './scenarios';
import { TOKEN } from './servers';

/** What one burst measured. */
export interface BurstFigures {
  /** Returns expected (the job's minions that are up) and how many were stored. */
  readonly expected: number;
  readonly stored: number;
  /** From the publish until every return was stored (Infinity when some never were). */
  readonly storeMs: number;
  /** From the publish until the master's last return event (what the master's pacing takes). */
  readonly masterMs: number;
  /** The anchor query during the burst. */
  readonly load: LoadResult;
}

type Say = (line: string) => void;

/** Time between two minions' returns (ms): all at once unless BENCH_S11_SPACING_MS says otherwise. */
const SPACING_MS = Number(process.env.BENCH_S11_SPACING_MS ?? 0);

/** salt-sim in a child; resolves its URL and credentials once it listens. */
function startSim(hosts: number): Promise<{ child: ChildProcess; env: Record<string, string> }> {
  const child = spawn(
    resolve(REPO, 'node_modules/.bin/tsx'),
    [
      'packages/salt-sim/src/cli.ts',
      '--port',
      '0',
      '--hosts',
      String(hosts),
      '--return-spacing',
      String(SPACING_MS),
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((done, fail) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /SALT_API_URL=(\S+) SALT_API_USER=(\S+) SALT_API_PASSWORD=(\S+) SALT_API_EAUTH=(\S+)/.exec(
        out,
      );
      if (line)
        done({
          child,
          env: {
            SALT_API_URL: line[1] ?? '',
            SALT_API_USER: line[2] ?? '',
            SALT_API_PASSWORD: line[3] ?? '',
            SALT_API_EAUTH: line[4] ?? '',
          },
        });
    });
    child.once('exit', (code) => fail(new Error(`salt-sim exited (${String(code)}) before it listened`)));
  });
}

async function total(api: ApiChild, path: string): Promise<number> {
  const res = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const body = (await res.json()) as { _meta?: { total?: number } };
  return body._meta?.total ?? 0;
}

/** Polls until `done()` or `deadlineMs`; resolves whether it was reached. */
async function until(done: () => Promise<boolean>, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if (await done()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** When the `count`-th event under `prefix` came (an observer of the master's stream), or undefined. */
async function lastReturnAt(
  events: AsyncIterable<{ tag: string }>,
  prefix: string,
  count: number,
): Promise<number | undefined> {
  let seen = 0;
  for await (const event of events) {
    if (!event.tag.startsWith(prefix)) continue;
    seen += 1;
    if (seen >= count) return Date.now();
  }
  return undefined;
}

/** One burst on a fresh store: `hosts` minions, a `state.apply` on all of them. */
export async function burst(hosts: number, seconds: number, say: Say): Promise<BurstFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bench-s11-'));
  const sim = await startSim(hosts);
  let api: ApiChild | undefined;
  try {
    api = await startApi(
      {
        DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}`,
        API_TOKENS: `bench=${TOKEN}:admin`,
        LOG_LEVEL: 'warn',
        SNAPSHOT_INTERVAL_S: '86400',
        SYNC_INTERVAL_S: '3600',
        ...sim.env,
      },
      0,
    );
    const server = api;
    const client = createSaltClient({
      url: sim.env.SALT_API_URL ?? '',
      username: sim.env.SALT_API_USER ?? '',
      password: sim.env.SALT_API_PASSWORD ?? '',
      eauth: sim.env.SALT_API_EAUTH ?? 'pam',
      timeouts: { read: 180_000, exec: 180_000 },
    });
    const accepted = (await client.keyFingerprints('*')).accepted;
    const known = Object.keys(accepted).length;
    if (!(await until(async () => (await total(server, '/api/hosts?max_results=1')) >= known, 300_000)))
      throw new Error('the first sync did not store the hosts in 5 minutes');
    say(`S11: ${known} hosts stored by the first sync; publishing state.apply to every minion`);
    // The load starts first; the burst lands inside its measured window.
    const load = measure(
      { name: 'S1 during the burst', method: 'GET', path: ANCHOR_PATH },
      { baseUrl: server.url, token: TOKEN, connections: 10, seconds, warmupSeconds: 0 },
    );
    await new Promise((r) => setTimeout(r, 500));
    // Down minions never return: the burst is the up ones' returns.
    const up = new Set((await client.manageStatus('*')).up);
    const stream = await client.events();
    const started = Date.now();
    const job = await client.localAsync('*', 'state.apply', { arg: ['patches.chrony-pool'] });
    const expected = job.minions.filter((m) => up.has(m)).length;
    const lastReturn = lastReturnAt(stream, `salt/job/${job.jid ?? ''}/ret/`, expected);
    const path = `/api/actions?max_results=1&where=${encodeURIComponent(JSON.stringify({ jid: job.jid }))}`;
    let stored = 0;
    const complete = await until(async () => (stored = await total(server, path)) >= expected, 120_000);
    const storeMs = complete ? Date.now() - started : Number.POSITIVE_INFINITY;
    stream.close();
    const masterMs = ((await lastReturn) ?? Number.NaN) - started;
    client.close();
    return { expected, stored, storeMs, masterMs, load: await load };
  } finally {
    await api?.stop();
    sim.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  burst(Number(process.env.BENCH_S11_HOSTS ?? 10_000), 15, say).then(
    (f) => {
      say(
        `S11: ${f.stored} of ${f.expected} returns stored in ${(f.storeMs / 1000).toFixed(2)} s (<= 5 s; the master sent the last one after ${(f.masterMs / 1000).toFixed(2)} s); ` +
          `S1 during the burst: ${f.load.rps.toFixed(0)} req/s, p50 ${f.load.p50} ms, p99 ${f.load.p99} ms (<= 50 ms), ${f.load.non2xx + f.load.errors} errors`,
      );
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(
        `S11 failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
}
