/**
 * The messages a cluster's workers send their primary over the IPC channel (node:cluster): a
 * worker says it listens, or why it could not start. Messages arrive as structured clones,
 * unchecked: `readMessage` accepts only these shapes. (Syncs and VPN reconciles asked of any
 * worker reach the holder of their lease through the store, as between separate instances.)
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

export type ClusterMessage = Listening | Failed;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The message `value` is, or undefined for anything else (another library's message, a bad shape). */
export function readMessage(value: unknown): ClusterMessage | undefined {
  if (!isObject(value)) return undefined;
  const type = value['type'];
  if (type === 'listening' && typeof value['url'] === 'string') return { type, url: value['url'] };
  if (type === 'failed' && typeof value['message'] === 'string') return { type, message: value['message'] };
  return undefined;
}
