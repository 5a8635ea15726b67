/**
 * The sync's writes, through the local API as the system principal. New hosts are created and
 * changed hosts patched with their sync-owned fields in one `upsertMany` per batch (one
 * transaction per 500 hosts on SQLite), so a quiet fleet of 10,000 hosts costs a handful of
 * transactions, not 10,000. A patch touches only the fields the sync owns: an operator's
 * concurrent PATCH of `groups` or `identification_number` is kept. Every written host gets the
 * same defaults, `_updated` and content `_etag` as an API write.
 */
import { systemContext, type Runtime } from '@fleet/engine';
import { alerts, hosts } from '@fleet/resources';
import { alert, type AlertFields } from '../record';
import type { HostChange } from './derive';

/** Writes the changes of one batch; resolves the numbers of created and updated hosts. */
export async function writeHostChanges(
  runtime: Runtime,
  changes: readonly HostChange[],
  now: Date,
): Promise<{ inserted: number; updated: number }> {
  const items = changes
    .filter((c) => c.isNew || Object.keys(c.set).length > 0)
    .map((c) => ({ ...c.set, _id: c.id }));
  if (items.length === 0) return { inserted: 0, updated: 0 };
  const written = await runtime.resources.of(hosts).upsertMany(items, systemContext(runtime, now));
  return { inserted: written.created.length, updated: written.updated.length };
}

/** Raises the alerts in one write. */
export async function insertAlerts(
  runtime: Runtime,
  raised: readonly AlertFields[],
  now: Date,
): Promise<number> {
  if (raised.length === 0) return 0;
  await runtime.resources.of(alerts).createMany(raised, systemContext(runtime, now));
  return raised.length;
}

/** The alerts a batch of host changes raises (soft-deleted hosts stay quiet). */
export function transitionAlerts(changes: readonly HostChange[], hidden: ReadonlySet<string>): AlertFields[] {
  const out: AlertFields[] = [];
  for (const c of changes) {
    if (hidden.has(c.id)) continue;
    if (c.wentDown) out.push(alert('host.down', 'warning', { hostname: c.id, status: 'down' }));
    if (c.cameUp) out.push(alert('host.up', 'info', { hostname: c.id, status: 'up' }));
    if (c.keyDenied !== null && c.keyDenied !== undefined) {
      // The master refused a second key for this id (a reinstalled host, or someone posing as it).
      out.push(
        alert('key.denied', 'warning', {
          hostname: c.id,
          status: 'denied',
          fingerprint: c.keyDenied.accepted,
          denied: c.keyDenied.denied,
        }),
      );
    }
    if (c.keyChangedFrom !== null) {
      const fingerprint = c.set.fingerprint;
      out.push(
        alert('key.changed', 'warning', {
          hostname: c.id,
          status: 'changed',
          previous: c.keyChangedFrom,
          fingerprint,
        }),
      );
    }
  }
  return out;
}
