/**
 * The hosts phase of a sync. One snapshot of the keys (wheel `key.finger`: every key state
 * and its fingerprint in one consistent answer), one `manage.status` (runner; the master pings
 * the accepted minions), the nodegroups (runner `config.get nodegroups`); then the ids in
 * sorted batches of `BATCH` — grains of the batch's accepted minions with one `local`
 * `grains.items` call targeted as a list, the stored hosts of the batch, compare, write —
 * with at most `PARALLEL` batches in flight, so memory stays bounded on a big fleet.
 */
import { isPlainObject, systemContext, type Doc, type Runtime } from '@fleet/engine';
import { hosts } from '@fleet/resources';
import type { KeyFingerprints, KeyState, SaltClient } from '../client';
import { deriveHost, type DeriveContext, type HostChange, type MasterView } from './derive';
import { SYNC_METADATA } from './noise';
import { insertAlerts, transitionAlerts, writeHostChanges } from './writes';

/** Ids per grains call and per store batch (list targeting, DESIGN "bounded work"). */
export const BATCH = 500;
const PARALLEL = 4;
const KEY_STATES: readonly KeyState[] = ['accepted', 'pending', 'rejected', 'denied'];

/** One id's keys: its state and fingerprint, and a denied key kept beside an accepted one. */
export interface KeyView {
  readonly key: KeyState;
  readonly fingerprint: string;
  readonly denied: string | null;
}

/** What the master said before the batches start. */
export interface FleetSnapshot {
  readonly keys: ReadonlyMap<string, KeyView>;
  readonly up: ReadonlySet<string>;
  readonly nodegroups: Readonly<Record<string, string>>;
}

/** Counters of the hosts phase. */
export interface HostsOutcome {
  seen: number;
  changed: number;
  created: number;
  alerts: number;
}

/**
 * Each id's key state. An id listed in two directories is either mid-move (the later state,
 * accepted last, wins) or an accepted minion whose new key the master denied
 * (`transport/mixins/auth.py` `_auth`: a reinstalled host presents a key that does not match the
 * accepted one): that denied key is kept beside the accepted state, never hidden by it.
 */
function keyMap(fps: KeyFingerprints): Map<string, KeyView> {
  const out = new Map<string, KeyView>();
  for (const key of [...KEY_STATES].reverse()) {
    for (const [id, fingerprint] of Object.entries(fps[key])) out.set(id, { key, fingerprint, denied: null });
  }
  for (const [id, fingerprint] of Object.entries(fps.denied)) {
    const seen = out.get(id);
    if (seen?.key === 'accepted' && fingerprint !== seen.fingerprint)
      out.set(id, { ...seen, denied: fingerprint });
  }
  return out;
}

/** Reads the keys, the up/down split and the nodegroups (any failure rejects: nothing written yet). */
export async function readSnapshot(client: SaltClient): Promise<FleetSnapshot> {
  const [fps, status, nodegroups] = await Promise.all([
    client.keyFingerprints('*'),
    client.manageStatus('*'),
    client.nodegroups(),
  ]);
  return { keys: keyMap(fps), up: new Set(status.up), nodegroups };
}

async function fetchGrains(
  client: SaltClient,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  if (ids.length === 0) return out;
  const result = await client.local([...ids], 'grains.items', {
    tgt_type: 'list',
    extra: { metadata: SYNC_METADATA },
  });
  for (const [id, outcome] of Object.entries(result.minions)) {
    const ret = outcome.status === 'returned' ? outcome.ret : null;
    if (isPlainObject(ret)) out.set(id, ret);
  }
  return out;
}

