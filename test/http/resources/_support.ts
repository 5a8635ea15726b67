/**
 * Helpers of the resource tests beyond test/helpers: the server as a child process (the real CLI,
 * for durability, configuration and shutdown), a peek into the media tables of a SQLite file, the
 * task start format, and a group created in one call.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { TestServer } from '../../helpers';
import { auth } from '../../helpers';

const ROOT = join(__dirname, '..', '..', '..');

export interface ChildServer {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port>`, known once the server logged that it listens. */
  readonly url: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code and signal once the process ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnOptions {
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/**
 * Runs `tsx packages/server/src/cli.ts serve` with only `env` (plus PATH/HOME) as its environment.
 * tsx runs the script in a child of its own and relays SIGTERM/SIGINT to it, but nothing relays
 * SIGKILL: the process gets its own group (`detached`) so `killGroup` reaches the server itself.
 */
export function spawnCli(options: SpawnOptions): {
  child: ChildProcess;
  out: { stdout: string; stderr: string };
  exited: ChildServer['exited'];
} {
  const child = spawn(
    join(ROOT, 'node_modules', '.bin', 'tsx'),
    [join(ROOT, 'packages', 'server', 'src', 'cli.ts'), 'serve'],
    {
      cwd: options.cwd ?? ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => (out.stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (out.stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return { child, out, exited };
}

/** Starts the CLI server on a kernel-chosen port (PORT=0) and waits for its "listening" log line (info). */
export async function startChildServer(options: SpawnOptions, timeoutMs = 20_000): Promise<ChildServer> {
  const { child, out, exited } = spawnCli({
    ...options,
    env: { PORT: '0', HOST: '127.0.0.1', ...options.env, LOG_LEVEL: 'info' },
  });
  const deadline = Date.now() + timeoutMs;
  let port: number | undefined;
  while (port === undefined) {
    const line = out.stdout.split('\n').find((l) => l.includes('"fleet-api listening"'));
    if (line) port = (JSON.parse(line) as { port: number }).port;
    else if (child.exitCode !== null || Date.now() > deadline) {
      killGroup(child, 'SIGKILL');
      throw new Error(`server did not start (exit ${String(child.exitCode)}): ${out.stderr}${out.stdout}`);
    } else await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    exited,
  };
}

/** Sends `signal` to the CLI process and the server process tsx runs under it (kill -9 of both). */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Ends a child server and its group if it still runs (the shutdown tests send SIGTERM themselves). */
export async function stopChild(
  server: { child: ChildProcess; exited: Promise<unknown> } | undefined,
): Promise<void> {
  if (!server) return;
  killGroup(server.child, 'SIGKILL');
  await server.exited;
}

/** Rows of the media tables of a SQLite file (read-only peek: what an upload left behind). */
export function mediaRows(dbPath: string): { files: number; chunks: number } {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const files = (db.prepare('SELECT count(*) AS n FROM media').get() as { n: number }).n;
    const chunks = (db.prepare('SELECT count(*) AS n FROM media_chunks').get() as { n: number }).n;
    return { files, chunks };
  } finally {
    db.close();
  }
}

/** `YYYY-MM-DD HH:MM` in UTC, the format a task's `start` is sent in. */
export function utcMinute(date: Date): string {
  return date.toISOString().slice(0, 16).replace('T', ' ');
}

/** A `where` (or other JSON) query parameter value. */
export function q(value: unknown): string {
  return encodeURIComponent(JSON.stringify(value));
}

/** Creates a group as admin; returns its id (fails the test unless the answer is 201). */
export async function createGroup(t: TestServer, body: Record<string, unknown>): Promise<string> {
  const res = await t.request.post('/api/groups').set(auth('admin')).send(body);
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status: 201 });
  return (res.body as { _id: string })._id;
}

/** The stored `groups` of a host, read through the store port (soft-deleted ones too). */
export async function hostGroups(t: TestServer, host: string): Promise<string[]> {
  const [doc] = await t.store.find('hosts', { _id: host }, { limit: 1 });
  if (!doc) throw new Error(`no host ${host}`);
  return (doc.groups as string[] | undefined) ?? [];
}
