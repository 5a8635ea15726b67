/**
 * Where the rate limits keep their counts (ratelimit.ts decides what a request counts against):
 * a token bucket per key (kind and token name), up to a minute's allowance at once, refilled
 * evenly. `localBuckets` counts this process alone. `sharedBuckets` makes the limit hold across
 * every instance on the store: each instance still decides at once, in memory (a request never
 * waits for the store), and every `syncMs` it writes how many requests it admitted per key and
 * minute (`rate_counts`, one item per instance, key and minute) and reads the others', charging
 * its own buckets for what they admitted. So the deployment admits the limit, plus at most what the
 * other instances admit in the one sync period before each hears of it.
 */
import { systemContext, type Log, type Runtime } from '@fleet/engine';
import { rate_counts } from '@fleet/resources';

/** The counts behind the limits. */
export interface Buckets {
  /** Takes one request from `key`'s bucket of `limit` a minute at `now` (ms): 0, or the seconds until one would pass. */
  take(key: string, limit: number, now: number): number;
}

interface Bucket {
  /** Null until the first request sets the limit (the bucket starts full). */
  tokens: number | null;
  at: number;
  /** Requests other instances admitted, not yet charged. */
  debt: number;
}

const MINUTE_MS = 60_000;

/** What one instance admitted for one key in one minute. */
interface Admitted {
  readonly key: string;
  readonly minute: number;
  count: number;
}

/** Token buckets in memory: the limit per process. `charge` adds what others admitted. */
export class LocalBuckets implements Buckets {
  private readonly buckets = new Map<string, Bucket>();

  take(key: string, limit: number, now: number): number {
    const rate = limit / MINUTE_MS;
    const bucket = this.buckets.get(key) ?? { tokens: null, at: now, debt: 0 };
    const refilled = bucket.tokens === null ? limit : bucket.tokens + (now - bucket.at) * rate;
    bucket.tokens = Math.min(limit, refilled) - bucket.debt;
    bucket.debt = 0;
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rate / 1000));
  }

  /** Charges `key` for `n` requests admitted elsewhere (its bucket may go below zero: a debt). */
  charge(key: string, n: number): void {
    const bucket = this.buckets.get(key) ?? { tokens: null, at: Date.now(), debt: 0 };
    bucket.debt += n;
    this.buckets.set(key, bucket);
  }
}

/** The per-process buckets. */
export function localBuckets(): Buckets {
  return new LocalBuckets();
}

/** What `sharedBuckets` needs. */
export interface SharedOptions {
  readonly runtime: Runtime;
  readonly log: Log;
  /** This process's holder name (unique per process). */
  readonly holder: string;
  /** Between two exchanges with the store (default 1000 ms). */
  readonly syncMs?: number;
}

/** Buckets shared through the store; `stop` ends the exchange after a last write. */
export interface SharedBuckets extends Buckets {
  /** Requests the other instances admitted that this one has charged so far. */
  readonly heard: number;
  stop(): Promise<void>;
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The exchange behind `sharedBuckets`. */
class Exchange implements SharedBuckets {
  private readonly local = new LocalBuckets();
  /** Admitted here per minute and key, and which of them changed since the last write. */
  private readonly admitted = new Map<string, Admitted>();
  private readonly dirty = new Set<string>();
  /** Others' counts as last charged, by item id. */
  private readonly seen = new Map<string, { count: number; minute: number }>();
  private readonly timer: NodeJS.Timeout;
  private syncing: Promise<void> | undefined;
  private prunedMinute = 0;
  heard = 0;

  constructor(private readonly o: SharedOptions) {
    this.timer = setInterval(() => {
      this.syncing ??= this.sync().finally(() => (this.syncing = undefined));
    }, o.syncMs ?? 1000);
    this.timer.unref();
  }

  take(key: string, limit: number, now: number): number {
    const wait = this.local.take(key, limit, now);
    if (wait === 0) {
      const minute = Math.floor(now / MINUTE_MS);
      const slot = `${minute}\u0001${key}`;
      let counted = this.admitted.get(slot);
      if (counted === undefined) {
        counted = { key, minute, count: 0 };
        this.admitted.set(slot, counted);
      }
      counted.count += 1;
      this.dirty.add(slot);
    }
    return wait;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.syncing;
    await this.sync();
  }

  private api() {
    return this.o.runtime.resources.of(rate_counts);
  }

  /** One exchange: our new counts out, the others' in; failures are logged and retried next time. */
  private async sync(): Promise<void> {
    try {
      await this.write();
      await this.read();
      await this.prune();
    } catch (err) {
      this.o.log.warn({ err: errText(err) }, 'rate limit counts could not be shared this time');
    }
  }

  private async write(): Promise<void> {
    if (this.dirty.size === 0) return;
    const slots = [...this.dirty];
    this.dirty.clear();
    const items = slots.flatMap((slot) => {
      const c = this.admitted.get(slot);
      if (c === undefined) return [];
      const _id = `${this.o.holder}|${c.minute}|${encodeURIComponent(c.key)}`;
      return [{ _id, holder: this.o.holder, key: c.key, minute: c.minute, count: c.count }];
    });
    try {
      await this.api().upsertMany(items, systemContext(this.o.runtime));
    } catch (err) {
      for (const slot of slots) this.dirty.add(slot);
      throw err;
    }
  }

  /** Charges our buckets for what the others admitted in the last minute and not yet charged. */
  private async read(): Promise<void> {
    const now = Date.now();
    const others = await this.api().find(
      {
        where: {
          minute: { $gte: Math.floor(now / MINUTE_MS) - 1 },
          holder: { $ne: this.o.holder },
          _updated: { $gte: new Date(now - MINUTE_MS) },
        },
        projection: { key: 1, count: 1, minute: 1 },
      },
      systemContext(this.o.runtime),
    );
    let charged = 0;
    for (const item of others) {
      const delta = item.count - (this.seen.get(item._id)?.count ?? 0);
      if (delta > 0) {
        this.local.charge(item.key, delta);
        charged += delta;
      }
      this.seen.set(item._id, { count: item.count, minute: item.minute });
    }
    this.heard += charged;
    if (charged > 0)
      this.o.log.debug({ charged, heard: this.heard }, 'rate limits: charged what other instances admitted');
  }

  /** Once a minute: our counts and the others' of past minutes go. */
  private async prune(): Promise<void> {
    const minute = Math.floor(Date.now() / MINUTE_MS);
    if (minute === this.prunedMinute) return;
    this.prunedMinute = minute;
    for (const [slot, counted] of this.admitted) if (counted.minute < minute - 1) this.admitted.delete(slot);
    for (const [id, seen] of this.seen) if (seen.minute < minute - 1) this.seen.delete(id);
    // Any instance may delete the old counts of every instance (a dead one's included).
    await this.api().deleteMany({ minute: { $lt: minute - 2 } }, systemContext(this.o.runtime));
  }
}

/** Buckets whose limits hold across every instance on the store. */
export function sharedBuckets(o: SharedOptions): SharedBuckets {
  return new Exchange(o);
}
