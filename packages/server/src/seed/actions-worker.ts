/**
 * The worker thread of {@link actionBatches}: generates the action rows, sorts each batch by host,
 * and posts the batch as columns, never more than two batches ahead.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { HostRef } from './actions';
import { actionRows, type ActionRow } from './actions';
import { sortByHost, toColumns, type ActionBatchOptions, type WorkerMessage } from './action-batches';

const input = workerData as { targets: HostRef[]; options: ActionBatchOptions };
const port = parentPort;
let credit = 2;
let wake: (() => void) | undefined;

port?.on('message', () => {
  credit += 1;
  wake?.();
  wake = undefined;
});

async function send(rows: ActionRow[]): Promise<void> {
  while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
  credit -= 1;
  const message: WorkerMessage = { kind: 'batch', columns: toColumns(sortByHost(rows)) };
  port?.postMessage(message);
}

async function run(): Promise<void> {
  let rows: ActionRow[] = [];
  for (const row of actionRows(input.targets, input.options)) {
    rows.push(row);
    if (rows.length >= input.options.batch) {
      await send(rows);
      rows = [];
    }
  }
  if (rows.length > 0) await send(rows);
  const done: WorkerMessage = { kind: 'done' };
  port?.postMessage(done);
  port?.close();
}

void run();
