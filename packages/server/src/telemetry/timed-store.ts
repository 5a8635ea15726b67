/**
 * The store with each operation timed into the metrics (`fleet_store_operation_duration_seconds`,
 * by operation, collection and outcome). Everything else (media, leases, close, an adapter's own
 * extras) passes through untouched.
 */
import type { Store } from '@fleet/engine';
import type { Metrics } from './metrics';

/** The operations timed, and where each finds its collection's name. */
const TIMED = new Set([
  'find',
  'count',
  'insert',
  'update',
  'findOneAndUpdate',
  'delete',
  'aggregate',
  'write',
]);

/** The collection(s) of a call: the first argument, or for `write` the batch's collections. */
function collectionOf(op: string, args: readonly unknown[]): string {
  const first = args[0];
  if (op !== 'write') return typeof first === 'string' ? first : 'unknown';
  if (!Array.isArray(first)) return 'unknown';
  const names = new Set(
    first.map((w: unknown) =>
      w !== null && typeof w === 'object' && 'collection' in w && typeof w.collection === 'string'
        ? w.collection
        : 'unknown',
    ),
  );
  return names.size === 1 ? ([...names][0] ?? 'unknown') : 'several';
}

/** Wraps `store` so each operation's time reaches `metrics`. */
export function timedStore(store: Store, metrics: Metrics): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !TIMED.has(property) || typeof value !== 'function') return value;
      return async (...args: unknown[]): Promise<unknown> => {
        const started = performance.now();
        const collection = collectionOf(property, args);
        try {
          const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          metrics.storeOperation(property, collection, 'ok', (performance.now() - started) / 1000);
          return result;
        } catch (err) {
          metrics.storeOperation(property, collection, 'error', (performance.now() - started) / 1000);
          throw err;
        }
      };
    },
  });
}
