/**
 * Creates on the VPN server that leave nothing behind when they fail. The server's creates are
 * not idempotent (names are not unique), and a create that failed may still have
 * happened: an answer the client cannot read, a 5xx after the insert, or no answer in time while
 * the server goes on (organization creation generates an RSA CA and takes seconds).
 * When the answer names what was made, that id is deleted, and nothing else. Otherwise the name is
 * all there is: a create first lists the items of that name (as the server's release stores it);
 * after a failure it lists them again and deletes what is new and not in the store. When the
 * server may still be working (504, dropped connection), it looks again later.
 */
import { GatewayTimeout, HttpError, ServiceUnavailable, type Log } from '@fleet/engine';
import { VpnUnreadableCreate } from '../client-errors';
import { raise, reason, type VpnAlert } from './alerts';
import type { Runtime } from '@fleet/engine';

/** One kind of create. */
export interface CreateSpec<T extends { id: string; name: string }> {
  /** For logs and alerts: `organization "ops" on VPN manager "vpn1"`. */
  readonly what: string;
  /** The items of the name being created, as the server lists them now. */
  readonly list: () => Promise<readonly T[]>;
  readonly create: () => Promise<T>;
  /** Deletes the item of this id. */
  readonly remove: (id: string) => Promise<unknown>;
  /** Ids the store refers to: never removed (a concurrent create of the same name that succeeded). */
  readonly kept: () => Promise<ReadonlySet<string>>;
  /** Alert payload naming the manager and the organization. */
  readonly payload: Record<string, unknown>;
}

/** Creates with cleanup; `close()` cancels the later looks. */
export class Leftovers {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sweeps = new Set<Promise<void>>();

  constructor(
    private readonly o: { readonly runtime: Runtime; readonly log: Log; readonly laterMs: readonly number[] },
  ) {}

  /** Creates; on a server failure, removes what the create may have made, then rethrows. */
  async create<T extends { id: string; name: string }>(spec: CreateSpec<T>): Promise<T> {
    const before = new Set((await spec.list()).map((i) => i.id));
    try {
      return await spec.create();
    } catch (err) {
      if (err instanceof VpnUnreadableCreate) {
        await this.removeMade(spec, err.madeId);
        throw err;
      }
      if (!(err instanceof HttpError) || err.status < 500) throw err;
      const removed = await this.sweep(spec, before);
      if (removed === 0 && (err instanceof GatewayTimeout || err instanceof ServiceUnavailable))
        this.later(spec, before);
      throw err;
    }
  }

  /** Removes the item a create answered (unreadably); a failure raises `vpn.leftover`. Never throws. */
  private async removeMade<T extends { id: string; name: string }>(
    spec: CreateSpec<T>,
    id: string,
  ): Promise<void> {
    try {
      await spec.remove(id);
      this.o.log.warn({ what: spec.what, id }, 'VPN create answered unreadably: removed what it made');
    } catch (err) {
      await this.alert({
        type: 'vpn.leftover',
        level: 'error',
        payload: { ...spec.payload, kind: spec.what, id, error: reason(err) },
      });
    }
  }

  /** Removes the items new since `before` and not in the store; resolves how many. Never throws. */
  private async sweep<T extends { id: string; name: string }>(
    spec: CreateSpec<T>,
    before: ReadonlySet<string>,
  ): Promise<number> {
    let removed = 0;
    try {
      const kept = await spec.kept();
      for (const item of await spec.list()) {
        if (before.has(item.id) || kept.has(item.id)) continue;
        try {
          await spec.remove(item.id);
          removed += 1;
          this.o.log.warn(
            { what: spec.what, id: item.id },
            'VPN create failed but happened: removed what it made',
          );
        } catch (err) {
          await this.alert({
            type: 'vpn.leftover',
            level: 'error',
            payload: { ...spec.payload, kind: spec.what, id: item.id, name: item.name, error: reason(err) },
          });
        }
      }
    } catch (err) {
      this.o.log.warn(
        { what: spec.what, err: reason(err) },
        'VPN create failed; could not check what it left',
      );
    }
    return removed;
  }

  /** Looks again after each delay of `laterMs` until one look removes something. */
  private later<T extends { id: string; name: string }>(
    spec: CreateSpec<T>,
    before: ReadonlySet<string>,
    step = 0,
  ): void {
    const delay = this.o.laterMs[step];
    if (delay === undefined) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const run = this.sweep(spec, before).then((removed) => {
        if (removed === 0) this.later(spec, before, step + 1);
      });
      const done = run.finally(() => this.sweeps.delete(done));
      this.sweeps.add(done);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  private alert(alert: VpnAlert): Promise<void> {
    return raise(this.o.runtime, this.o.log, alert);
  }

  /** Cancels the looks not started; waits for those running. */
  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.sweeps]);
  }
}
