/**
 * The scale-out rig: N API processes (`fleet serve`, the bin as an operator starts it) on one
 * store behind a round-robin balancer (balancer.ts), all on loopback ports. The store is a fresh
 * SQLite file, or a fresh database of the MongoDB named by `databaseUrl`. Each instance's output
 * is kept (JSON log lines); an instance can be killed (SIGKILL: no goodbye, its leases run out)
 * and started again on the same store.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBalancer, type Balancer } from './balancer';
import { until } from './until';

const BIN = join(__dirname, '..', '..', 'packages', 'server', 'bin', 'fleet.cjs');
/** The secret key of every rig instance (they must share one to read each other's secrets). */
export const RIG_SECRET_KEY = 'rig-secret-key-0123456789abcdef';

/** One API process of the rig. */
export interface RigInstance {
  /** 1..N */
  readonly n: number;
  readonly child: ChildProcess;
  readonly pid: number;
  /** Its own URL (the balancer's upstream). */
  readonly url: string;
  /** Its output so far. */
  output(): string;
  /** Its JSON log lines so far. */
  lines(): Record<string, unknown>[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** What the rig runs. */
export interface RigOptions {
  /** How many API processes (default 3). */
  readonly instances?: number;
  /** Their environment besides the rig's own (PORT, HOST, DATABASE_URL, SECRET_KEY). */
  readonly env: Readonly<Record<string, string>>;
  /** `mongodb://...` (a fresh database is made in it); default: a SQLite file in a temp dir. */
  readonly databaseUrl?: string;
}

/** A running rig. */
export interface Rig {
  /** The balancer's URL: what a client talks to. */
  readonly url: string;
  readonly balancer: Balancer;
  /** The instances by number (a restarted one replaces its slot). */
  readonly instances: RigInstance[];
  /** The store every instance opens. */
  readonly databaseUrl: string;
  /** The temp dir (the SQLite file's). */
  readonly dir: string;
  /** Every instance's output, in instance order (dead ones included). */
  output(): string;
  /** Kills instance `n` with `signal` (default SIGKILL) and waits for its exit. */
  kill(n: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts instance `n` again on the same store, in the balancer's turn again. */
  restart(n: number): Promise<RigInstance>;
  /** Stops every instance (SIGTERM, then SIGKILL), the balancer, and removes the temp dir. */
  close(): Promise<void>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON lines of an output. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        const value: unknown = JSON.parse(line);
        return isRecord(value) ? [value] : [];
      } catch {
        return [];
      }
    });
}

/** Starts `fleet serve` with `env`; resolves once it announced its URL. */
async function startInstance(n: number, env: NodeJS.ProcessEnv, cwd: string): Promise<RigInstance> {
  const child = spawn(process.execPath, [BIN, 'serve'], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const announced = (): string | undefined => /API docs: (\S+)\/api\/docs/.exec(text)?.[1];
  await until(
    () => {
      if (child.exitCode !== null)
        throw new Error(`instance ${n} exited before it listened:\n${text.slice(-3000)}`);
      return announced() !== undefined;
    },
    `instance ${n} to listen`,
    120_000,
  );
  return {
    n,
    child,
    pid: child.pid ?? 0,
    url: announced() ?? '',
    output: () => text,
    lines: () => jsonLines(text),
    exited,
  };
}

/** Starts the instances (all at once, as a deployment does) and the balancer. */
export async function startRig(o: RigOptions): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-rig-'));
  const databaseUrl = o.databaseUrl ?? `sqlite:${join(dir, 'fleet.db')}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'info',
    ...o.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    SECRET_KEY: RIG_SECRET_KEY,
  };
  const count = o.instances ?? 3;
  const gone: RigInstance[] = [];
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) => startInstance(i + 1, env, dir)),
  );
  const instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed !== undefined) {
    for (const i of instances) i.child.kill('SIGKILL');
    await Promise.all(instances.map((i) => i.exited));
    rmSync(dir, { recursive: true, force: true });
    throw failed.reason;
  }
  const balancer = await startBalancer(instances.map((i) => i.url));
  const rig: Rig = {
    url: balancer.url,
    balancer,
    instances,
    databaseUrl,
    dir,
    output: () => [...gone, ...instances].map((i) => i.output()).join(''),
    async kill(n, signal = 'SIGKILL') {
      const instance = instances[n - 1];
      if (instance === undefined || instance.child.exitCode !== null) return;
      instance.child.kill(signal);
      await instance.exited;
    },
    async restart(n) {
      const old = instances[n - 1];
      if (old !== undefined) gone.push(old);
      const fresh = await startInstance(n, env, dir);
      instances[n - 1] = fresh;
      balancer.upstreams[n - 1] = fresh.url;
      return fresh;
    },
    async close() {
      await Promise.all(
        instances.map(async (i) => {
          if (i.child.exitCode !== null || i.child.signalCode !== null) return;
          const force = setTimeout(() => i.child.kill('SIGKILL'), 15_000);
          i.child.kill('SIGTERM');
          await i.exited;
          clearTimeout(force);
        }),
      );
      await balancer.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return rig;
}
