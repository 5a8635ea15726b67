/**
 * The benchmark seed's bulk load of actions (an `ActionsWriter` for seedFleet): the engine writes
 * the first few thousand through the local API, those are compared with the bulk encoding of the
 * same rows (action-text.ts), byte for byte, and only then are the rest inserted as pre-encoded
 * text through one prepared statement, in large transactions, on a connection of their own. A
 * worker thread generates and encodes (the other core) while this thread inserts. The rows are
 * the engine's: the same table, the same columns, the same texts and etags; the secondary indexes
 * are built after the load by the engine's own declaration (withEngine's `bulk`), and actions
 * have no side tables. This connection does not fsync its commits: a seed cut short is deleted
 * and made again (dataset.ts), and the engine checkpoints the file when it closes.
 */
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { systemContext } from '@fleet/engine';
import { actionDoc, actionRows, type ActionRow } from '../src/seed/actions';
import type { ActionsWriter } from '../src/seed';
import { actionText } from './action-text';
import type { BulkMessage, EncodedBatch } from './bulk-actions-worker';

/** Actions the engine writes itself first: the check of the encoding (every template is among them). */
const CHECKED = 5000;
/** Actions per bulk transaction (~50 MB of WAL). */
const BATCH = 100_000;

/** Cuts a packed batch back into (id, text) pairs and inserts them in one transaction. */
function insertBatch(db: Database.Database, insert: Database.Statement, b: EncodedBatch): void {
  db.transaction(() => {
    let [idStart, textStart] = [0, 0];
    for (let i = 0; i < b.idEnds.length; i += 1) {
      const [idEnd, textEnd] = [b.idEnds[i] ?? 0, b.textEnds[i] ?? 0];
      insert.run(b.ids.slice(idStart, idEnd), b.texts.slice(textStart, textEnd));
      [idStart, textStart] = [idEnd, textEnd];
    }
  })();
}

/** The first `n` rows of the stream. */
function firstRows(rows: Iterable<ActionRow>, n: number): ActionRow[] {
  const out: ActionRow[] = [];
  for (const row of rows) {
    if (out.length >= n) break;
    out.push(row);
  }
  return out;
}

/** Throws unless every row's stored text is its bulk encoding. */
function checkEncoding(db: Database.Database, rows: readonly ActionRow[]): void {
  const read = db.prepare<[string], string>('SELECT doc FROM c_actions WHERE id = ?').pluck();
  for (const row of rows) {
    const stored = read.get(row.id);
    const encoded = actionText(row).text;
    if (stored !== encoded)
      throw new Error(
        `the bulk encoding of action ${row.id} is not what the engine stores; fix bench/action-text.ts\n  engine: ${String(stored)}\n  bulk:   ${encoded}`,
      );
  }
}

function startWorker(data: object): Worker {
  const file = require.resolve('./bulk-actions-worker');
  const hook = file.endsWith('.ts') ? `require(${JSON.stringify(require.resolve('tsx/cjs'))});` : '';
  return new Worker(`${hook}require(${JSON.stringify(file)});`, { eval: true, workerData: data });
}

/** Receives the worker's batches in order, inserting each; resolves each host's latest action. */
function drain(worker: Worker, onBatch: (b: EncodedBatch) => void): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    worker.on('message', (m: BulkMessage) => {
      if (m.kind === 'done') return resolve(new Map(m.lastAction));
      try {
        onBatch(m);
        worker.postMessage('more');
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the bulk actions worker exited with code ${code}`)));
  });
}

/**
 * An `ActionsWriter` that bulk-loads into the SQLite file at `path` (the engine's own store);
 * `checked`: how many actions the engine writes first (default 5,000).
 */
export function bulkActions(path: string, o: { checked?: number } = {}): ActionsWriter {
  return async (runtime, targets, options, onWritten) => {
    const first = Math.min(o.checked ?? CHECKED, options.total);
    const checked = firstRows(actionRows(targets, options), first);
    await runtime.resources.get('actions').createMany(checked.map(actionDoc), systemContext(runtime));
    onWritten?.(checked.length);
    const db = new Database(path);
    try {
      db.pragma('synchronous = OFF');
      db.pragma('cache_size = -262144');
      checkEncoding(db, checked);
      const insert = db.prepare('INSERT INTO c_actions (id, doc) VALUES (?, ?)');
      const { seed, now, total, spanDays } = options;
      const worker = startWorker({
        targets: targets.map((t) => ({ index: t.index, id: t.id })),
        options: { seed, now, total, spanDays },
        skip: checked.length,
        batch: BATCH,
      });
      let count = checked.length;
      try {
        const lastAction = await drain(worker, (b) => {
          insertBatch(db, insert, b);
          count += b.idEnds.length;
          onWritten?.(b.idEnds.length);
        });
        return { count, lastAction };
      } finally {
        await worker.terminate();
      }
    } finally {
      db.close();
    }
  };
}
