/**
 * A loop that, on every instance, claims the due items of a collection (claim.ts) and handles
 * them: the `local_async` jobs to poll, the hosts to sample. Work spreads over the instances
 * (each takes what is due when it looks), each item is handled by one instance at a time, and
 * the items of an instance that dies come due again for the others.
 */
import {
  systemContext,
  type AnyItem,
  type AnyWriteData,
  type Collection,
  type Log,
  type Runtime,
} from '@fleet/engine';
import { claimDue, type ClaimSpec } from './claim';

/** What a claim loop claims and how it handles what it claimed. */
export interface ClaimLoopOptions<I extends AnyItem, W extends AnyWriteData> {
  readonly runtime: Runtime;
  readonly log: Log;
  /** Names the work in logs: "async job follow-up". */
  readonly what: string;
  /** Between two looks for due items. */
  readonly everyMs: number;
  /** The collection (local API). */
  readonly api: Collection<I, W>;
  /** The due set at `now` and the claim's write. */
  readonly spec: (now: Date) => ClaimSpec<I, W>;
  /** Handles one claimed item (errors are logged; the item comes due again by its claim). */
  readonly handle: (item: I) => Promise<void>;
  /** Most items handled at once by this instance (default 8). */
  readonly concurrency?: number;
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Claims and handles due items every `everyMs` until `stop`. */
export class ClaimLoop<I extends AnyItem, W extends AnyWriteData> {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private readonly handling = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly o: ClaimLoopOptions<I, W>) {
    this.plan(0);
  }

  /** Items this instance handles now. */
  get busy(): number {
    return this.handling.size;
  }

  /** Stops looking; resolves once the items being handled are done. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round;
    await Promise.allSettled([...this.handling]);
  }

  private plan(delayMs: number): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.round = this.claimAll()
        .catch((err: unknown) => this.o.log.warn({ err: errText(err) }, `${this.o.what}: claiming failed`))
        .finally(() => {
          this.round = undefined;
          this.plan(this.o.everyMs);
        });
    }, delayMs);
    this.timer.unref();
  }

  /** Claims due items while there are any and room to handle them. */
  private async claimAll(): Promise<void> {
    const limit = this.o.concurrency ?? 8;
    while (!this.stopped && this.handling.size < limit) {
      const now = new Date();
      const item = await claimDue(this.o.api, this.o.spec(now), systemContext(this.o.runtime));
      if (item === null) return;
      const handled = this.o
        .handle(item)
        .catch((err: unknown) =>
          this.o.log.warn({ id: item._id, err: errText(err) }, `${this.o.what} failed; it comes due again`),
        )
        .finally(() => this.handling.delete(handled));
      this.handling.add(handled);
    }
  }
}
