/**
 * The flow control of a seed's worker thread: it posts a batch only with a credit in hand, and
 * the main thread gives one back per batch it took, so the worker stays at most `initial`
 * batches ahead of the writer and the batches in memory stay bounded.
 */
import type { MessagePort } from 'node:worker_threads';

/** Resolves once a credit is free and takes it; every message on `port` gives one back. */
export function creditGate(port: MessagePort | null, initial = 2): () => Promise<void> {
  let credit = initial;
  let wake: (() => void) | undefined;
  port?.on('message', () => {
    credit += 1;
    wake?.();
    wake = undefined;
  });
  return async () => {
    while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
    credit -= 1;
  };
}
