/**
 * Batched store writes of the sync. New hosts go in one `insert` per batch; changed hosts are
 * grouped by identical `$set` (a heartbeat refresh, a status flip) into one multi-update each,
 * so a quiet fleet of 10,000 hosts costs a handful of transactions, not 10,000. Every write sets
 * `_updated` and a new `_etag` and touches only the sync-owned fields (an operator's concurrent
 * PATCH of `groups` or `identification_number` is never overwritten).
 */
import { randomBytes } from 'node:crypto';
import type { Doc, Store } from '@fleet/engine';
import { alert } from '../record';
import { newHostDoc, type HostChange } from './derive';

/** Fields of an alert to raise. */
export type AlertFields = ReturnType<typeof alert>;

function etag(): string {
  return randomBytes(20).toString('hex');
}

function groupKey(set: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(set).sort().map((k) => [k, set[k]]));
}

/** Writes the changes of one batch; resolves the numbers of inserted and updated hosts. */
export async function writeHostChanges(store: Store, changes: readonly HostChange[], now: Date): Promise<{ inserted: number; updated: number }> {
  const fresh = changes.filter((c) => c.isNew);
  if (fresh.length > 0) {
    await store.insert('hosts', fresh.map((c) => ({ ...newHostDoc(c, now), _updated: now, _etag: etag() })));
  }
  const groups = new Map<string, { set: Record<string, unknown>; ids: string[] }>();
  for (const c of changes) {
    if (c.isNew || Object.keys(c.set).length === 0) continue;
    const key = groupKey(c.set);
    const group = groups.get(key) ?? { set: c.set, ids: [] };
    group.ids.push(c.id);
    groups.set(key, group);
  }
  let updated = 0;
  for (const { set, ids } of groups.values()) {
    const filter = ids.length === 1 ? { _id: ids[0] } : { _id: { $in: ids } };
    const result = await store.update('hosts', filter, { $set: { ...set, _updated: now, _etag: etag() } }, { multi: ids.length > 1 });
    updated += result.matched;
  }
  return { inserted: fresh.length, updated };
}

/** Inserts alerts in one write (the same document shape as `raiseAlert`). */
export async function insertAlerts(store: Store, alerts: readonly AlertFields[], now: Date): Promise<number> {
  if (alerts.length === 0) return 0;
  const docs: Doc[] = alerts.map((a) => ({ _id: randomBytes(12).toString('hex'), ...a, _created: now, _updated: now, _etag: etag() }));
  await store.insert('alerts', docs);
  return docs.length;
}

/** The alerts a batch of host changes raises (soft-deleted hosts stay quiet). */
export function transitionAlerts(changes: readonly HostChange[], hidden: ReadonlySet<string>): AlertFields[] {
  const out: AlertFields[] = [];
  for (const c of changes) {
    if (hidden.has(c.id)) continue;
    if (c.wentDown) out.push(alert('host.down', 'warning', { hostname: c.id, status: 'down' }));
    if (c.cameUp) out.push(alert('host.up', 'info', { hostname: c.id, status: 'up' }));
    if (c.keyChangedFrom !== null) {
      const fingerprint = c.set.fingerprint;
      out.push(alert('key.changed', 'warning', { hostname: c.id, status: 'changed', previous: c.keyChangedFrom, fingerprint }));
    }
  }
  return out;
}
