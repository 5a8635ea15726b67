/**
 * The bench's side of loop-server.ts: `fleet serve` processes forked with IPC, each reporting its
 * event loop's delays and its store's group commit figures on request, and the 5xx answers it
 * logged, by message.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO } from './child';
import type { LoopCommand, LoopMessage } from './loop-server';
import { TOKEN } from './servers';

/** One process's loop over a measurement, in ms. */
export interface LoopDelay {
  readonly pid: number;
  readonly maxMs: number;
  readonly p99Ms: number;
  /** The store's group commit figures since the process started (loop-server.ts). */
  readonly writes?: Readonly<Record<string, number>>;
}

/** A server process of the bench. */
export interface LoopServer {
  readonly url: string;
  readonly pid: number;
  reset(): void;
  report(): Promise<LoopDelay>;
  /** The 5xx answers it logged so far, by message (and empties the tally). */
  takeFailures(): Record<string, number>;
  stop(): Promise<void>;
}

/** Starts `fleet serve` on the SQLite file `file` (admin token: servers.ts TOKEN); resolves once it listens. */
export async function startLoopServer(file: string): Promise<LoopServer> {
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

/**
 * The 5xx messages of every server since the last call, once `expected` of them have come (their
 * log lines come over a pipe of their own, after the answers), or after 5 s.
 */
export async function takeFailures(
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
export function serverErrors(statuses: Readonly<Record<string, number>>): number {
  return Object.entries(statuses).reduce((sum, [code, n]) => sum + (Number(code) >= 500 ? n : 0), 0);
}

/** Each server's loop delay since the last reset. */
export const delays = (servers: readonly LoopServer[]) => Promise.all(servers.map((s) => s.report()));
