/**
 * The worker thread of {@link actionBatches}: generates the action rows, sorts each batch by host,
 * and posts the batch as columns, never more than two batches ahead.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { actionRows, type ActionRow } from './actions';
import { sortByHost, toColumns, type WorkerMessage } from './action-batches';
import { creditGate } from './credit';

/** What startWorker (action-batches.ts) hands over: `workerData` is untyped, so it is parsed. */
const WorkerInput = z.object({
  targets: z.array(z.object({ index: z.number(), id: z.string() })),
  options: z.object({
    seed: z.number(),
    now: z.number(),
    total: z.number(),
    spanDays: z.number(),
    batch: z.number(),
  }),
});

const input = WorkerInput.parse(workerData);
const port = parentPort;
const takeCredit = creditGate(port);

async function send(rows: ActionRow[]): Promise<void> {
  await takeCredit();
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
