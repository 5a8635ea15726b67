/**
 * The compensation step of a write: `prepare` may act outside the store (create a record on a
 * peer, such as an organization on the VPN server) before the write is stored, and a later step
 * of the same attempt may still fail it (a reference check, another document of a bulk create, a
 * lost race, a store fault). Every write prepared during an attempt is noted; when the attempt
 * throws, the resource's `onWriteError` hook runs for each, newest first, and the attempt's error
 * goes on unchanged (Feathers' error hooks; the compensating step of a saga).
 */
import type { WriteOp } from '../definition/define';
import type { CallContext } from '../definition/local-api';
import type { AnyItem } from '../definition/infer';
import type { Doc } from '../store/port';
import type { OpsScope } from './context';

interface PreparedWrite {
  readonly op: WriteOp;
  readonly fields: Record<string, unknown>;
  readonly original?: Doc;
}

/** The writes prepared during one attempt, undone by `onWriteError` when the attempt fails. */
export class PreparedWrites {
  private readonly done: PreparedWrite[] = [];

  constructor(
    private readonly s: OpsScope,
    private readonly ctx: CallContext,
  ) {}

  /** Notes a write whose `prepare` has run (only resources with `onWriteError` keep it). */
  note(write: PreparedWrite): void {
    if (this.s.res.def.hooks?.onWriteError !== undefined) this.done.push(write);
  }

  /** Runs `attempt`; when it throws, undoes every write it prepared, then rethrows. */
  async guard<T>(attempt: () => Promise<T>): Promise<T> {
    try {
      return await attempt();
    } catch (error) {
      await this.undo(error);
      throw error;
    }
  }

  private async undo(error: unknown): Promise<void> {
    const hooks = this.s.res.def.hooks;
    if (hooks?.onWriteError === undefined) return;
    for (const w of this.done.splice(0).reverse()) {
      try {
        await hooks.onWriteError({
          op: w.op,
          fields: w.fields,
          error,
          ctx: this.ctx,
          ...(w.original ? { original: w.original as AnyItem } : {}),
        });
      } catch (err) {
        this.ctx.runtime.log.error(
          { resource: this.s.res.name, op: w.op, err: err instanceof Error ? err.message : 'unknown error' },
          'onWriteError hook failed',
        );
      }
    }
  }
}