/** Syncs one batch of ids: fetch grains, read the stored hosts, compare, write, alert. */
async function syncBatch(
  ids: readonly string[],
  snap: FleetSnapshot,
  deps: BatchDeps,
): Promise<HostsOutcome> {
  const accepted = ids.filter((id) => snap.keys.get(id)?.key === 'accepted');
  const [grains, stored] = await Promise.all([
    fetchGrains(deps.client, accepted),
    deps.runtime.resources
      .of(hosts)
      .find(
        { where: { _id: { $in: [...ids] } }, view: 'item', showDeleted: true },
        systemContext(deps.runtime, deps.ctx.now),
      ),
  ]);
  const byId = new Map<string, Doc>(stored.map((d) => [d._id, d]));
  const changes: HostChange[] = [];
  for (const id of ids) {
    const k = snap.keys.get(id);
    if (k === undefined) continue;
    const isAccepted = k.key === 'accepted';
    const view: MasterView = {
      id,
      key: k.key,
      fingerprint: k.fingerprint,
      deniedFingerprint: k.denied,
      grains: grains.get(id) ?? null,
      up: isAccepted ? snap.up.has(id) : null,
    };
    changes.push(deriveHost(view, byId.get(id), deps.ctx));
  }
  const written = await writeHostChanges(deps.runtime, changes, deps.ctx.now);
  const hidden = new Set(stored.filter((d) => d._soft_deleted).map((d) => d._id));
  const alerts = await insertAlerts(deps.runtime, transitionAlerts(changes, hidden), deps.ctx.now);
  return { seen: ids.length, changed: written.updated, created: written.inserted, alerts };
}

/** What the batches need. */
export interface BatchDeps {
  readonly client: SaltClient;
  readonly runtime: Runtime;
  readonly ctx: DeriveContext;
}

/** Runs every batch (PARALLEL at a time, in id order); the first master failure stops them all. */
export async function syncHosts(snap: FleetSnapshot, deps: BatchDeps): Promise<HostsOutcome> {
  const ids = [...snap.keys.keys()].sort();
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += BATCH) batches.push(ids.slice(i, i + BATCH));
  const total: HostsOutcome = { seen: 0, changed: 0, created: 0, alerts: 0 };
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < batches.length) {
      const batch = batches[next++] ?? [];
      try {
        const r = await syncBatch(batch, snap, deps);
        total.seen += r.seen;
        total.changed += r.changed;
        total.created += r.created;
        total.alerts += r.alerts;
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  // Settle every worker before reporting, so nothing still writes once the run has returned.
  const results = await Promise.allSettled(
    Array.from({ length: Math.min(PARALLEL, batches.length) }, worker),
  );
  const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
  return total;
}

/**
 * Hosts the master no longer knows (key deleted, minion removed) are never deleted: they keep
 * their record with `key: denied` (the master holds no accepted key for them any more) and
 * `status: down`. Resolves their ids.
 */
export async function markForgotten(
  snap: FleetSnapshot,
  deps: Pick<BatchDeps, 'runtime' | 'ctx'>,
): Promise<{ ids: string[]; changed: number; alerts: number }> {
  // An exclusion of top-level fields is done in SQL by the embedded store: the grains are never parsed.
  const projection = { grain: 0, all_status: 0, vpnsrv_representation: 0, fingerprint_history: 0 } as const;
  const all = await deps.runtime.resources
    .of(hosts)
    .find({ projection, showDeleted: true }, systemContext(deps.runtime, deps.ctx.now));
  const gone = all.filter((h) => !snap.keys.has(h._id));
  const stale = gone.filter((h) => h.key !== 'denied' || h.status !== 'down');
  const changes: HostChange[] = stale.map((h) => ({
    id: h._id,
    set: { key: 'denied', status: 'down', nodegroups: [] },
    isNew: false,
    wentDown: h.status === 'up',
    cameUp: false,
    keyChangedFrom: null,
  }));
  const { updated } = await writeHostChanges(deps.runtime, changes, deps.ctx.now);
  const hidden = new Set(stale.filter((h) => h._soft_deleted).map((h) => h._id));
  const alerts = await insertAlerts(deps.runtime, transitionAlerts(changes, hidden), deps.ctx.now);
  return { ids: gone.map((h) => h._id), changed: updated, alerts };
}
