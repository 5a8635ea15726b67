/**
 * hosts_statistic: `count` snapshots every `intervalMs` going back from now, stored as the server
 * stores them (the compact history, docs/statistics.md): a keyframe, then each snapshot's
 * changes. The history ends at the seeded hosts and is made of what changes in a real fleet:
 * workstations up on working days, kiosks up by day, servers with rare short outages, periodic
 * state applies and dist-upgrades, a Salt upgrade rolling out, a few DHCP address changes. Only
 * changes are generated, so 10,000 hosts x 8,640 snapshots take seconds, not hosts x snapshots.
 */
import type { Doc } from '@fleet/engine';
import { snapshotHistory } from '@fleet/resources';
import type { SeededHost } from './hosts';
import { forkRng, type Rng } from './prng';
import { ID_KIND, seededObjectId, stamped } from './write';

type Entry = snapshotHistory.Entry;

/** The part of a host a snapshot keeps. */
export interface HostSummary {
  readonly _id: string;
  readonly version: string | null;
  readonly ip: string | null;
  readonly nodegroups: readonly string[];
  readonly status: string;
  readonly last_stateapply: Date | null;
  readonly last_distupgrade: Date | null;
  readonly _created: Date;
  readonly _updated: Date;
  readonly _soft_deleted: boolean;
}

/** The summary of a seeded host document. */
export function summaryOf(host: SeededHost): HostSummary {
  return {
    _id: host._id,
    version: host.version,
    ip: host.ip,
    nodegroups: host.nodegroups,
    status: host.status,
    last_stateapply: host.last_stateapply,
    last_distupgrade: host.last_distupgrade,
    _created: host._created,
    _updated: host._updated,
    _soft_deleted: false,
  };
}

