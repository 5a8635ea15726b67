/**
 * WORKERS=N (N > 1): the primary process of a cluster (node:cluster). It does the start's one-time
 * work first (store checked, secret key, admin token, collections and initial items: boot.ts
 * `bootstrapStore`), so no two workers race for them, then forks N workers that share the port
 * (the primary accepts the connections and hands them round-robin to the workers) and the store
 * (SQLite in WAL mode: readers in parallel, one writer at a time; MongoDB as is). Each worker is
 * an instance like any other: the store leases pick the one doing each duty, and a worker that
 * dies hands its duties on within the lease time (docs/scaling.md). The primary restarts a worker
 * that dies (after 1 s, doubling up to 30 s while they keep dying young), and on SIGTERM/SIGINT
 * stops every worker and exits once they have.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { bootstrapStore, type Bootstrapped } from '../boot';
import { clusterMetricsEndpoint } from '../telemetry/listener';
import { ConfigError, type Config } from '../config';
import { createLogger } from '../logger';
import { readMessage, type ClusterMessage } from './messages';
import { WORKER_ENV } from './worker';

/** A worker that ran longer than this before dying is restarted after the shortest delay. */
const YOUNG_MS = 10_000;
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

/** What the primary tells the operator once every worker listens. */
export interface ClusterStarted extends Bootstrapped {
  readonly url: string;
  readonly log: Logger;
  /** The metrics listener's port (every worker's metrics summed), when METRICS_PORT is set. */
  readonly metricsPort?: number;
}

interface Slot {
  worker: Worker;
  listening: boolean;
  started: number;
  delay: number;
}

/** The N workers: forked, watched, restarted, stopped. */
class WorkerPool {
  private readonly slots = new Map<number, Slot>();
  private stopping = false;
  private startup: { resolve: (url: string) => void; reject: (err: Error) => void } | undefined;

  constructor(
    private readonly count: number,
    private readonly log: Logger,
  ) {}

  /** Forks every worker; resolves with the URL once all of them listen, rejects with the first start failure. */
  start(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.startup = { resolve, reject };
      for (let n = 1; n <= this.count; n++) this.fork(n, FIRST_DELAY_MS);
    });
  }

  /** Stops every worker (SIGTERM: each finishes its requests and closes the store); resolves when all exited. */
  async stop(): Promise<void> {
    this.stopping = true;
    const exits = [...this.slots.values()].map(
      ({ worker }) =>
        new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))),
    );
    for (const { worker } of this.slots.values()) if (!worker.isDead()) worker.process.kill('SIGTERM');
    await Promise.all(exits);
  }

  private fork(n: number, delay: number): void {
    const worker = cluster.fork({ [WORKER_ENV]: String(n) });
    this.slots.set(n, { worker, listening: false, started: Date.now(), delay });
    worker.on('message', (value: unknown) => this.onMessage(n, readMessage(value)));
    worker.on('exit', (code, signal) => this.onExit(n, worker, code, signal));
  }

  private onMessage(n: number, message: ClusterMessage | undefined): void {
    const slot = this.slots.get(n);
    if (message === undefined || slot === undefined) return;
    if (message.type === 'listening') {
      slot.listening = true;
      this.log.info({ worker: n, pid: slot.worker.process.pid }, 'worker listening');
      if ([...this.slots.values()].every((s) => s.listening)) this.startup?.resolve(message.url);
    } else {
      this.startup?.reject(new ConfigError(message.message));
    }
  }

  private onExit(n: number, worker: Worker, code: number | null, signal: string | null): void {
    const slot = this.slots.get(n);
    if (slot?.worker !== worker) return;
    if (this.stopping) return;
    if (!slot.listening && this.startup !== undefined) {
      // A worker that never listened failed to start; its `failed` message said why.
      this.startup.reject(
        new ConfigError(
          `worker ${n} exited before it listened (code ${String(code)}, signal ${String(signal)})`,
        ),
      );
      return;
    }
    // Dying young again doubles the wait (a crash loop costs little); a long run resets it.
    const wait = Date.now() - slot.started < YOUNG_MS ? slot.delay : FIRST_DELAY_MS;
    this.log.error({ worker: n, code, signal, restartInMs: wait }, 'worker exited; starting another');
    setTimeout(() => {
      if (!this.stopping) this.fork(n, Math.min(wait * 2, MAX_DELAY_MS));
    }, wait);
  }
}

/** Starts the cluster; `onStopped` runs once every worker has exited after a signal. */
export async function startCluster(
  config: Config,
  onStopped: (code: number) => void,
): Promise<ClusterStarted> {
  if (config.DATABASE_URL === 'memory:')
    throw new ConfigError(
      'Invalid configuration: WORKERS > 1 needs a shared store (DATABASE_URL=memory: is one per process)',
    );
  const log = createLogger(
    config.LOG_LEVEL,
    undefined,
    { cluster: 'primary' },
    { format: config.LOG_FORMAT },
  );
  const booted = await bootstrapStore(config, { log });
  const pool = new WorkerPool(config.WORKERS, log);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down every worker');
    setTimeout(() => onStopped(1), 15_000).unref();
    metrics?.server.close();
    void pool.stop().then(() => onStopped(0));
  };
  const url = await pool.start().catch(async (err: unknown) => {
    await pool.stop();
    throw err;
  });
  const metrics = await clusterMetricsEndpoint(config).catch(async (err: unknown) => {
    await pool.stop();
    throw err;
  });
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  log.info({ workers: config.WORKERS, url }, 'fleet-api cluster listening');
  if (metrics) log.info({ port: metrics.port }, 'metrics listening (GET /metrics, every worker summed)');
  return { ...booted, url, log, ...(metrics ? { metricsPort: metrics.port } : {}) };
}
