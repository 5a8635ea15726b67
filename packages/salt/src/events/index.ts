/**
 * The live event consumer: reads salt-api `GET /events` (token in the
 * X-Auth-Token header, salt/netapi/rest_cherrypy/app.py) and turns job returns, key events, minion starts and
 * `vnc/connect` events into store writes as they arrive (handlers.ts). When the stream ends —
 * a dropped connection, a master restart, an expired session (the server closes the stream at
 * the next event from 3005 on, issue #53742) — it reopens with bounded exponential back-off;
 * reopening logs in again when the session was refused. A stream that goes silent without
 * ending (salt-api sends no keep-alives: a dropped connection is quiet) is caught by TCP
 * keep-alive on its socket (client/events.ts) and, much sooner, by the idle watchdog
 * (watchdog.ts), which reopens it when it stays quiet while the master answers. `onReconnect`
 * runs after every reopen so the caller can start a sync that records whatever was returned
 * while the stream was down. One instance of a deployment reads the stream: leased.ts.
 */
import type { Log, Runtime } from '@fleet/engine';
import type { SaltClient, SaltEvent, SaltEventStream } from '../client';
import { EventHandlers } from './handlers';
import { IdleWatchdog } from './watchdog';

/** Options of `startEventConsumer`. */
export interface EventConsumerOptions {
  client: SaltClient;
  /** The engine's runtime: events are recorded through its local API. */
  runtime: Runtime;
  log: Log;
  /** The grain tool key (kept for symmetry with the sync; events carry no grains). */
  toolKey: string;
  /** Called after each reconnect (not after the first connect, unless `resumes`). */
  onReconnect?: () => void;
  /**
   * This reader takes over from an earlier one (another instance's, or this one's before a
   * restart): events may have been missed in between, so the first connect counts as a reconnect.
   */
  resumes?: boolean;
  /** Whether this process is still the stream's one reader (the lease's fence); events are dropped once it is not. */
  isReader?: () => boolean;
  /** Told of every event received (metrics, readiness), before it is handled. Must not throw. */
  onEvent?: (tag: string) => void;
  /** Back-off between attempts: `initialMs` (default 500) doubling up to `maxMs` (default 30 s). */
  backoff?: { initialMs?: number; maxMs?: number };
  /** Quiet time after which the stream is checked (SALT_EVENTS_IDLE_S; default 120 s). */
  idleMs?: number;
  /** How long the check's own event may take once the master answered (default min(10 s, idleMs)). */
  echoWaitMs?: number;
}

/** Default of `idleMs`: one cheap wheel call per two quiet minutes; a dead stream is seen within ~2 min. */
export const DEFAULT_EVENTS_IDLE_MS = 120_000;

/**
 * Events handled as one batch at most: a burst's returns are stored a few hundred at a time
 * (one group commit each), and the loop turns between batches to serve requests.
 */
export const MAX_BATCH = 100;

/** A stream that lived this long (or delivered events) was healthy: the back-off starts over. */
const HEALTHY_MS = 5_000;

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The reconnecting read loop behind `startEventConsumer`. */
class EventConsumer {
  private readonly handlers: EventHandlers;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private stopped = false;
  private isConnected = false;
  private stream: SaltEventStream | undefined;
  private wake: (() => void) | undefined;
  readonly running: Promise<void>;

  constructor(private readonly o: EventConsumerOptions) {
    this.handlers = new EventHandlers(o.runtime, undefined, o.client.user);
    this.initialMs = o.backoff?.initialMs ?? 500;
    this.maxMs = o.backoff?.maxMs ?? 30_000;
    this.running = this.loop();
  }

  get connected(): boolean {
    return this.isConnected;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stream?.close();
    this.wake?.();
    await this.running;
    this.isConnected = false;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Bounded exponential back-off with ±20 % jitter (instances do not reconnect in lockstep). */
  private delay(attempt: number): number {
    return Math.min(this.maxMs, this.initialMs * 2 ** attempt) * (0.8 + Math.random() * 0.4);
  }

  private watch(s: SaltEventStream): IdleWatchdog {
    const idleMs = this.o.idleMs ?? DEFAULT_EVENTS_IDLE_MS;
    return new IdleWatchdog({
      idleMs,
      waitMs: this.o.echoWaitMs ?? Math.min(10_000, idleMs),
      lastSeen: () => s.lastEventAt,
      echo: () => this.o.client.echo(),
      onDead: (quietMs) => {
        this.o.log.warn({ quietMs }, 'salt event stream silent although the master answers: reopening it');
        s.close();
      },
      onMasterSilent: (err) =>
        this.o.log.warn(
          { err: errText(err) },
          'salt event stream quiet and the master does not answer; keeping the stream',
        ),
    });
  }

  /** Reads one stream to its end; resolves whether it was healthy. */
  private async consume(s: SaltEventStream): Promise<boolean> {
    const openedAt = Date.now();
    let events = 0;
    const watchdog = this.watch(s);
    try {
      for await (const event of s) {
        // What arrived while the last batch was being stored is handled as one batch: a burst of
        // job returns costs a few group commits rather than one each.
        const batch = [event, ...s.takeReady(MAX_BATCH - 1)];
        events += batch.length;
        for (const e of batch) this.o.onEvent?.(e.tag);
        await this.handle(batch);
      }
    } finally {
      watchdog.stop();
    }
    return events > 0 || Date.now() - openedAt >= HEALTHY_MS;
  }

  private async handle(batch: readonly SaltEvent[]): Promise<void> {
    // Another instance reads the stream now (this one lost its lease): it handles these events.
    if (this.o.isReader?.() === false) return;
    for (const { tag, did, err } of await this.handlers.handleBatch(batch)) {
      if (err !== undefined)
        this.o.log.error(
          { tag, err: errText(err) },
          'salt event could not be recorded (the next sync repairs it)',
        );
      else if (did !== undefined) this.o.log.debug({ tag }, `salt event: ${did}`);
    }
  }

  private opened(reconnect: boolean): void {
    this.isConnected = true;
    this.o.log.info({}, reconnect ? 'salt event stream reconnected' : 'salt event stream connected');
    if (!(reconnect || this.o.resumes === true) || this.o.onReconnect === undefined) return;
    try {
      this.o.onReconnect();
    } catch (err) {
      this.o.log.error({ err: errText(err) }, 'onReconnect failed');
    }
  }

  private async loop(): Promise<void> {
    let attempt = 0;
    let everConnected = false;
    while (!this.stopped) {
      try {
        this.stream = await this.o.client.events();
      } catch (err) {
        const wait = this.delay(attempt++);
        this.o.log.warn(
          { err: errText(err), retryInMs: Math.round(wait) },
          'salt event stream could not be opened',
        );
        await this.sleep(wait);
        continue;
      }
      if (this.stopped) break;
      this.opened(everConnected);
      everConnected = true;
      const healthy = await this.consume(this.stream);
      this.isConnected = false;
      if (this.stopped) break;
      attempt = healthy ? 0 : attempt;
      const wait = this.delay(attempt++);
      this.o.log.warn(
        { reason: await this.stream.ended, retryInMs: Math.round(wait) },
        'salt event stream ended, reconnecting',
      );
      await this.sleep(wait);
    }
    this.stream?.close();
  }
}

/** Starts consuming at once; `stop` closes the stream and resolves when the loop has ended. */
export function startEventConsumer(o: EventConsumerOptions): { stop(): Promise<void>; connected(): boolean } {
  const consumer = new EventConsumer(o);
  return { stop: () => consumer.stop(), connected: () => consumer.connected };
}
