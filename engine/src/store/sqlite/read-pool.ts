/**
 * Reads off the event loop. better-sqlite3 is synchronous: a find that visits 50,000 rows, or
 * decodes and matches 10,000 hosts in JavaScript, holds the loop for up to a few hundred
 * milliseconds, and every other request (`/api/health` included) waits behind it, four viewers'
 * worst queries one after another. The store hands those reads, and only those (query.ts
 * `findIsHeavy`, `countIsHeavy`, on a collection of at least `minRows` rows), to a small pool of
 * worker threads, each with its own read-only connection to the file (WAL: readers beside the
 * writer, each statement seeing the last commit). Reads an index serves stay on the store's
 * connection: they cost less than the trip. Writes never leave it.
 */
import { Worker } from 'node:worker_threads';
import { ServiceUnavailable } from '../../errors';
import type { RowBudgetLimits } from './budget';
import { fromWire, type Read, type ReadAnswer, type ReadRequest } from './read-messages';

/** How reads are offloaded: `workers` threads at most (0: never), for collections of `minRows` rows or more. */
export interface ReadOffload {
  readonly workers: number;
  readonly minRows: number;
}

/**
 * Two threads: on two cores one keeps the loop free and a second lets two slow reads go on at
 * once. 2,000 rows: below that a whole in-memory pass costs a few tens of ms (10-50 us a row).
 */
export const DEFAULT_READ_OFFLOAD: ReadOffload = { workers: 2, minRows: 2000 };

/** A thread with nothing to do for this long stops. */
const IDLE_MS = 10_000;

type Pending = { resolve: (answer: ReadAnswer & { ok: true }) => void; reject: (err: Error) => void };

/** The worker's script: TypeScript runs through tsx when this module is TypeScript itself. */
function workerScript(): { source: string } {
  const file = require.resolve('./read-worker');
  const hook = file.endsWith('.ts') ? `require(${JSON.stringify(require.resolve('tsx/cjs'))});` : '';
  return { source: `${hook}require(${JSON.stringify(file)});` };
}

/** One thread and the reads it has not answered yet. */
class ReadThread {
  readonly pending = new Map<number, Pending>();
  private idle: NodeJS.Timeout | undefined;
  private readonly worker: Worker;
  dead = false;

  constructor(path: string, limits: RowBudgetLimits) {
    this.worker = new Worker(workerScript().source, {
      eval: true,
      workerData: { path, limits: { ...limits } },
    });
    // The store's close terminates it; it never holds the process open on its own.
    this.worker.unref();
    this.worker.on('message', (answer: ReadAnswer) => this.settle(answer));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', () => this.fail(new Error('the read worker stopped')));
  }

  send(request: ReadRequest, pending: Pending): void {
    clearTimeout(this.idle);
    this.pending.set(request.id, pending);
    this.worker.postMessage(request);
  }

  async stop(): Promise<void> {
    this.dead = true;
    await this.worker.terminate();
  }

  private settle(answer: ReadAnswer): void {
    const pending = this.pending.get(answer.id);
    if (pending === undefined) return;
    this.pending.delete(answer.id);
    // An idle thread goes, and the memory its heavy reads grew with it (the next read starts one).
    if (this.pending.size === 0) this.idle = setTimeout(() => void this.stop(), IDLE_MS).unref();
    if (answer.ok) pending.resolve(answer);
    else pending.reject(fromWire(answer.error));
  }

  /** The thread is gone (a crash, an exit): what it still had to answer fails as a 503. */
  private fail(err: Error): void {
    this.dead = true;
    for (const pending of this.pending.values())
      pending.reject(new ServiceUnavailable(`a read could not finish: ${err.message}; try again`));
    this.pending.clear();
  }
}

/** The threads of one store, started on first use, the least busy one taking each read. */
export class ReadPool {
  private threads: ReadThread[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly limits: RowBudgetLimits,
    readonly offload: ReadOffload,
  ) {}

  /** Runs `read` on a thread; resolves its answer, rejects with its error (rebuilt: status and text kept). */
  run(read: Read): Promise<ReadAnswer & { ok: true }> {
    if (this.closed) return Promise.reject(new ServiceUnavailable('store is closed'));
    const thread = this.pick();
    const request: ReadRequest = { ...read, id: this.nextId++ };
    return new Promise((resolve, reject) => thread.send(request, { resolve, reject }));
  }

  /** Starts the first thread ahead of the first heavy read (a thread takes most of a second to load). */
  warm(): void {
    if (!this.closed && this.threads.length === 0 && this.offload.workers > 0)
      this.threads.push(new ReadThread(this.path, this.limits));
  }

  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads;
    this.threads = [];
    await Promise.all(threads.map((t) => t.stop()));
  }

  private pick(): ReadThread {
    this.threads = this.threads.filter((t) => !t.dead);
    const idle = this.threads.find((t) => t.pending.size === 0);
    if (idle !== undefined) return idle;
    if (this.threads.length < this.offload.workers) {
      const thread = new ReadThread(this.path, this.limits);
      this.threads.push(thread);
      return thread;
    }
    return this.threads.reduce((best, t) => (t.pending.size < best.pending.size ? t : best));
  }
}
