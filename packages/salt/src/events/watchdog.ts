/**
 * The idle watchdog of the event stream. salt-api's `/events` writes `retry: 400` once and no
 * keep-alive comments afterwards (app.py `Events.GET`), so a connection a NAT or proxy dropped
 * without a FIN looks exactly like a quiet bus. When the stream has been quiet for `idleMs`, the
 * watchdog makes the master put an event on its bus (`echo`: a wheel call, which fires
 * `salt/wheel/<jid>/new` and `/ret`); if the master answers and still nothing arrives within
 * `waitMs`, the stream is dead and `onDead` reopens it (the consumer then runs the repair sync).
 * If the master does not answer, the stream is left alone: reopening could not succeed, and the
 * sync loop reports the outage.
 */

/** What the watchdog needs. */
export interface WatchdogOptions {
  /** Quiet time after which the stream is checked. */
  readonly idleMs: number;
  /** How long the echo's event may take to arrive once the master has answered. */
  readonly waitMs: number;
  /** Makes the master fire an event; resolves when it has answered. */
  readonly echo: () => Promise<unknown>;
  /** The stream is dead: close it. */
  readonly onDead: (quietMs: number) => void;
  /** The master did not answer the echo (the stream is kept). */
  readonly onMasterSilent: (err: unknown) => void;
}

/** Watches one stream; `saw` on every event, `stop` when the stream ends. */
export class IdleWatchdog {
  private lastSeen = Date.now();
  /** Set while an echo is out; `deadline` once the master has answered it. */
  private probe: { deadline?: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly tickMs: number;

  constructor(private readonly o: WatchdogOptions) {
    this.tickMs = Math.max(10, Math.min(o.idleMs, o.waitMs) / 2);
    this.schedule();
  }

  /** An event arrived: the stream is alive. */
  saw(): void {
    this.lastSeen = Date.now();
    this.probe = undefined;
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
    const probe = this.probe;
    if (probe?.deadline !== undefined && now >= probe.deadline) {
      this.stop();
      this.o.onDead(now - this.lastSeen);
      return;
    }
    if (probe === undefined && now - this.lastSeen >= this.o.idleMs) this.sendEcho();
    this.schedule();
  }

  private sendEcho(): void {
    const probe: { deadline?: number } = {};
    this.probe = probe;
    this.o.echo().then(
      () => { if (this.probe === probe) probe.deadline = Date.now() + this.o.waitMs; },
      (err: unknown) => {
        if (this.probe !== probe) return;
        // Not the stream's fault: wait another idle period before asking again.
        this.probe = undefined;
        this.lastSeen = Date.now();
        this.o.onMasterSilent(err);
      },
    );
  }
}
