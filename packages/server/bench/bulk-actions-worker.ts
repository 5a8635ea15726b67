/**
 * The worker thread of bulk-actions.ts: generates the seed's action rows (one deterministic stream,
 * so one thread), leaves out the first `skip` (the engine wrote those), encodes the others to
 * their stored text (action-text.ts) and posts them in batches, never more than two ahead of the
 * writer. Each batch travels as two long strings and their end offsets: one string clones far
 * faster than 100,000 small ones. Last comes each host's latest action id.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { actionRows } from '../src/seed/actions';
import { creditGate } from '../src/seed/credit';
import { actionText } from './action-text';

/** A batch of encoded actions: `ids` and `texts` cut at `idEnds` / `textEnds`. */
export interface EncodedBatch {
  readonly kind: 'batch';
  readonly ids: string;
  readonly idEnds: Uint32Array;
  readonly texts: string;
  readonly textEnds: Uint32Array;
}

/** What the worker posts. */
export type BulkMessage =
  EncodedBatch | { readonly kind: 'done'; readonly lastAction: ReadonlyArray<readonly [string, string]> };

/** What bulk-actions.ts hands over: `workerData` is untyped, so it is parsed. */
const Input = z.object({
  targets: z.array(z.object({ index: z.number(), id: z.string() })),
  options: z.object({ seed: z.number(), now: z.number(), total: z.number(), spanDays: z.number() }),
  skip: z.number(),
  batch: z.number(),
});

const input = Input.parse(workerData);
const port = parentPort;
const takeCredit = creditGate(port);

/** Packs strings into one text and its end offsets. */
function pack(parts: readonly string[]): { text: string; ends: Uint32Array<ArrayBuffer> } {
  const ends = new Uint32Array(parts.length);
  let end = 0;
  parts.forEach((p, i) => (ends[i] = end += p.length));
  return { text: parts.join(''), ends };
}

async function send(ids: string[], texts: string[]): Promise<void> {
  await takeCredit();
  const [i, t] = [pack(ids), pack(texts)];
  const message: BulkMessage = {
    kind: 'batch',
    ids: i.text,
    idEnds: i.ends,
    texts: t.text,
    textEnds: t.ends,
  };
  port?.postMessage(message, [i.ends.buffer, t.ends.buffer]);
}

async function run(): Promise<void> {
  const lastAction = new Map<string, string>();
  let ids: string[] = [];
  let texts: string[] = [];
  let seen = 0;
  for (const row of actionRows(input.targets, input.options)) {
    // Rows come in time order, each host's in time order: the last one seen is the latest.
    lastAction.set(row.host, row.id);
    seen += 1;
    if (seen <= input.skip) continue;
    const encoded = actionText(row);
    ids.push(encoded.id);
    texts.push(encoded.text);
    if (ids.length >= input.batch) {
      await send(ids, texts);
      ids = [];
      texts = [];
    }
  }
  if (ids.length > 0) await send(ids, texts);
  const done: BulkMessage = { kind: 'done', lastAction: [...lastAction] };
  port?.postMessage(done);
  port?.close();
}

void run();
