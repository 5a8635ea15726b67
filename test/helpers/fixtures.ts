/**
 * Fixtures written through the store port, as the fleet sync writes them: every item carries
 * `_created`, `_updated` and an `_etag` computed the way the engine computes it. Names are unique
 * per call so tests sharing one server never see each other's data.
 */
import { randomBytes } from 'node:crypto';
import type { Doc, Store } from '../../engine/src';
import { etagOf } from '../../engine/src/ops/etag';

let counter = 0;

/** A name no other fixture uses: `<prefix>-<run>-<n>` (lowercase, DNS-safe). */
export function uniqueName(prefix = 'fx'): string {
  counter += 1;
  return `${prefix}-${RUN}-${counter}`;
}
const RUN = randomBytes(3).toString('hex');

export interface Meta {
  /** Creation time (default: now, second precision like the API's writes). */
  readonly created?: Date;
  readonly updated?: Date;
}

/** Inserts one document with its meta fields; returns it as stored. */
export async function insertDoc(
  store: Store,
  collection: string,
  fields: Record<string, unknown> & { _id: string },
  meta: Meta = {},
): Promise<Doc> {
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const created = meta.created ?? now;
  const doc: Doc = { ...fields, _created: created, _updated: meta.updated ?? created };
  doc._etag = etagOf(doc);
  await store.insert(collection, [doc]);
  return doc;
}

/** A realistic host: grains, status, key, fingerprint. */
export function hostDoc(
  id: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> & { _id: string } {
  const short = id.split('.')[0] ?? id;
  return {
    _id: id,
    version: '3006.9',
    ip: '10.0.0.10',
    nodegroups: [],
    groups: [],
    grain: {
      cpu_model: 'Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz',
      cpuarch: 'x86_64',
      virtual: 'kvm',
      kernel: 'Linux',
      kernelrelease: '6.1.0-18-amd64',
      lsb_distrib_id: 'Debian',
      osfullname: 'Debian GNU/Linux',
      host: short,
      domain: 'fleet.test',
      localhost: short,
      ip: '10.0.0.10',
      mem_total: 7961,
      num_cpus: 4,
      num_gpus: 1,
      gpus: [{ model: 'GD 5446', vendor: 'cirrus' }],
      serialnumber: null,
      biosversion: '1.16.2',
      lsb_distrib_description: 'Debian GNU/Linux 12 (bookworm)',
      ip_interfaces: { eth0: ['10.0.0.10'], lo: ['127.0.0.1'] },
      saltversion: '3006.9',
      tool: { last_distupgrade: '2026-11-20 04:00:00+00:00', last_stateapply: '2026-11-24 04:00:00+00:00' },
    },
    last_distupgrade: new Date('2026-11-20T04:00:00Z'),
    last_stateapply: new Date('2026-11-24T04:00:00Z'),
    status: 'up',
    heartbeat: new Date('2026-11-25T21:00:00Z'),
    key: 'accepted',
    last_action: null,
    nat: false,
    fingerprint: '3a:5c:9f:01:77:be:42:d0:8e:13:6b:aa:c4:19:f2:60',
    fingerprint_history: [],
    vpnsrv_representation: null,
    vpn_organization: null,
    identification_number: null,
    _soft_deleted: false,
    ...overrides,
  };
}

/** Inserts a host named `id` (see `hostDoc` for the defaults). */
export async function insertHost(
  store: Store,
  id: string,
  overrides: Record<string, unknown> = {},
  meta: Meta = {},
): Promise<Doc> {
  return insertDoc(store, 'hosts', hostDoc(id, overrides), meta);
}

/**
 * Inserts `count` hosts `<prefix>-00.fleet.test`, `<prefix>-01...` (zero-padded, so `_id` order is
 * insertion order), each with `identification_number` = `tag` so one `where` selects exactly them.
 */
export async function insertHosts(
  store: Store,
  count: number,
  options: { prefix?: string; tag?: string; overrides?: (i: number) => Record<string, unknown> } = {},
): Promise<{ tag: string; docs: Doc[] }> {
  const prefix = options.prefix ?? uniqueName('host');
  const tag = options.tag ?? prefix;
  const docs: Doc[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${prefix}-${String(i).padStart(2, '0')}.fleet.test`;
    docs.push(await insertHost(store, id, { identification_number: tag, ...options.overrides?.(i) }));
  }
  return { tag, docs };
}

/** A 20-digit Salt jid for a date (`YYYYMMDDhhmmssffffff`). */
export function jidAt(date: Date, micro = 0): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}${p(micro, 6)}`;
}

/** Inserts an action of `host` (`_id` = jid + host name). */
export async function insertAction(
  store: Store,
  host: string,
  overrides: Record<string, unknown> = {},
  meta: Meta = {},
): Promise<Doc> {
  counter += 1;
  const jid =
    typeof overrides.jid === 'string'
      ? overrides.jid
      : jidAt(meta.created ?? new Date(), counter % 1_000_000);
  return insertDoc(
    store,
    'actions',
    {
      _id: `${jid}${host}`,
      jid,
      action: 'cmd.run',
      host,
      state: 'finished',
      args: [{ cmd: 'uptime', __kwarg__: true }],
      return: ' 21:08:02 up 3 days',
      success: true,
      user: 'admin',
      ...overrides,
    },
    meta,
  );
}

/** The body of a valid `POST /api/vpn_managers` with a unique name. */
export function vpnManagerBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: uniqueName('vpn'),
    server_address: 'vpn.fleet.test:443',
    dashboard_address: 'https://vpn.fleet.test/dashboard',
    username: 'fleet-admin',
    password: `pw-${randomBytes(9).toString('hex')}`,
    ...overrides,
  };
}
