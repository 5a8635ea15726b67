/**
 * Holding a store lease for as long as the process lives. Every `renewMs` the holder renews it
 * and every other instance asks for it; the lease lives `ttlMs` past its last renewal, so when
 * its holder dies another instance gets it within ttl + renew. `held` is the local fence: true
 * only until the expiry of the last renewal this process wrote, so a holder whose renewals stall
 * (a store outage, a frozen event loop) stops acting as the holder before anyone can take over.
 */
import type { LeaseStore, Log } from '@fleet/engine';
import type { LeaseTimes } from './table';

/** What a keeper needs. */
export interface KeeperOptions {
  readonly leases: LeaseStore;
  readonly name: string;
  readonly holder: string;
  readonly times: LeaseTimes;
  readonly log: Log;
  /**
   * This process got the lease. `takeover`: it had found another holder first (that one died or
   * stopped), as opposed to finding the lease free at its first request.
   */
  readonly onGained?: (takeover: boolean) => void;
  /** This process no longer holds the lease (another took it over, or renewals failed past its expiry). */
  readonly onLost?: () => void;
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** One lease, held while the process lives; `start` begins, `stop` releases. */
export class LeaseKeeper {
  private holding = false;
  /** Local expiry of the lease: the start of the last successful request plus the TTL. */
  private heldUntil = 0;
  private sawOther = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;

  constructor(private readonly o: KeeperOptions) {}

  /** Whether this process holds the lease now (and may act as the duty's one instance). */
  get held(): boolean {
    return this.holding && Date.now() < this.heldUntil;
  }

  /** Whether this process has found the lease held by another instance (before holding it, or after losing it). */
  get contended(): boolean {
    return this.sawOther;
  }

  /** The lease's name. */
  get name(): string {
    return this.o.name;
  }

  /** Asks for the lease now, then keeps asking or renewing every `renewMs`. */
  start(): void {
    this.plan(0);
  }

  /** Stops renewing and releases the lease if held (another instance takes it within renewMs). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.beating;
    if (!this.holding) return;
    this.holding = false;
    await this.o.leases.release(this.o.name, this.o.holder).catch((err: unknown) => {
      this.o.log.warn(
        { lease: this.o.name, err: errText(err) },
        'lease release failed; it expires by itself',
      );
    });
  }

  private plan(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.beating = this.beat().finally(() => this.plan(this.o.times.renewMs));
    }, delayMs);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    const started = Date.now();
    const { leases, name, holder, times } = this.o;
    try {
      if (this.holding) {
        if ((await leases.renew(name, holder, times.ttlMs)) === null)
          this.lose('another instance took it over');
        else this.heldUntil = started + times.ttlMs;
        return;
      }
      if ((await leases.acquire(name, holder, times.ttlMs)) === null) {
        this.sawOther = true;
        return;
      }
      if (this.stopped) {
        await leases.release(name, holder);
        return;
      }
      this.holding = true;
      this.heldUntil = started + times.ttlMs;
      this.o.log.info({ lease: name, takeover: this.sawOther }, 'lease taken: this instance does the duty');
      this.o.onGained?.(this.sawOther);
    } catch (err) {
      this.o.log.warn({ lease: name, err: errText(err) }, 'lease request failed; asking again');
      if (this.holding && Date.now() >= this.heldUntil) this.lose('renewals failed past its expiry');
    }
  }

  private lose(why: string): void {
    this.holding = false;
    this.sawOther = true;
    this.o.log.warn({ lease: this.o.name, why }, 'lease lost: this instance no longer does the duty');
    this.o.onLost?.();
  }
}