/** Options of {@link writeSnapshots}. */
export interface SnapshotSeedOptions {
  readonly seed: number;
  readonly now: number;
  readonly count: number;
  /** Default one hour. */
  readonly intervalMs?: number;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** One change of one host: at `at`, entry key `key` takes `value`; or the host appears with its entry. */
type Event =
  | readonly [at: number, host: number, key: string, value: unknown]
  | readonly [at: number, host: number, born: Entry];

/** The window the snapshots cover. */
interface Window {
  readonly first: number;
  readonly last: number;
}

const between = (rng: Rng, lo: number, hi: number) => lo + rng.next() * (hi - lo);
const exp = (rng: Rng, mean: number) => -Math.log(1 - rng.next()) * mean;

/** Up/down transitions of one host inside the window; the last one leaves it as it is now. */
function statusTransitions(rng: Rng, host: HostSummary, w: Window): Array<[number, string]> {
  const role = host._id.split('-')[0] ?? '';
  const office = role === 'ws' || role === 'kiosk';
  // Some machines are off (or not accepted) the whole time.
  const active = host.status === 'up' || rng.chance(office ? 0.7 : 0.5);
  const out: Array<[number, string]> = [];
  if (office && active) {
    for (let day = Math.floor(w.first / DAY) * DAY; day <= w.last; day += DAY) {
      const weekday = new Date(day).getUTCDay();
      if (role === 'ws' && (weekday === 0 || weekday === 6 || !rng.chance(0.85))) continue;
      const [on, off] =
        role === 'ws'
          ? [between(rng, 7, 9.5), between(rng, 16, 19.5)]
          : [between(rng, 5.5, 6.5), between(rng, 21.5, 22.5)];
      out.push([day + on * HOUR, 'up'], [day + off * HOUR, 'down']);
    }
  } else if (active) {
    // Servers: an outage every 20 days on average, 20 minutes long (at least 5).
    for (let t = w.first + exp(rng, 20 * DAY); t < w.last; t += exp(rng, 20 * DAY)) {
      const length = Math.max(5 * MINUTE, exp(rng, 20 * MINUTE));
      out.push([t, 'down'], [t + length, 'up']);
      t += length;
    }
  }
  const inWindow = out.filter(([t]) => t > w.first && t <= w.last);
  const steady = !active ? host.status : office ? 'down' : 'up';
  const lastState = inWindow[inWindow.length - 1]?.[1] ?? steady;
  if (lastState !== host.status) {
    const after = inWindow[inWindow.length - 1]?.[0] ?? w.first;
    inWindow.push([Math.max((after + w.last) / 2, w.last - between(rng, 5 * MINUTE, 3 * HOUR)), host.status]);
  }
  return inWindow;
}

/** Runs of a periodic job ending with `latest` (its current value), every `periodMs` (jittered). */
function periodic(
  rng: Rng,
  latest: Date | null,
  periodMs: number,
  w: Window,
): { before: number | null; runs: number[] } {
  if (latest === null) return { before: null, runs: [] };
  const runs: number[] = [];
  let t = latest.getTime();
  while (t > w.first) {
    if (t <= w.last) runs.push(t);
    t -= periodMs + between(rng, -15 * MINUTE, 15 * MINUTE);
  }
  return { before: t, runs: runs.reverse() };
}

/** A host's entry at the first snapshot, and its changes over the window. */
function hostHistory(
  rng: Rng,
  host: HostSummary,
  index: number,
  w: Window,
): { initial: Entry; events: Event[] } {
  const current = snapshotHistory.encodeSummary(host);
  const initial: Entry = { ...current };
  const events: Event[] = [];
  const status = statusTransitions(rng, host, w);
  // The status before the first transition is the opposite of where it goes.
  initial.s = status[0] === undefined ? host.status : status[0][1] === 'up' ? 'down' : 'up';
  if (status[0] !== undefined && status[0][1] === initial.s) status.shift();
  for (const [t, s] of status) events.push([t, index, 's', s]);
  const applies = periodic(rng, host.last_stateapply, rng.pick([DAY, DAY, 7 * DAY, 7 * DAY, 90 * DAY]), w);
  initial.a = applies.before;
  for (const t of applies.runs) events.push([t, index, 'a', t]);
  const upgrades = periodic(
    rng,
    host.last_distupgrade,
    rng.pick([7 * DAY, 7 * DAY, 7 * DAY, 30 * DAY, 30 * DAY, 90 * DAY]),
    w,
  );
  initial.d = upgrades.before;
  for (const t of upgrades.runs) events.push([t, index, 'd', t]);
  if (host.version === '3007.1' && rng.chance(0.4)) {
    initial.v = '3006.9';
    events.push([between(rng, w.first, w.last), index, 'v', host.version]);
  }
  if (host._id.startsWith('ws-') && host.ip !== null && rng.chance(0.05)) {
    initial.i = host.ip.replace(/\.(\d+)$/, (_m, last: string) => `.${((Number(last) + 100) % 254) + 1}`);
    events.push([between(rng, w.first, w.last), index, 'i', host.ip]);
  }
  initial.u = Math.min(host._updated.getTime(), w.first - between(rng, MINUTE, 2 * DAY));
  return { initial, events };
}

/**
 * Writes the snapshots through `write` (hosts_statistic items and hosts_history rows, in
 * batches); resolves the number of snapshots.
 */
export async function writeSnapshots(
  write: (collection: string, docs: Iterable<Doc>) => Promise<number>,
  hosts: readonly HostSummary[],
  o: SnapshotSeedOptions,
): Promise<number> {
  if (o.count === 0) return 0;
  const rng = forkRng(o.seed, 'snapshots');
  const step = o.intervalMs ?? HOUR;
  const last = Math.floor(o.now / step) * step;
  const w: Window = { first: last - (o.count - 1) * step, last };
  const slots: Event[][] = Array.from({ length: o.count }, () => []);
  const initial: Entry[] = [];
  hosts.forEach((host, i) => {
    const h = hostHistory(rng, host, i, w);
    // A host created inside the window appears at the first snapshot after its creation.
    const born = host._created.getTime();
    if (born <= w.first) initial.push(h.initial);
    else if (born <= w.last) slots[Math.ceil((born - w.first) / step)]?.push([born, i, h.initial]);
    for (const e of h.events)
      if (e[0] > Math.max(born, w.first)) slots[Math.ceil((e[0] - w.first) / step)]?.push(e);
  });
  const history = new snapshotHistory.HistoryBuilder();
  const batch: { items: Doc[]; rows: Doc[] } = { items: [], rows: [] };
  // A block is written once, complete (as the server leaves it), stamped from its first to its last snapshot.
  const complete = (rows: readonly snapshotHistory.HistoryData[], last: Date) => {
    for (const row of rows)
      batch.rows.push(stamped(row, row.timestamp, row.part === 0 ? last : row.timestamp));
  };
  const flush = async () => {
    await write('hosts_history', batch.rows);
    await write('hosts_statistic', batch.items);
    batch.items = [];
    batch.rows = [];
  };
  let previous = new Date(w.first);
  for (let i = 0; i < o.count; i += 1) {
    const at = new Date(w.first + i * step);
    const changes = i === 0 ? initial : slotChanges(history.state, slots[i] ?? [], hosts);
    const id = seededObjectId(o.seed, ID_KIND.snapshot, i + 1);
    const written = history.add({ id, timestamp: at, index: i }, changes, { defer: true });
    complete(written.closed, previous);
    complete(written.rows, at);
    batch.items.push(stamped({ _id: id, hosts: [], timestamp: at, index: i }, at));
    if (batch.rows.length >= 50 || batch.items.length >= 2000) await flush();
    previous = at;
  }
  complete(history.pending(), previous);
  await flush();
  return o.count;
}

/** The changes of one snapshot: its events applied in time order, `_updated` moved with them. */
function slotChanges(
  state: snapshotHistory.ChainState,
  events: Event[],
  hosts: readonly HostSummary[],
): snapshotHistory.Change[] {
  const next = new Map<number, Entry>();
  for (const event of events.sort((a, b) => a[0] - b[0])) {
    const [at, host] = event;
    const id = hosts[host]?._id ?? '';
    const entry =
      event.length === 3 ? { ...event[2] } : (next.get(host) ?? { ...(state.hosts.get(id) ?? { h: id }) });
    if (event.length === 4) entry[event[2]] = event[3];
    entry.u = at;
    next.set(host, entry);
  }
  const changes: snapshotHistory.Change[] = [];
  for (const entry of next.values()) {
    const change = snapshotHistory.diffEntry(state.hosts.get(entry.h), entry, { trackUpdated: false });
    if (change !== null) changes.push(change);
  }
  return changes;
}
