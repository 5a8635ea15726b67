/**
 * The idle watchdog of the event stream. salt-api's `/events` writes `retry: 400` once and no
 * keep-alive comments afterwards (app.py `Events.GET`), so a connection a NAT or proxy dropped
 * without a FIN looks exactly like a quiet bus. When the stream has been quiet for `idleMs`, the
 * watchdog makes the master put an event on its bus (`echo`: a wheel call, which fires
 * `salt/wheel/<jid>/new` and `/ret`); if the master answers and still nothing arrives within
 * `waitMs`, the stream is dead and `onDead` reopens it (the consumer then runs the repair sync).
 * If the master does not answer, the stream is left alone: reopening could not succeed, and the
 * sync loop reports the outage. Arrival is read from the stream itself (`lastSeen`), not from the
 * consumer, so slow event handling never looks like a silent stream.
 */

/** What the watchdog needs. */
export interface WatchdogOptions {
  /** Quiet time after which the stream is checked. */
  readonly idleMs: number;
  /** How long the echo's event may take to arrive once the master has answered. */
  readonly waitMs: number;
  /** When the stream last delivered something (epoch ms). */
  readonly lastSeen: () => number;
  /** Makes the master fire an event; resolves when it has answered. */
  readonly echo: () => Promise<unknown>;
  /** The stream is dead: close it. */
  readonly onDead: (quietMs: number) => void;
  /** The master did not answer the echo (the stream is kept). */
  readonly onMasterSilent: (err: unknown) => void;
}

/** An echo in flight: when it was sent, and its deadline once the master has answered. */
interface Probe {
  readonly sentAt: number;
  deadline?: number;
}

/** Watches one stream until `stop` (call it when the stream ends). */
export class IdleWatchdog {
  /** Quiet time counts from here at the earliest (the start, or an echo the master left unanswered). */
  private restAt = Date.now();
  private probe: Probe | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly tickMs: number;

  constructor(private readonly o: WatchdogOptions) {
    this.tickMs = Math.max(10, Math.min(o.idleMs, o.waitMs) / 2);
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.check(), this.tickMs);
    this.timer.unref();
  }

  private check(): void {
    const now = Date.now();
    const seen = this.o.lastSeen();
    // Anything that arrived after the echo was sent shows the stream alive.
    if (this.probe !== undefined && seen >= this.probe.sentAt) this.probe = undefined;
    const deadline = this.probe?.deadline;
    if (deadline !== undefined && now >= deadline) {
      this.stop();
      this.o.onDead(now - seen);
      return;
    }
    if (this.probe === undefined && now - Math.max(seen, this.restAt) >= this.o.idleMs) this.sendEcho(now);
    this.schedule();
  }

  private sendEcho(now: number): void {
    const probe: Probe = { sentAt: now };
    this.probe = probe;
    this.o.echo().then(
      () => {
        if (this.probe === probe) probe.deadline = Date.now() + this.o.waitMs;
      },
      (err: unknown) => {
        if (this.probe !== probe) return;
        // Not the stream's fault: wait another idle period before asking again.
        this.probe = undefined;
        this.restAt = Date.now();
        this.o.onMasterSilent(err);
      },
    );
  }
}
