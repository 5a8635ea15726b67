/**
 * The aggregated statistics over the host-list snapshots (spec: /api/hosts/statistics/*). Each is
 * one aggregation pipeline run by the store (mingo on SQLite, the server on MongoDB): the
 * snapshots of `range[]` (default the last 24 h), their host summaries unwound and filtered by
 * `where` (a `$match` on the summary fields), soft-deleted hosts left out.
 */
import { assertJsonBounds, BadRequest, compileResource, NotFound, parseDate, parseWhere, WHERE_BOUNDS, type CompiledResource, type RouteRequest } from '@fleet/engine';
import { z } from 'zod';
import { hosts_statistic } from '../hosts_statistic';

type Row = Record<string, unknown>;
export type StatisticKind = 'online' | 'unique_online' | 'unique_updated' | 'unique_dist_upgraded' | 'new_hosts';
export const STATISTICS: readonly StatisticKind[] = ['online', 'unique_online', 'unique_updated', 'unique_dist_upgraded', 'new_hosts'];

/** `range[]` (twice) or `range` as a comma pair: RFC 1123 or ISO 8601; default the last 24 h. */
export function parseRange(query: RouteRequest['query'], now: Date): { start: Date; end: Date } {
  const raw = query['range[]'] ?? query.range;
  if (raw === undefined) return { start: new Date(now.getTime() - 86_400_000), end: now };
  const parts = Array.isArray(raw) ? raw : raw.split(',');
  if (parts.length !== 2) throw new BadRequest('range: give range[]=<start>&range[]=<end>');
  const [start, end] = parts.map((p) => parseDate(p.trim()));
  if (!start || !end) throw new BadRequest('range: each bound must be a date (RFC 1123 or ISO 8601)');
  if (start > end) throw new BadRequest('range: the start is after the end');
  return { start, end };
}

/** `where` on the host summaries, checked against the snapshot definition and prefixed `hosts.`. */
export function summaryMatch(res: CompiledResource, raw: unknown): Row {
  if (raw === undefined || raw === '') return {};
  if (typeof raw !== 'string') throw new BadRequest('where: give it once, as a JSON object');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new BadRequest('where: not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new BadRequest('where: must be a JSON object');
  // Bounded before `prefix` walks it (recursively).
  assertJsonBounds(parsed, 'where', WHERE_BOUNDS);
  return parseWhere(JSON.stringify(prefix(parsed as Row)), { paths: res.paths });
}

function prefix(filter: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(filter)) {
    if (k.startsWith('$')) out[k] = Array.isArray(v) ? v.map((sub) => (typeof sub === 'object' && sub !== null ? prefix(sub as Row) : sub)) : v;
    else out[`hosts.${k}`] = v;
  }
  return out;
}

function base(start: Date, end: Date, match: Row): Row[] {
  return [
    { $match: { timestamp: { $gte: start, $lte: end } } },
    { $unwind: '$hosts' },
    { $match: { $and: [{ 'hosts._soft_deleted': { $ne: true } }, match] } },
  ];
}

const inRange = (field: string, start: Date, end: Date) => ({ $and: [{ $gte: [field, start] }, { $lte: [field, end] }] });
const names = (rows: Row[], flag: string) => rows.filter((r) => r[flag] === true).map((r) => String(r._id)).sort();

/** Runs one statistic. */
export async function statistic(kind: StatisticKind, req: RouteRequest, res: CompiledResource): Promise<unknown[]> {
  const ctx = req.ctx;
  const { start, end } = parseRange(req.query, ctx.now);
  const pipeline = base(start, end, summaryMatch(res, req.query.where));
  const snapshots = ctx.runtime.resources.of(hosts_statistic);
  if (kind === 'online') {
    const up = { $cond: [{ $eq: ['$hosts.status', 'up'] }, 1, 0] };
    const rows = await snapshots.aggregate([
      ...pipeline,
      { $group: { _id: '$_id', timestamp: { $first: '$timestamp' }, up: { $sum: up }, all: { $sum: 1 } } },
      { $sort: { timestamp: 1 } },
    ], ctx);
    return spaced(rows, intervalOf(req.query.interval)).map((r) => ({
      timestamp: (r.timestamp as Date).toUTCString(),
      _id: null,
      hostnames: { up: r.up, down: Number(r.all) - Number(r.up) },
    }));
  }
  const rows = await snapshots.aggregate([
    ...pipeline,
    {
      $group: {
        _id: '$hosts._id',
        up: { $max: { $eq: ['$hosts.status', 'up'] } },
        updated: { $max: inRange('$hosts.last_stateapply', start, end) },
        distUpgraded: { $max: inRange('$hosts.last_distupgrade', start, end) },
        isNew: { $max: inRange('$hosts._created', start, end) },
      },
    },
  ], ctx);
  const all = rows.map((r) => String(r._id)).sort();
  if (kind === 'unique_online') return [{ hostnames: { up: names(rows, 'up'), all } }];
  if (kind === 'unique_updated') return [{ hostnames: { updated: names(rows, 'updated'), all } }];
  if (kind === 'unique_dist_upgraded') return [{ hostnames: { distUpgraded: names(rows, 'distUpgraded'), all } }];
  return [{ hostnames: { new: names(rows, 'isNew') } }];
}

function intervalOf(raw: unknown): number {
  if (raw === undefined || raw === '') return 0;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new BadRequest('interval: a whole number of seconds');
  return Number(raw) * 1000;
}

/** Keeps points at least `gapMs` apart (the first one always). */
function spaced(rows: Row[], gapMs: number): Row[] {
  const out: Row[] = [];
  let last = -Infinity;
  for (const r of rows) {
    const t = (r.timestamp as Date).getTime();
    if (t - last >= gapMs) {
      out.push(r);
      last = t;
    }
  }
  return out;
}

/** The snapshot resource, compiled once: `where` is checked against its host summary fields. */
const compiledSnapshots = compileResource(hosts_statistic);

/** What the statistics answer: points of `online`, or one object of host-name lists. */
export const statisticsResponse = z.union([
  z.array(z.object({ timestamp: z.string(), _id: z.null(), hostnames: z.object({ up: z.number().int(), down: z.number().int() }) })),
  z.array(z.object({ hostnames: z.record(z.string(), z.array(z.string())) })),
]);

/** GET /api/hosts/statistics/{online|unique_online|unique_updated|unique_dist_upgraded|new_hosts} */
export async function statisticsHandler(req: RouteRequest): Promise<{ body: unknown[] }> {
  const kind = STATISTICS.find((k) => k === req.params.kind);
  if (!kind) throw new NotFound(`No statistic "${req.params.kind ?? ''}": use ${STATISTICS.join(', ')}`);
  return { body: await statistic(kind, req, compiledSnapshots) };
}
