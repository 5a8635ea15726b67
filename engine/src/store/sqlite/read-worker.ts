/**
 * A read worker (read-pool.ts): a worker thread with its own read-only connection to the store's
 * file, running the finds and counts that visit rows no index narrows, so that their work never
 * holds the event loop where requests are answered. It runs the very code the store's own
 * connection runs (query.ts), within the same row budgets.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { SqliteDb } from './db';
import { encodeDoc } from './json';
import { countDocs, findDocs } from './query';
import { toWire, type ReadAnswer, type ReadRequest } from './read-messages';

/** What read-pool.ts hands over: `workerData` is untyped, so it is parsed. */
const Setup = z.object({
  path: z.string(),
  limits: z.object({ sqlRows: z.number().int().positive(), memoryRows: z.number().int().positive() }),
});

const setup = Setup.parse(workerData);
const db = new SqliteDb(setup.path, setup.limits, { readOnly: true });

function answer(request: ReadRequest): ReadAnswer {
  try {
    if (request.kind === 'find')
      return {
        id: request.id,
        ok: true,
        texts: findDocs(db, request.info, request.filter, request.options).map(encodeDoc),
      };
    return { id: request.id, ok: true, n: countDocs(db, request.info, request.filter) };
  } catch (err) {
    return { id: request.id, ok: false, error: toWire(err) };
  }
}

// Requests come only from read-pool.ts, in the shape of ReadRequest.
parentPort?.on('message', (request: ReadRequest) => parentPort?.postMessage(answer(request)));
