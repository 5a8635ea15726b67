/**
 * Actions in sorted batches, ready for `createMany`. Past a size, the rows are made on a worker
 * thread (the other core) while this thread writes: validation, etags, JSON encoding and SQLite's
 * index upkeep then run beside the generation instead of after it. Batches travel as columns (a
 * few arrays) because cloning 50,000 objects costs more than rebuilding them.
 */
import { Worker } from 'node:worker_threads';
import type { Doc } from '@fleet/engine';
import { at } from './at';
import { actionDoc, actionRows, type ActionOptions, type ActionRow, type HostRef } from './actions';

/** A batch of actions as parallel arrays. */
export interface ActionColumns {
  readonly id: string[];
  readonly jid: string[];
  readonly template: Uint8Array;
  readonly host: string[];
  readonly output: string[];
  readonly success: Uint8Array;
  readonly user: Uint8Array;
  readonly created: Float64Array;
}

/** Options of {@link actionBatches}. */
export interface ActionBatchOptions extends ActionOptions {
  /** Actions per batch. */
  readonly batch: number;
  /** Use a worker thread when there are at least this many actions (default 100,000). */
  readonly parallelFrom?: number;
}

/** Message from the worker. */
export type WorkerMessage =
  { readonly kind: 'batch'; readonly columns: ActionColumns } | { readonly kind: 'done' };

/**
 * Sorted by host (a stable sort: each host's actions stay in time order). It changes nothing
 * stored, only the order the B-trees are walked: the random inserts into the (host, _created)
 * index become one sequential sweep per batch.
 */
export function sortByHost(rows: ActionRow[]): ActionRow[] {
  return rows.sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
}

/** Rows -> columns. */
export function toColumns(rows: readonly ActionRow[]): ActionColumns {
  return {
    id: rows.map((r) => r.id),
    jid: rows.map((r) => r.jid),
    template: Uint8Array.from(rows, (r) => r.template),
    host: rows.map((r) => r.host),
    output: rows.map((r) => r.output),
    success: Uint8Array.from(rows, (r) => (r.success ? 1 : 0)),
    user: Uint8Array.from(rows, (r) => r.user),
    created: Float64Array.from(rows, (r) => r.created),
  };
}

/** Columns -> items. */
export function fromColumns(c: ActionColumns): Doc[] {
  const docs: Doc[] = new Array<Doc>(c.id.length);
  for (let i = 0; i < c.id.length; i += 1) {
    const row: ActionRow = {
      id: at(c.id, i),
      jid: at(c.jid, i),
      template: at(c.template, i),
      host: at(c.host, i),
      output: at(c.output, i),
      success: c.success[i] === 1,
      user: at(c.user, i),
      created: at(c.created, i),
    };
    docs[i] = actionDoc(row);
  }
  return docs;
}

function* inline(targets: readonly HostRef[], options: ActionBatchOptions): Generator<Doc[]> {
  let rows: ActionRow[] = [];
  for (const row of actionRows(targets, options)) {
    rows.push(row);
    if (rows.length >= options.batch) {
      yield sortByHost(rows).map((r) => actionDoc(r));
      rows = [];
    }
  }
  if (rows.length > 0) yield sortByHost(rows).map((r) => actionDoc(r));
}

/** The worker runs TypeScript through tsx when this module itself is TypeScript. */
function startWorker(targets: readonly HostRef[], options: ActionBatchOptions): Worker {
  const file = require.resolve('./actions-worker');
  const hook = file.endsWith('.ts') ? `require(${JSON.stringify(require.resolve('tsx/cjs'))});` : '';
  const workerData = { targets: targets.map((t) => ({ index: t.index, id: t.id })), options: { ...options } };
  return new Worker(`${hook}require(${JSON.stringify(file)});`, { eval: true, workerData });
}

async function* threaded(targets: readonly HostRef[], options: ActionBatchOptions): AsyncGenerator<Doc[]> {
  const worker = startWorker(targets, options);
  const queue: WorkerMessage[] = [];
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  worker.on('message', (m: WorkerMessage) => {
    queue.push(m);
    notify();
  });
  worker.on('error', (err) => {
    failure = err;
    notify();
  });
  worker.on('exit', (code) => {
    if (code !== 0) failure ??= new Error(`the actions worker exited with code ${code}`);
    notify();
  });
  try {
    for (;;) {
      const message = queue.shift();
      if (message === undefined) {
        if (failure !== undefined)
          throw failure instanceof Error
            ? failure
            : new Error(`the actions worker failed: ${JSON.stringify(failure)}`);
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (message.kind === 'done') return;
      // One credit back per batch taken: the worker stays at most two batches ahead.
      worker.postMessage('more');
      yield fromColumns(message.columns);
    }
  } finally {
    await worker.terminate();
  }
}

/** The actions in batches sorted by host, made on a worker thread for large counts. */
export function actionBatches(
  targets: readonly HostRef[],
  options: ActionBatchOptions,
): AsyncIterable<Doc[]> | Iterable<Doc[]> {
  return options.total >= (options.parallelFrom ?? 100_000)
    ? threaded(targets, options)
    : inline(targets, options);
}
