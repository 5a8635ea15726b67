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

  /** Handles one event; resolves what it did (for logs), or undefined when it was not for us. */
  async handle(event: SaltEvent): Promise<string | undefined> {
    const { tag, data } = event;
    const ret = RET.exec(tag);
    if (ret) return this.jobReturn(ret[1] ?? '', ret[2] ?? '', data);
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

  private async jobReturn(
    jid: string,
    host: string,
    data: Record<string, unknown>,
  ): Promise<string | undefined> {
    const fun = text(data['fun']);
    if (this.ignored.has(jid) || isBookkeeping({ fun, metadata: data['metadata'] })) return undefined;
    if (this.pings.has(jid) && !hasMetadata(data['metadata'])) return undefined;
    const retcode = typeof data['retcode'] === 'number' ? data['retcode'] : null;
    const r: JobReturn = {
      jid: text(data['jid'], jid),
      host: text(data['id'], host),
      fun,
      funArgs: Array.isArray(data['fun_args']) ? data['fun_args'] : [],
      ret: data['return'],
      retcode,
      success: typeof data['success'] === 'boolean' ? data['success'] : null,
      user: fleetUserOf(data['metadata']),
    };
    await recordReturns(this.runtime, [r], this.now());
    return `action ${r.jid}${r.host}`;
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
