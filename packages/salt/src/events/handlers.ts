/**
 * What each master event does to the store (salt/minion.py, salt/utils/event.py):
 * - `salt/job/<jid>/ret/<mid>` -> `recordReturns` (action, failed patch, patch alert, last_action);
 *   returns of bookkeeping jobs (the sync's grains, manage.status pings, a `local_batch` call's
 *   ping) are skipped, known from their `salt/job/<jid>/new` event or the `metadata` the return
 *   echoes. Who ran it: the fleet user from `metadata.fleet_user` (Salt's return events carry no
 *   `user`: `minion.py` `_thread_return` never sets one, 2018.3 to 3006); no name is written
 *   when the return does not say;
 * - `salt/key` accept / reject -> the host's `key`; delete -> `key: denied`, `status: down`
 *   (the host is kept, as the sync keeps hosts the master forgot);
 * - `salt/minion/<mid>/start` -> `status: up`, `heartbeat: now` (+ `host.up` when it was down);
 * - `vnc/connect` (a minion's `event.send`: payload under `data.data`; a runner's: in `data`)
 *   -> a `vnc.connect` info alert with `{hostname, status}` (stored once per event).
 * Hosts not stored yet are left to the next sync, which creates them with every field.
 */
import { createHash } from 'node:crypto';
import { Conflict, NotFound, stampNow, systemContext, type Runtime } from '@fleet/engine';
import { alerts, hosts } from '@fleet/resources';
import { eventPayload, text, type SaltEvent } from '../client';
import { alert, fleetUserOf, raiseAlert, recordReturns, type JobReturn } from '../record';
import { isBatchPing, isBookkeeping } from '../sync/noise';

const RET = /^salt\/job\/([^/]+)\/ret\/(.+)$/;
const NEW = /^salt\/job\/([^/]+)\/new$/;
const START = /^salt\/minion\/(.+)\/start$/;
const KEY_STATES: Readonly<Record<string, 'accepted' | 'rejected' | 'denied'>> = {
  accept: 'accepted',
  reject: 'rejected',
  delete: 'denied',
};
/** How many bookkeeping jids are remembered (a few syncs' worth). */
const MAX_IGNORED = 2000;

/** Adds `jid` to a set that keeps the newest MAX_IGNORED. */
function remember(set: Set<string>, jid: string): void {
  set.add(jid);
  if (set.size <= MAX_IGNORED) return;
  const oldest = set.values().next();
  if (oldest.done !== true) set.delete(oldest.value);
}

/** What handling one event did: a line for the log, nothing (not for us), or the error that stopped it. */
export interface Handled {
  readonly tag: string;
  readonly did?: string;
  readonly err?: unknown;
}

/** Runs one event's work, its error kept rather than thrown. */
async function settle(tag: string, work: () => Promise<string | undefined>): Promise<Handled> {
  try {
    const did = await work();
    return did === undefined ? { tag } : { tag, did };
  } catch (err) {
    return { tag, err };
  }
}

function hasMetadata(v: unknown): boolean {
  return v !== null && typeof v === 'object' && Object.keys(v).length > 0;
}

/** Dispatches events to the store; keeps the jids of bookkeeping jobs seen in `new` events. */
export class EventHandlers {
  private readonly ignored = new Set<string>();
  /** Jobs that look like a batch ping at publication: their returns tell (they echo no metadata). */
  private readonly pings = new Set<string>();

  /**
   * `now` is in whole seconds, like the API's own writes (RFC 1123 has no fractions);
   * `serviceUser` is the salt-api user the service publishes as (to know its batch pings).
   */
  constructor(
    private readonly runtime: Runtime,
    private readonly now: () => Date = () => stampNow(),
    private readonly serviceUser = '',
  ) {}

  /**
   * Handles events that arrived together (one or more), in their order, with the same effect as
   * handling them one after another; what each did (for logs: nothing when it was not for us), or
   * the error that stopped it, in the same order. The job
   * returns among them are recorded together (`recordReturns`: one read and one write per
   * collection for the lot, sharing the store's group commit); a run of returns is recorded before
   * the next other event is handled. When a run fails as a whole, each of its returns is recorded
   * alone, so one that cannot be stored does not keep the others out.
   */
  async handleBatch(events: readonly SaltEvent[]): Promise<Handled[]> {
    const out: Handled[] = [];
    let run: { tag: string; r: JobReturn }[] = [];
    const flush = async (): Promise<void> => {
      if (run.length > 0) out.push(...(await this.recordRun(run)));
      run = [];
    };
    for (const event of events) {
      const ret = RET.exec(event.tag);
      if (!ret) {
        await flush();
        out.push(await settle(event.tag, () => this.other(event)));
        continue;
      }
      const r = this.returnOf(ret[1] ?? '', ret[2] ?? '', event.data);
      if (r === undefined) out.push({ tag: event.tag });
      else run.push({ tag: event.tag, r });
    }
    await flush();
    return out;
  }

