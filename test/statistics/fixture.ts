/**
 * Random host-list histories for the statistics tests, and the statistics computed the plain way
 * from full snapshots (the oracle the compact history must agree with). Deterministic per seed.
 */
import type { Doc } from '../../engine/src';

export type Summary = { _id: string } & Record<string, unknown>;

/** A full snapshot as versions before the compact history stored it. */
export interface FullSnapshot {
  readonly _id: string;
  readonly index: number;
  readonly timestamp: Date;
  readonly hosts: Summary[];
}

/** mulberry32: small, seeded, good enough to shuffle a fleet. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VERSIONS = ['3006.4', '3006.9', '3007.1'];
const GROUPS = [['web'], ['db'], ['web', 'prod'], []];

/** A fresh host at `at`. */
function newHost(next: () => number, id: string, at: number): Summary {
  return {
    _id: id,
    version: VERSIONS[Math.floor(next() * 3)],
    ip: `10.0.0.${Math.floor(next() * 250)}`,
    nodegroups: GROUPS[Math.floor(next() * 4)],
    status: next() < 0.7 ? 'up' : 'down',
    last_stateapply: next() < 0.8 ? new Date(at - Math.floor(next() * 5) * 3_600_000) : null,
    last_distupgrade: null,
    _created: new Date(at - 1000),
    _updated: new Date(at - 1000),
    _soft_deleted: false,
  };
}

/** One step of a host: the kinds of change a fleet sees, `_updated` moving with the heartbeat. */
function stepHost(next: () => number, host: Summary, at: number): Summary {
  const h = { ...host };
  const roll = next();
  if (roll < 0.12) h.status = h.status === 'up' ? 'down' : 'up';
  else if (roll < 0.17) h.last_stateapply = new Date(at - 60_000);
  else if (roll < 0.2) h.last_distupgrade = new Date(at - 120_000);
  else if (roll < 0.22) h.version = VERSIONS[Math.floor(next() * 3)];
  else if (roll < 0.24) h.nodegroups = GROUPS[Math.floor(next() * 4)];
  else if (roll < 0.25) delete h.ip;
  else if (roll < 0.26) h.ip = `10.0.1.${Math.floor(next() * 250)}`;
  else if (roll < 0.27) h._soft_deleted = !h._soft_deleted;
  if (h.status === 'up' || roll < 0.27) h._updated = new Date(at - Math.floor(next() * 60) * 1000);
  return h;
}

/** `count` snapshots of a fleet of about `hosts`, `stepMs` apart from `start`; hosts come and go. */
export function makeHistory(o: {
  seed: number;
  hosts: number;
  count: number;
  start: number;
  stepMs: number;
  prefix?: string;
}): FullSnapshot[] {
  const next = rng(o.seed);
  let fleet: Summary[] = Array.from({ length: o.hosts }, (_v, i) =>
    newHost(next, `${o.prefix ?? 'h'}-${String(i).padStart(3, '0')}`, o.start),
  );
  let born = o.hosts;
  const out: FullSnapshot[] = [];
  for (let i = 0; i < o.count; i += 1) {
    const at = o.start + i * o.stepMs;
    if (i > 0) fleet = fleet.map((h) => stepHost(next, h, at));
    if (i > 0 && next() < 0.1)
      fleet.push(newHost(next, `${o.prefix ?? 'h'}-${String(born++).padStart(3, '0')}`, at));
    if (i > 0 && next() < 0.05 && fleet.length > 2) fleet.splice(Math.floor(next() * fleet.length), 1);
    const hosts = [...fleet].sort((a, b) => (a._id < b._id ? -1 : 1));
    out.push({
      _id: `${o.prefix ?? 'h'}snap${String(i).padStart(24 - (o.prefix ?? 'h').length - 4, '0')}`,
      index: i,
      timestamp: new Date(at),
      hosts,
    });
  }
  return out;
}

/** The snapshot as a stored document (what an older version wrote). */
export function asDoc(s: FullSnapshot): Doc {
  return {
    _id: s._id,
    index: s.index,
    timestamp: s.timestamp,
    hosts: s.hosts,
    _created: s.timestamp,
    _updated: s.timestamp,
    _etag: `e${s._id}`,
  };
}

/** A `where` case: the JSON a client sends, and the same filter as a predicate. */
export interface WhereCase {
  readonly json: string;
  readonly test: (h: Summary) => boolean;
}

const inRange = (v: unknown, start: Date, end: Date) => v instanceof Date && v >= start && v <= end;

/** What /api/hosts/statistics/<kind> answers over full snapshots, computed plainly. */
export function expected(
  kind: string,
  snapshots: readonly FullSnapshot[],
  q: { start: Date; end: Date; where?: WhereCase; interval?: number },
): unknown[] {
  const inSpan = snapshots
    .filter((s) => s.timestamp >= q.start && s.timestamp <= q.end)
    .sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
  const visible = (s: FullSnapshot) =>
    s.hosts.filter((h) => h._soft_deleted !== true && (q.where?.test(h) ?? true));
  if (kind === 'online') {
    const points = inSpan
      .map((s) => ({
        t: s.timestamp,
        up: visible(s).filter((h) => h.status === 'up').length,
        all: visible(s).length,
      }))
      .filter((p) => p.all > 0);
    let last = -Infinity;
    const kept = points.filter((p) =>
      p.t.getTime() - last >= (q.interval ?? 0) * 1000 ? ((last = p.t.getTime()), true) : false,
    );
    return kept.map((p) => ({
      timestamp: p.t.toUTCString(),
      _id: null,
      hostnames: { up: p.up, down: p.all - p.up },
    }));
  }
  const seen = new Map<string, Set<string>>();
  const mark = (flag: string, id: string) => (seen.get(flag) ?? seen.set(flag, new Set()).get(flag))?.add(id);
  for (const s of inSpan) {
    for (const h of visible(s)) {
      mark('all', h._id);
      if (h.status === 'up') mark('up', h._id);
      if (inRange(h.last_stateapply, q.start, q.end)) mark('updated', h._id);
      if (inRange(h.last_distupgrade, q.start, q.end)) mark('distUpgraded', h._id);
      if (inRange(h._created, q.start, q.end)) mark('new', h._id);
    }
  }
  const list = (flag: string) => [...(seen.get(flag) ?? [])].sort();
  if (kind === 'unique_online') return [{ hostnames: { up: list('up'), all: list('all') } }];
  if (kind === 'unique_updated') return [{ hostnames: { updated: list('updated'), all: list('all') } }];
  if (kind === 'unique_dist_upgraded')
    return [{ hostnames: { distUpgraded: list('distUpgraded'), all: list('all') } }];
  return [{ hostnames: { new: list('new') } }];
}

/** The query string of a statistic request. */
export function query(q: { start: Date; end: Date; where?: WhereCase; interval?: number }): string {
  const parts = [
    `range[]=${encodeURIComponent(q.start.toISOString())}`,
    `range[]=${encodeURIComponent(q.end.toUTCString())}`,
  ];
  if (q.where) parts.push(`where=${encodeURIComponent(q.where.json)}`);
  if (q.interval !== undefined) parts.push(`interval=${q.interval}`);
  return parts.join('&');
}

/** The kinds of statistic. */
export const KINDS = [
  'online',
  'unique_online',
  'unique_updated',
  'unique_dist_upgraded',
  'new_hosts',
] as const;
