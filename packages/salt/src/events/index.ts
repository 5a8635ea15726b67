/**
 * The live event consumer (issue 4 item 4): reads salt-api `GET /events` (token in the
 * X-Auth-Token header, salt-api notes §3) and turns job returns, key events, minion starts and
 * `vnc/connect` events into store writes as they arrive (handlers.ts). When the stream ends —
 * a dropped connection, a master restart, an expired session (the server closes the stream at
 * the next event, issue #53742) — it reopens with bounded exponential back-off; reopening logs
 * in again when the session was refused. `onReconnect` runs after every reopen so the caller
 * can start a sync that records whatever was returned while the stream was down.
 */
import type { Log, Store } from '@fleet/engine';
import type { SaltClient, SaltEventStream } from '../client';
import { EventHandlers } from './handlers';

/** Options of `startEventConsumer`. */
export interface EventConsumerOptions {
  client: SaltClient;
  store: Store;
  log: Log;
  /** The grain tool key (kept for symmetry with the sync; events carry no grains). */
  toolKey: string;
  /** Called after each reconnect (not after the first connect). */
  onReconnect?: () => void;
  /** Back-off between attempts: `initialMs` (default 500) doubling up to `maxMs` (default 30 s). */
  backoff?: { initialMs?: number; maxMs?: number };
}

/** A stream that lived this long (or delivered events) was healthy: the back-off starts over. */
const HEALTHY_MS = 5_000;

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Starts consuming at once; `stop` closes the stream and resolves when the loop has ended. */
export function startEventConsumer(o: EventConsumerOptions): { stop(): Promise<void>; connected(): boolean } {
  const handlers = new EventHandlers(o.store);
  const initialMs = o.backoff?.initialMs ?? 500;
  const maxMs = o.backoff?.maxMs ?? 30_000;
  let stopped = false;
  let isConnected = false;
  let stream: SaltEventStream | undefined;
  let wake: (() => void) | undefined;

  const sleep = (ms: number): Promise<void> => new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => { clearTimeout(timer); resolve(); };
  });
  const delay = (attempt: number): number => Math.min(maxMs, initialMs * 2 ** attempt) * (0.8 + Math.random() * 0.4);

  /** Reads one stream to its end; resolves whether it was healthy. */
  const consume = async (s: SaltEventStream): Promise<boolean> => {
    const openedAt = Date.now();
    let events = 0;
    for await (const event of s) {
      events += 1;
      try {
        const did = await handlers.handle(event);
        if (did !== undefined) o.log.debug({ tag: event.tag }, `salt event: ${did}`);
      } catch (err) {
        o.log.error({ tag: event.tag, err: errText(err) }, 'salt event could not be recorded (the next sync repairs it)');
      }
    }
    return events > 0 || Date.now() - openedAt >= HEALTHY_MS;
  };

  const opened = (everConnected: boolean): void => {
    isConnected = true;
    o.log.info({}, everConnected ? 'salt event stream reconnected' : 'salt event stream connected');
    if (!everConnected || o.onReconnect === undefined) return;
    try {
      o.onReconnect();
    } catch (err) {
      o.log.error({ err: errText(err) }, 'onReconnect failed');
    }
  };

  const loop = async (): Promise<void> => {
    let attempt = 0;
    let everConnected = false;
    while (!stopped) {
      try {
        stream = await o.client.events();
      } catch (err) {
        const wait = delay(attempt++);
        o.log.warn({ err: errText(err), retryInMs: Math.round(wait) }, 'salt event stream could not be opened');
        await sleep(wait);
        continue;
      }
      if (stopped) break;
      opened(everConnected);
      everConnected = true;
      const healthy = await consume(stream);
      isConnected = false;
      if (stopped) break;
      if (healthy) attempt = 0;
      const wait = delay(attempt++);
      o.log.warn({ reason: await stream.ended, retryInMs: Math.round(wait) }, 'salt event stream ended, reconnecting');
      await sleep(wait);
    }
    stream?.close();
  };
  const running = loop();

  return {
    async stop() {
      stopped = true;
      stream?.close();
      wake?.();
      await running;
      isConnected = false;
    },
    connected: () => isConnected,
  };
}
