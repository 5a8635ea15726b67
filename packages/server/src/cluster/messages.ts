/**
 * The messages a cluster's primary and workers exchange over the IPC channel (node:cluster): a
 * worker says it listens (or why it could not start), and a sync asked of a worker without the
 * sync loop travels to worker 1 and its outcome back. Messages arrive as structured clones,
 * unchecked: `readMessage` accepts only these shapes.
 */

/** A worker listens at `url`. */
export interface Listening {
  readonly type: 'listening';
  readonly url: string;
}

/** A worker could not start (its one-line reason). */
export interface Failed {
  readonly type: 'failed';
  readonly message: string;
}

/** Run a sync now (worker -> primary -> worker 1); `id` pairs the answer with the question. */
export interface SyncAsk {
  readonly type: 'sync';
  readonly id: number;
}

/** The outcome of a `SyncAsk`: the report, or the error's HTTP status and message. */
export type SyncAnswer =
  | { readonly type: 'sync-result'; readonly id: number; readonly ok: true; readonly report: unknown }
  | {
      readonly type: 'sync-result';
      readonly id: number;
      readonly ok: false;
      readonly status: number;
      readonly message: string;
    };

export type ClusterMessage = Listening | Failed | SyncAsk | SyncAnswer;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

function readAnswer(m: Record<string, unknown>): SyncAnswer | undefined {
  const id = m['id'];
  if (!isId(id)) return undefined;
  if (m['ok'] === true) return { type: 'sync-result', id, ok: true, report: m['report'] };
  const status = m['status'];
  const message = m['message'];
  if (m['ok'] !== false || !isId(status) || typeof message !== 'string') return undefined;
  return { type: 'sync-result', id, ok: false, status, message };
}

/** The message `value` is, or undefined for anything else (another library's message, a bad shape). */
export function readMessage(value: unknown): ClusterMessage | undefined {
  if (!isObject(value)) return undefined;
  const type = value['type'];
  if (type === 'listening' && typeof value['url'] === 'string') return { type, url: value['url'] };
  if (type === 'failed' && typeof value['message'] === 'string') return { type, message: value['message'] };
  if (type === 'sync' && isId(value['id'])) return { type, id: value['id'] };
  if (type === 'sync-result') return readAnswer(value);
  return undefined;
}
