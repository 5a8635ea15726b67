/**
 * The API under test as a child process (`tsx packages/server/src/cli.ts serve`), pinned to one
 * core when taskset is there, with its cold start time and the RSS of the real server process
 * (tsx runs the script in a child of its own).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { resolve } from 'node:path';

/** The repository root (this file is packages/server/bench/child.ts). */
export const REPO = resolve(__dirname, '../../..');

/** `taskset -c <core>` when it exists and there are two cores or more; else nothing. */
export function pinTo(core: number): string[] {
  if (cpus().length < 2) return [];
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return ['taskset', '-c', String(core)];
  } catch {
    return [];
  }
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Resident set size of a process in MB (VmRSS), or NaN once it is gone. */
export function rssMb(pid: number): number {
  try {
    const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line?.[1] === undefined ? Number.NaN : Number(line[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

function descendants(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const kid of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)) {
        out.push(Number(kid), ...descendants(Number(kid)));
      }
    }
  } catch {
    // Gone, or no /proc: nothing below it.
  }
  return out;
}

/** The inode of the socket listening on `port` (IPv4 or IPv6), from /proc/net/tcp*. */
function listeningInode(port: number): string | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    try {
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const cols = line.trim().split(/\s+/);
        // local_address is ADDR:PORT, st 0A is LISTEN, inode is column 10.
        if (cols[1]?.endsWith(`:${hexPort}`) && cols[3] === '0A') return cols[9];
      }
    } catch {
      // No such table.
    }
  }
  return undefined;
}

/**
 * The process that owns the listening socket: tsx runs the script in a child of its own, and that
 * child has helpers of its own (esbuild), so neither the spawned pid nor the deepest one is it.
 */
function serverProcess(root: number, port: number): number {
  const inode = listeningInode(port);
  if (inode === undefined) return root;
  for (const pid of [root, ...descendants(root)]) {
    try {
      if (
        readdirSync(`/proc/${pid}/fd`).some(
          (fd) => readlinkSafe(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`,
        )
      )
        return pid;
    } catch {
      // Not ours to read, or gone.
    }
  }
  return root;
}

function readlinkSafe(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** A running API child. */
export interface ApiChild {
  readonly url: string;
  /** The process serving HTTP (a child of the tsx wrapper). */
  readonly serverPid: number;
  readonly coldStartMs: number;
  /** Set once the child has exited: the exit code or signal. */
  exited(): string | undefined;
  /** SIGTERM, then wait for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
  /** The last lines of its output, for a crash report. */
  output(): string;
}

/**
 * RSS of the server and of the node processes below it, in MB: a cluster's primary and its
 * workers (WORKERS=N), not esbuild's service process that tsx starts.
 */
export function treeRssMb(pid: number): number {
  const nodes = [pid, ...descendants(pid).filter((kid) => comm(kid) === 'node')];
  return nodes.reduce((sum, p) => sum + (Number.isNaN(rssMb(p)) ? 0 : rssMb(p)), 0);
}

function comm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Spawns the API on `env` (pinned to `core`, or free on every core) and waits for the first 200 of /api/health. */
export async function startApi(env: Record<string, string>, core: number | undefined): Promise<ApiChild> {
  const port = await freePort();
  const started = process.hrtime.bigint();
  const pin = core === undefined ? [] : pinTo(core);
  const command = [...pin, resolve(REPO, 'node_modules/.bin/tsx'), 'packages/server/src/cli.ts', 'serve'];
  const child: ChildProcess = spawn(command[0] as string, command.slice(1), {
    cwd: REPO,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exit: string | undefined;
  child.on('exit', (code, signal) => (exit = signal ?? String(code)));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (exit !== undefined) throw new Error(`the API exited (${exit}) before it answered:\n${tail}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (process.hrtime.bigint() - started > 120_000_000_000n)
      throw new Error(`the API did not answer /api/health in 120 s:\n${tail}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const coldStartMs = Number(process.hrtime.bigint() - started) / 1e6;
  return {
    url,
    serverPid: serverProcess(child.pid ?? 0, port),
    coldStartMs,
    exited: () => exit,
    output: () => tail,
    async stop() {
      if (exit !== undefined) return;
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}