  private async recordRun(run: readonly { tag: string; r: JobReturn }[]): Promise<Handled[]> {
    const did = (r: JobReturn): string => `action ${r.jid}${r.host}`;
    try {
      await recordReturns(
        this.runtime,
        run.map((x) => x.r),
        this.now(),
      );
      return run.map((x) => ({ tag: x.tag, did: did(x.r) }));
    } catch (err) {
      if (run.length === 1) return run.map((x) => ({ tag: x.tag, err }));
      const out: Handled[] = [];
      for (const x of run)
        out.push(
          await settle(x.tag, async () => {
            await recordReturns(this.runtime, [x.r], this.now());
            return did(x.r);
          }),
        );
      return out;
    }
  }

  /** Every event but a job return. */
  private async other(event: SaltEvent): Promise<string | undefined> {
    const { tag, data } = event;
    const pub = NEW.exec(tag);
    if (pub) return this.jobNew(pub[1] ?? '', data);
    const start = START.exec(tag);
    if (start) return this.minionStart(start[1] ?? '');
    if (tag === 'salt/key') return this.keyEvent(data);
    if (tag === 'vnc/connect' || tag.endsWith('/vnc/connect')) return this.vncConnect(event);
    return undefined;
  }

  private jobNew(jid: string, data: Record<string, unknown>): string | undefined {
    const facts = {
      fun: text(data['fun']),
      tgt: data['tgt'],
      tgtType: data['tgt_type'],
      args: Array.isArray(data['arg']) ? data['arg'] : [],
      metadata: data['metadata'],
      user: data['user'],
    };
    if (isBookkeeping(facts)) {
      remember(this.ignored, jid);
      return 'bookkeeping job';
    }
    // A `new` event carries no metadata: whether it is a batch ping shows in its returns.
    if (isBatchPing(facts, this.serviceUser)) remember(this.pings, jid);
    return undefined;
  }

  /** The return an event reports, or undefined when it is not recorded (a bookkeeping job's). */
  private returnOf(jid: string, host: string, data: Record<string, unknown>): JobReturn | undefined {
    const fun = text(data['fun']);
    if (this.ignored.has(jid) || isBookkeeping({ fun, metadata: data['metadata'] })) return undefined;
    if (this.pings.has(jid) && !hasMetadata(data['metadata'])) return undefined;
    const retcode = typeof data['retcode'] === 'number' ? data['retcode'] : null;
    return {
      jid: text(data['jid'], jid),
      host: text(data['id'], host),
      fun,
      funArgs: Array.isArray(data['fun_args']) ? data['fun_args'] : [],
      ret: data['return'],
      retcode,
      success: typeof data['success'] === 'boolean' ? data['success'] : null,
      user: fleetUserOf(data['metadata']),
    };
  }

  /** The stored host (hidden ones too), or undefined when the sync has not stored it yet. */
  private async host(id: string, now: Date) {
    try {
      return await this.runtime.resources
        .of(hosts)
        .get(id, systemContext(this.runtime, now), { showDeleted: true });
    } catch (err) {
      if (err instanceof NotFound) return undefined;
      throw err;
    }
  }

  private async minionStart(id: string): Promise<string> {
    const now = this.now();
    const before = await this.host(id, now);
    if (before === undefined) return `host ${id} not stored yet`;
    await this.runtime.resources
      .of(hosts)
      .patch(id, { status: 'up', heartbeat: now }, systemContext(this.runtime, now), { showDeleted: true });
    if (before.status === 'down' && !before._soft_deleted)
      await raiseAlert(this.runtime, alert('host.up', 'info', { hostname: id, status: 'up' }), now);
    return `host ${id} up`;
  }

  private async keyEvent(data: Record<string, unknown>): Promise<string | undefined> {
    const act = data['act'];
    const key = typeof act === 'string' ? KEY_STATES[act] : undefined;
    const id = data['id'];
    if (key === undefined || typeof id !== 'string' || data['result'] === false) return undefined;
    const now = this.now();
    const before = await this.host(id, now);
    if (before === undefined || before.key === key) return undefined;
    const set =
      key === 'accepted'
        ? { key }
        : key === 'rejected'
          ? { key, status: 'down' as const }
          : { key, status: 'down' as const, nodegroups: [] };
    await this.runtime.resources
      .of(hosts)
      .patch(id, set, systemContext(this.runtime, now), { showDeleted: true });
    return `host ${id} key ${key}`;
  }

  /**
   * The alert's id is derived from the event (tag, master `_stamp`, payload), so several API
   * instances consuming the same bus store it once.
   */
  private async vncConnect(event: SaltEvent): Promise<string> {
    const payload = eventPayload(event);
    const hostname = text(payload['hostname'], text(event.data['id']));
    const status = text(payload['status'], 'connected');
    const now = this.now();
    const id = createHash('sha1')
      .update(JSON.stringify([event.tag, event.data['_stamp'], event.data['id'], payload]))
      .digest('hex')
      .slice(0, 24);
    try {
      await this.runtime.resources
        .of(alerts)
        .create(
          { ...alert('vnc.connect', 'info', { hostname, status }), _id: id },
          systemContext(this.runtime, now),
        );
    } catch (err) {
      // Another instance stored this event first (or it was delivered twice): once is enough,
      // and an alert already marked as read stays read.
      if (!(err instanceof Conflict)) throw err;
    }
    return `vnc.connect ${hostname}`;
  }
}
