/**
 * Pure derivation of a host's sync-owned fields from what the master reports, and the
 * comparison that decides whether a host must be written at all.
 * Nothing here talks to the master or the store.
 */
import { isPlainObject, type Doc } from '@fleet/engine';
import type { KeyState } from '../client';
import { nodegroupsOf } from '../nodegroups';

type Obj = Record<string, unknown>;

/** What the master says about one host in this run. */
export interface MasterView {
  readonly id: string;
  readonly key: KeyState;
  readonly fingerprint: string | null;
  /** A key the master denied beside the accepted one (a reinstalled host), or null. */
  readonly deniedFingerprint?: string | null;
  /** Fresh grains; null when the host did not answer (or its key is not accepted). */
  readonly grains: Obj | null;
  /** manage.status; null when the key is not accepted (never pinged). */
  readonly up: boolean | null;
}

/** The context of one run. */
export interface DeriveContext {
  readonly now: Date;
  readonly toolKey: string;
  readonly nodegroups: Readonly<Record<string, string>>;
  /** A heartbeat older than this is refreshed even when nothing else changed. */
  readonly heartbeatRefreshMs: number;
}

/** The outcome for one host: the `$set` to write (empty: unchanged) and the transitions seen. */
export interface HostChange {
  readonly id: string;
  readonly set: Obj;
  readonly isNew: boolean;
  readonly wentDown: boolean;
  readonly cameUp: boolean;
  /** The previous fingerprint when a different one is now reported. */
  readonly keyChangedFrom: string | null;
  /** A denied key that was not on record before, and the accepted one (the `key.denied` alert). */
  readonly keyDenied?: { readonly denied: string; readonly accepted: string | null } | null;
}

/** `YYYY-MM-DD HH:MM:SS+00:00` (the tool grain's format) -> Date; anything else -> null. */
export function parseToolTime(v: unknown): Date | null {
  if (typeof v !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(v.trim());
  if (!m) return null;
  const d = new Date(`${m[1]}T${m[2]}${m[3] ?? 'Z'}`);
  return Number.isNaN(d.getTime()) ? null : d;
}

function ipv4s(v: unknown): string[] {
  return Array.isArray(v)
    ? v.filter((a): a is string => typeof a === 'string' && /^\d+\.\d+\.\d+\.\d+$/.test(a))
    : [];
}

/** The host's address: the first non-loopback IPv4 of `fqdn_ip4`, then `ipv4`, then the `ip` grain. */
export function primaryIp(grains: Obj): string | null {
  const candidates = [...ipv4s(grains['fqdn_ip4']), ...ipv4s(grains['ipv4']), ...ipv4s([grains['ip']])];
  return candidates.find((a) => !a.startsWith('127.')) ?? null;
}

function ownAddresses(grains: Obj): Set<string> {
  const ifaces = isPlainObject(grains['ip_interfaces'])
    ? Object.values(grains['ip_interfaces']).flatMap(ipv4s)
    : [];
  return new Set([...ifaces, ...ipv4s(grains['ipv4'])]);
}

/** Deep equality of stored values: Dates by time, objects regardless of key order. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]))
    );
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a).filter((k) => a[k] !== undefined);
    return (
      keys.length === Object.keys(b).filter((k) => b[k] !== undefined).length &&
      keys.every((k) => sameValue(a[k], b[k]))
    );
  }
  return a === b || ((a === null || a === undefined) && (b === null || b === undefined));
}

/**
 * Fields that come from the grains. `ip` is left alone once the graph's outward-address probe
 * has set `nat`: true -> `ip` is the NAT address, not derivable from grains;
 * false -> kept while it still is one of the host's own addresses.
 */
function grainFields(grains: Obj, stored: Doc | undefined, o: DeriveContext): Obj {
  const toolGrain = grains[o.toolKey];
  const tool = isPlainObject(toolGrain) ? toolGrain : {};
  const out: Obj = {
    grain: grains,
    version: typeof grains['saltversion'] === 'string' ? grains['saltversion'] : null,
    last_stateapply: parseToolTime(tool['last_stateapply']),
    last_distupgrade: parseToolTime(tool['last_distupgrade']),
  };
  const keepIp =
    stored?.nat === true || (stored?.nat === false && ownAddresses(grains).has(String(stored.ip)));
  if (!keepIp) out.ip = primaryIp(grains);
  return out;
}

/** The sync-owned fields the master's view implies (only those it has a fresh value for). */
function wantedFields(view: MasterView, stored: Doc | undefined, o: DeriveContext): Obj {
  const out: Obj = { key: view.key, denied_fingerprint: view.deniedFingerprint ?? null };
  if (view.fingerprint !== null) out.fingerprint = view.fingerprint;
  if (view.grains !== null) Object.assign(out, grainFields(view.grains, stored, o));
  // Only accepted minions are targeted, so only they can be in a nodegroup.
  const grains = view.grains ?? (isPlainObject(stored?.grain) ? stored.grain : {});
  out.nodegroups = view.key === 'accepted' ? nodegroupsOf({ id: view.id, grains }, o.nodegroups) : [];
  out.status = view.up === true ? 'up' : 'down';
  return out;
}

type HistoryEntry = { added: Date; fingerprint: string };

/** A stored `fingerprint_history` entry (the engine validated it on write). */
const isHistoryEntry = (v: unknown): v is HistoryEntry =>
  isPlainObject(v) && v.added instanceof Date && typeof v.fingerprint === 'string';

function history(stored: Doc | undefined): HistoryEntry[] {
  const list = stored?.fingerprint_history;
  return Array.isArray(list) ? list.filter(isHistoryEntry) : [];
}

/** Compares the master's view with the stored host and returns what to write. */
export function deriveHost(view: MasterView, stored: Doc | undefined, o: DeriveContext): HostChange {
  const wanted = wantedFields(view, stored, o);
  const set: Obj = {};
  for (const [k, v] of Object.entries(wanted))
    if (stored === undefined || !sameValue(stored[k], v)) set[k] = v;
  const before = typeof stored?.fingerprint === 'string' ? stored.fingerprint : null;
  const keyChanged = view.fingerprint !== null && view.fingerprint !== before;
  if (keyChanged)
    set.fingerprint_history = [...history(stored), { added: o.now, fingerprint: view.fingerprint }];
  const heartbeat = stored?.heartbeat instanceof Date ? stored.heartbeat.getTime() : 0;
  const stale = o.now.getTime() - heartbeat >= o.heartbeatRefreshMs;
  if (view.up === true && (Object.keys(set).length > 0 || stale)) set.heartbeat = o.now;
  if (stored === undefined && view.up !== true) set.heartbeat = null;
  const wasUp = stored?.status === 'up';
  return {
    id: view.id,
    set,
    isNew: stored === undefined,
    wentDown: stored !== undefined && wasUp && wanted.status === 'down',
    cameUp: stored !== undefined && stored.status === 'down' && wanted.status === 'up',
    keyChangedFrom: keyChanged && before !== null ? before : null,
    keyDenied:
      'denied_fingerprint' in set && typeof view.deniedFingerprint === 'string'
        ? { denied: view.deniedFingerprint, accepted: view.fingerprint }
        : null,
  };
}

/** The document of a host seen for the first time. */
export function newHostDoc(change: HostChange, now: Date): Doc {
  return {
    _id: change.id,
    groups: [],
    nodegroups: [],
    fingerprint_history: [],
    ...change.set,
    _soft_deleted: false,
    _created: now,
  };
}
