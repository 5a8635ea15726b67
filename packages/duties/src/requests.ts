/**
 * On-demand runs across instances, through the store (the `duty_requests` resource). An instance
 * without a duty's lease that is asked to run it (`POST /api/master/sync` behind a load balancer)
 * writes a request and waits; the holder's desk takes it with a versioned write (so one holder
 * runs it), runs it after the run in progress, keeps `alive` current meanwhile and writes the
 * outcome, which the asking instance answers with and then deletes. A request nobody takes within
 * two lease times (no holder: the asking instance takes the lease and its own desk answers), or a
 * run whose holder goes silent as long, ends in 503.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  HttpError,
  NotFound,
  PreconditionFailed,
  ServiceUnavailable,
  stampNow,
  systemContext,
  type ItemOf,
  type Runtime,
  type WriteDataOf,
} from '@fleet/engine';
import { duty_requests } from '@fleet/resources';
import type { DutyContext } from './table';

type Request = ItemOf<typeof duty_requests>;

/** Between two looks at a request by the instance waiting for it. */
const WAIT_POLL_MS = 50;
/** Between two looks for new requests by the holder's desk. */
export const DESK_POLL_MS = 200;
/** Requests left by an instance that died while waiting are deleted after this long. */
const LEFTOVER_MS = 3_600_000;

/** Names a duty in the answers: "the fleet sync". */
export interface Relayed {
  readonly lease: string;
  readonly what: string;
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const requests = (runtime: Runtime) => runtime.resources.of(duty_requests);

/** The request as it is now; null once deleted. */
async function current(runtime: Runtime, id: string): Promise<Request | null> {
  try {
    return await requests(runtime).get(id, systemContext(runtime));
  } catch (err) {
    if (err instanceof NotFound) return null;
    throw err;
  }
}

/** Asks the holder of `duty` to run it (limited to `arg`); resolves its result, or rethrows its failure. */
export async function askHolder(
  ctx: DutyContext,
  duty: Relayed,
  arg: string | null,
): Promise<Record<string, unknown>> {
  const { runtime } = ctx;
  const asked = await requests(runtime).create(
    { duty: duty.lease, arg, state: 'asked', asked_by: ctx.holder },
    systemContext(runtime),
  );
  const patienceMs = 2 * ctx.times.ttlMs;
  try {
    for (;;) {
      await sleep(WAIT_POLL_MS);
      const r = await current(runtime, asked._id);
      if (r === null) throw new ServiceUnavailable(`${duty.what}: the request was withdrawn; try again`, 1);
      if (r.state === 'done') return r.result ?? {};
      if (r.state === 'failed') throw new HttpError(r.status ?? 500, r.message ?? `${duty.what} failed`);
      const since = r.state === 'running' ? (r.alive ?? r._updated) : r._created;
      if (Date.now() - since.getTime() > patienceMs)
        throw new ServiceUnavailable(
          r.state === 'running'
            ? `${duty.what}: the instance running it stopped answering during the run; try again`
            : `${duty.what} runs on another instance, which did not take the request within ${Math.round(patienceMs / 1000)} s; try again`,
          Math.ceil(ctx.times.ttlMs / 1000),
        );
    }
  } finally {
    await requests(runtime)
      .delete(asked._id, systemContext(runtime))
      .catch(() => undefined);
  }
}

/** What the desk runs a request with: the duty's queue (after the run in progress). */
export type Runner = (arg: string | null) => Promise<unknown>;

/** The holder's side: takes the requests of one duty while open. */
export class RequestDesk {
  private timer: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;
  private readonly serving = new Map<string, Promise<void>>();
  private heartbeat: NodeJS.Timeout | undefined;
  private isOpen = false;

  constructor(
    private readonly ctx: DutyContext,
    private readonly duty: Relayed,
    private readonly run: Runner,
  ) {}

