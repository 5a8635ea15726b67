/**
 * A periodic duty: runs every `intervalMs` on the one instance holding its lease (LeaseKeeper),
 * one run at a time, and on demand from any instance (`runNow`: here when this instance holds the
 * lease, else through the store to the holder, requests.ts). A run asked while another is in
 * progress is queued once after it, and every later ask of the same kind shares that queued run.
 * With `recorded`, each run's start and end are kept in the duty's `duties` item, and a new
 * holder plans its first run one interval after the last one recorded: the deployment keeps one
 * cadence whoever holds the lease, and a takeover is no reason to run early.
 */
import { Conflict, stampNow } from '@fleet/engine';
import { dutyRecord, noteDuty } from './ledger';
import { LeaseKeeper } from './keeper';
import { askHolder, RequestDesk, type Relayed } from './requests';
import type { DutyContext } from './table';

/** What a periodic duty runs and when. */
export interface PeriodicOptions<R> {
  readonly ctx: DutyContext;
  readonly duty: Relayed;
  /** Between two runs on the holder; 0: only on demand. */
  readonly intervalMs: number;
  /** The first run once held, when no run is recorded: at once, or one interval later. */
  readonly first: 'now' | 'after-interval';
  /** Keep each run's times in the `duties` item; a new holder continues the recorded cadence. */
  readonly recorded: boolean;
  /** The run; `arg` limits it (a VPN manager), null for a whole run. */
  readonly run: (arg: string | null) => Promise<R>;
  /**
   * Runs asked on instances without the lease reach the holder through the store; this reads the
   * holder's stored answer back (absent: such asks are refused with 409).
   */
  readonly revive?: (stored: Record<string, unknown>) => R;
  /**
   * Why a run that returned is a failure all the same (a sync that found the master unreachable):
   * recorded as the run's `last_error`, so every instance can tell. Undefined: it succeeded.
   */
  readonly failureOf?: (result: R) => string | undefined;
  /** Work for a new holder before its first run (may throw: logged, the duty goes on). */
  readonly onGained?: (takeover: boolean) => Promise<void>;
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** One duty: its lease, its timer, its queue and (when relayed) its desk. */
export class PeriodicDuty<R> {
  private readonly keeper: LeaseKeeper;
  private readonly desk: RequestDesk | undefined;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly queued = new Map<string, Promise<R>>();
  private preparing: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly o: PeriodicOptions<R>) {
    const { ctx, duty } = o;
    this.keeper = new LeaseKeeper({
      leases: ctx.runtime.leases,
      name: duty.lease,
      holder: ctx.holder,
      times: ctx.times,
      log: ctx.log,
      onGained: (takeover) => this.gained(takeover),
      onLost: () => this.lost(),
    });
    this.desk = o.revive ? new RequestDesk(ctx, duty, (arg) => this.enqueue(arg)) : undefined;
    this.keeper.start();
  }

  /** Whether this instance holds the duty now. */
  get held(): boolean {
    return this.keeper.held;
  }

  /** Runs now (after the run in progress): here when held, else on the holder. */
  async runNow(arg: string | null = null): Promise<R> {
    if (this.stopped) throw new Conflict(`${this.o.duty.what} is stopped`);
    if (this.keeper.held) return this.enqueue(arg);
    if (this.o.revive === undefined)
      throw new Conflict(
        `${this.o.duty.what} runs on another instance; try again there or wait for its next run`,
      );
    return this.o.revive(await askHolder(this.o.ctx, this.o.duty, arg));
  }

  /** Stops the timer and the desk, waits for the runs in progress, releases the lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.desk?.close();
    await Promise.allSettled([this.preparing, this.chain]);
    await this.keeper.stop();
  }

  private gained(takeover: boolean): void {
    this.preparing = this.prepare(takeover).catch((err: unknown) =>
      this.o.ctx.log.warn(
        { duty: this.o.duty.lease, err: errText(err) },
        'duty could not plan its first run',
      ),
    );
  }

  private async prepare(takeover: boolean): Promise<void> {
    const { ctx, duty } = this.o;
    await noteDuty(ctx, duty.lease, { holder: ctx.holder, since: stampNow() });
    if (this.o.onGained)
      await this.o.onGained(takeover).catch((err: unknown) => {
        ctx.log.warn({ duty: duty.lease, err: errText(err) }, 'duty preparation failed');
      });
    if (this.stopped || !this.keeper.held) return;
    this.desk?.open();
    if (this.o.intervalMs > 0) this.plan(await this.firstDelay());
  }

  /** How long until the first run of a new holder. */
  private async firstDelay(): Promise<number> {
    const last = this.o.recorded
      ? ((await dutyRecord(this.o.ctx.runtime, this.o.duty.lease))?.last_started ?? null)
      : null;
    if (last === null) return this.o.first === 'now' ? 0 : this.o.intervalMs;
    return Math.max(0, last.getTime() + this.o.intervalMs - Date.now());
  }

  private lost(): void {
    clearTimeout(this.timer);
    void this.desk?.close();
  }

  private plan(delayMs: number): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  /** One periodic run, then the next one planned an interval after this one started. */
  private async tick(): Promise<void> {
    if (!this.keeper.held) return;
    const started = Date.now();
    await this.enqueue(null).catch(() => undefined);
    if (this.keeper.held) this.plan(Math.max(0, this.o.intervalMs - (Date.now() - started)));
  }

  /** Queues a run after the one in progress; an identical run already queued is shared. */
  private enqueue(arg: string | null): Promise<R> {
    const key = arg ?? '';
    const waiting = this.queued.get(key);
    if (waiting !== undefined) return waiting;
    const next = this.chain
      .catch(() => undefined)
      .then(() => {
        this.queued.delete(key);
        return this.execute(arg);
      });
    this.queued.set(key, next);
    this.chain = next;
    return next;
  }

  /** One run, recorded when asked to. */
  private async execute(arg: string | null): Promise<R> {
    const { ctx, duty } = this.o;
    if (this.o.recorded) await noteDuty(ctx, duty.lease, { last_started: stampNow() });
    try {
      const result = await this.o.run(arg);
      if (this.o.recorded)
        await noteDuty(ctx, duty.lease, {
          last_finished: stampNow(),
          last_error: this.o.failureOf?.(result) ?? null,
        });
      return result;
    } catch (err) {
      ctx.log.error({ duty: duty.lease, err: errText(err) }, `${duty.what} failed`);
      if (this.o.recorded)
        await noteDuty(ctx, duty.lease, { last_finished: stampNow(), last_error: errText(err) });
      throw err;
    }
  }
}
