/**
 * Actions: jobs spread evenly over the last `spanDays`, each run on one host or on a run of hosts
 * (a group), one document per job and host: `_id` = 20-digit jid + host name. A generator, so a
 * million of them stream to the store in batches.
 */
import type { Doc } from '@fleet/engine';
import { at } from './at';
import { forkRng, type Rng } from './prng';

/** What the action stream needs. */
export interface ActionOptions {
  readonly seed: number;
  readonly now: number;
  /** Exactly this many actions are yielded. */
  readonly total: number;
  readonly spanDays: number;
}

interface Template {
  readonly action: string;
  readonly args: readonly Record<string, unknown>[];
  readonly output: (host: string, rng: Rng) => string;
}

const kw = (fields: Record<string, unknown>): Record<string, unknown> => ({ ...fields, __kwarg__: true });

const TEMPLATES: readonly Template[] = [
  { action: 'test.ping', args: [], output: () => 'true' },
  {
    action: 'cmd.run',
    args: [kw({ cmd: 'uptime' })],
    output: (_h, r) =>
      ` ${r.int(10, 23)}:${r.int(10, 59)}:${r.int(10, 59)} up ${r.int(1, 300)} days,  ${r.int(0, 23)}:${r.int(10, 59)},  0 users,  load average: 0.${r.int(0, 99)}, 0.${r.int(0, 99)}, 0.${r.int(0, 99)}`,
  },
  {
    action: 'cmd.run',
    args: [kw({ cmd: 'df -h /' })],
    output: (_h, r) =>
      `Filesystem      Size  Used Avail Use% Mounted on\n/dev/sda2        98G  ${r.int(5, 90)}G  ${r.int(5, 90)}G  ${r.int(5, 95)}% /`,
  },
  { action: 'cmd.run', args: [kw({ cmd: 'systemctl is-active salt-minion' })], output: () => 'active' },
  {
    action: 'state.apply',
    args: [kw({ mods: 'baseline' })],
    output: (h, r) =>
      `Summary for ${h}\n-------------\nSucceeded: ${r.int(20, 60)} (changed=${r.int(0, 5)})\nFailed:      0\n-------------\nTotal states run:     ${r.int(20, 60)}\nTotal run time:  ${r.int(2, 90)}.${r.int(100, 999)} s`,
  },
  {
    action: 'pkg.upgrade',
    args: [kw({ refresh: true })],
    output: (_h, r) =>
      `openssl:\n    ----------\n    new:\n        3.0.2-0ubuntu1.${r.int(15, 18)}\n    old:\n        3.0.2-0ubuntu1.14`,
  },
  { action: 'service.restart', args: [kw({ name: 'nginx' })], output: () => 'true' },
  { action: 'grains.item', args: [kw({ key: 'osrelease' })], output: () => '{"osrelease": "22.04"}' },
  { action: 'saltutil.sync_all', args: [], output: () => '{"grains": [], "modules": [], "states": []}' },
];

const USERS = ['admin', 'ops', 'ops', 'scheduler', 'helpdesk'] as const;

/** A 20-digit jid `YYYYMMDDhhmmssffffff` for a time in microseconds, as Salt's gen_jid makes. */
export function jidOf(micros: number): string {
  const iso = new Date(Math.floor(micros / 1000)).toISOString();
  const digits = iso.slice(0, 19).replace(/[-:T]/g, '');
  return `${digits}${String(micros % 1_000_000).padStart(6, '0')}`;
}

function jobSize(rng: Rng, max: number): number {
  const roll = rng.next();
  const size = roll < 0.75 ? 1 : roll < 0.92 ? rng.int(2, 20) : rng.int(21, 250);
  return Math.max(1, Math.min(size, max));
}

/** A host as the action stream needs it (HostSpec fits). */
export interface HostRef {
  readonly index: number;
  readonly id: string;
}

/** One action before it becomes a document: small, flat, cheap to send to another thread. */
export interface ActionRow {
  readonly id: string;
  readonly jid: string;
  /** Index into the function templates. */
  readonly template: number;
  readonly host: string;
  readonly output: string;
  readonly success: boolean;
  /** Index into the users. */
  readonly user: number;
  /** `_created` in epoch ms. */
  readonly created: number;
}

/** Yields exactly `options.total` actions over `targets`, in time order. */
export function* actionRows(targets: readonly HostRef[], options: ActionOptions): Generator<ActionRow> {
  if (targets.length === 0 || options.total <= 0) return;
  const rng = forkRng(options.seed, 'actions');
  const spanUs = options.spanDays * 86_400_000_000;
  const startUs = options.now * 1000 - spanUs;
  let produced = 0;
  let lastUs = 0;
  while (produced < options.total) {
    const atUs = Math.max(
      lastUs + 1,
      startUs + Math.floor((spanUs * produced) / options.total) + rng.int(0, 999_999),
    );
    lastUs = atUs;
    const jid = jidOf(atUs);
    const template = rng.int(0, TEMPLATES.length - 1);
    const user = rng.int(0, USERS.length - 1);
    const size = jobSize(rng, Math.min(targets.length, options.total - produced));
    const first = rng.int(0, targets.length - 1);
    for (let i = 0; i < size; i += 1) {
      const host = at(targets, (first + i) % targets.length).id;
      const success = !rng.chance(0.03);
      const output = success
        ? at(TEMPLATES, template).output(host, rng)
        : 'ERROR: Minion did not return. [Not connected]';
      yield {
        id: `${jid}${host}`,
        jid,
        template,
        host,
        output,
        success,
        user,
        created: Math.floor(atUs / 1000) + rng.int(40, 8000),
      };
    }
    produced += size;
  }
}

/** The action item of a row. */
export function actionDoc(row: ActionRow): Doc {
  const template = at(TEMPLATES, row.template);
  const created = new Date(row.created);
  const fields: Doc = {
    _id: row.id,
    jid: row.jid,
    action: template.action,
    host: row.host,
    state: 'finished',
    args: template.args,
    return: row.output,
    success: row.success,
    user: USERS[row.user] ?? null,
  };
  // No copy: the main thread builds a million of these.
  fields._created = created;
  fields._updated = created;
  return fields;
}