  /** Starts taking requests (the lease was gained). */
  open(): void {
    if (this.isOpen) return;
    this.isOpen = true;
    this.plan(0);
    void this.sweep();
    this.heartbeat = setInterval(() => void this.beat(), this.ctx.times.renewMs);
    this.heartbeat.unref();
  }

  /** Stops taking requests (the lease was lost, or the process stops); the runs taken finish. */
  async close(): Promise<void> {
    this.isOpen = false;
    clearTimeout(this.timer);
    await this.looking;
    await Promise.allSettled([...this.serving.values()]);
    clearInterval(this.heartbeat);
  }

  private plan(delayMs: number): void {
    if (!this.isOpen) return;
    this.timer = setTimeout(() => {
      this.looking = this.look()
        .catch((err: unknown) =>
          this.ctx.log.warn({ duty: this.duty.lease, err: errText(err) }, 'looking for asked runs failed'),
        )
        .finally(() => this.plan(DESK_POLL_MS));
    }, delayMs);
    this.timer.unref();
  }

  /** Deletes the requests of askers that died waiting (each new holder does it once). */
  private async sweep(): Promise<void> {
    const before = new Date(Date.now() - LEFTOVER_MS);
    await requests(this.ctx.runtime)
      .deleteMany({ duty: this.duty.lease, _updated: { $lt: before } }, systemContext(this.ctx.runtime))
      .catch(() => 0);
  }

  /** Takes every request asked so far. */
  private async look(): Promise<void> {
    const ctx = systemContext(this.ctx.runtime);
    const asked = await requests(this.ctx.runtime).find(
      { where: { duty: this.duty.lease, state: 'asked' }, sort: [['_created', 1]], limit: 50 },
      ctx,
    );
    for (const r of asked) {
      if (!this.isOpen) return;
      const taken = await this.take(r);
      if (taken) this.serve(r);
    }
  }

  private async take(r: Request): Promise<boolean> {
    try {
      await requests(this.ctx.runtime).patch(
        r._id,
        { state: 'running', run_by: this.ctx.holder, alive: stampNow() },
        systemContext(this.ctx.runtime),
        { ifMatch: r._etag },
      );
      return true;
    } catch (err) {
      // Withdrawn, or taken by another holder (a lease that changed hands meanwhile).
      if (err instanceof PreconditionFailed || err instanceof NotFound) return false;
      throw err;
    }
  }

  private serve(r: Request): void {
    const served = this.run(r.arg)
      .then(
        (result) => this.settle(r._id, { state: 'done', result: resultObject(result) }),
        (err: unknown) =>
          this.settle(r._id, {
            state: 'failed',
            status: err instanceof HttpError ? err.status : 500,
            message: errText(err),
          }),
      )
      .finally(() => this.serving.delete(r._id));
    this.serving.set(r._id, served);
  }

  private async settle(id: string, outcome: WriteDataOf<(typeof duty_requests)['fields']>): Promise<void> {
    await requests(this.ctx.runtime)
      .patch(id, outcome, systemContext(this.ctx.runtime))
      .catch((err: unknown) => {
        // Withdrawn meanwhile: the asking instance gave up; nobody reads the outcome.
        if (!(err instanceof NotFound))
          this.ctx.log.warn(
            { duty: this.duty.lease, err: errText(err) },
            'an asked run ended but its outcome could not be written',
          );
      });
  }

  /** Keeps the runs taken looking alive to the instances waiting for them. */
  private async beat(): Promise<void> {
    const ids = [...this.serving.keys()];
    if (ids.length === 0) return;
    await requests(this.ctx.runtime)
      .patchMany(
        { _id: { $in: ids }, state: 'running' },
        { alive: stampNow() },
        systemContext(this.ctx.runtime),
      )
      .catch(() => 0);
  }
}

/** A run's result as the stored object (the sync's report, the reconcile's answer). */
function resultObject(result: unknown): Record<string, unknown> {
  if (result !== null && typeof result === 'object' && !Array.isArray(result))
    return JSON.parse(JSON.stringify(result)) as Record<string, unknown>;
  return { result: result ?? null };
}
