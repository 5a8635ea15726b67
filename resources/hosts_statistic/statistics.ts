/**
 * The aggregated statistics over the host-list snapshots (spec: /api/hosts/statistics/*), answered
 * from the compact history (docs/statistics.md): `online` from the counters stored with every
 * snapshot, or with `where` from a replay; `unique_*` and `new_hosts` from a replay that looks at
 * the hosts of the first snapshot in range and then only at the hosts each snapshot changed. Full
 * snapshots of older versions not yet converted are taken as they are. `where` is a filter on the
 * summary fields, soft-deleted hosts are left out.
 */
import {
  assertJsonBounds,
  BadRequest,
  compileResource,
  isPlainObject,
  parseDate,
  parseWhere,
  WHERE_BOUNDS,
  type CompiledResource,
  type RouteRequest,
} from '@fleet/engine';
import { z } from 'zod';
import { hosts_statistic } from '../hosts_statistic';
import {
  countedPoints,
  DIST_UPGRADED,
  foldFlags,
  matchedPoints,
  NEW,
  standalone,
  summaryFilter,
  UP,
  UPDATED,
  type Point,
  type Span,
  type SummaryFilter,
} from './fold';
import { legacyRefs, legacySnapshots, type LegacyRef } from './legacy';

type Row = Record<string, unknown>;
/** A statistics request: its query parsed by {@link onlineQuery} or {@link listsQuery}. */
export type StatisticsRequest = RouteRequest<unknown, StatisticsQuery>;
export type StatisticKind =
  'online' | 'unique_online' | 'unique_updated' | 'unique_dist_upgraded' | 'new_hosts';
export const STATISTICS: readonly StatisticKind[] = [
  'online',
  'unique_online',
  'unique_updated',
  'unique_dist_upgraded',
  'new_hosts',
];

/** One query parameter given once, or several times (the query parser then hands a list). */
const repeatable = z.union([z.string(), z.array(z.string())]);

/**
 * The two bounds of `range`, as the query parser (Express 'simple', node:querystring) hands them
 * over: `range[]` twice (the spec's form, checked by the schema), `range[0]` and `range[1]` (what qs and most clients
 * send for an array), `range` twice, or one `range` holding both separated by a comma.
 */
function rangeParts(query: {
  'range[]'?: string[] | undefined;
  range?: string | string[] | undefined;
  'range[0]'?: string | undefined;
  'range[1]'?: string | undefined;
}): readonly string[] | undefined {
  const listed = query['range[]'] ?? query.range;
  if (listed !== undefined) return Array.isArray(listed) ? listed : listed.split(',');
  const first = query['range[0]'];
  const second = query['range[1]'];
  if (first === undefined && second === undefined) return undefined;
  return [first, second].filter((p): p is string => typeof p === 'string');
}

/** `range` as two dates, or the reason it is not (a 400 naming `range`). */
function rangeOf(parts: readonly string[]): { range: [Date, Date] } | { problem: string } {
  if (parts.length !== 2) return { problem: 'give range[]=<start>&range[]=<end>' };
  const [start, end] = parts.map((p) => parseDate(p.trim()));
  if (!start || !end) return { problem: 'each bound must be a date (RFC 1123 or ISO 8601)' };
  if (start > end) return { problem: 'the start is after the end' };
  return { range: [start, end] };
}

/** The parameters every statistic reads, checked by the engine (400 naming the parameter). */
const queryFields = {
  'range[]': z
    .array(z.string())
    .length(2)
    .optional()
    .describe(
      'The period: start and end, RFC 1123 or ISO 8601 (range[]=<start>&range[]=<end>; range[0]/range[1] or range=<start>,<end> too). Default: the last 24 hours',
    )
    .meta({ examples: [['2026-11-24T00:00:00Z', '2026-11-25T00:00:00Z']] }),
  'range[0]': z.string().optional().describe('The start of the period (with range[1])'),
  'range[1]': z.string().optional().describe('The end of the period (with range[0])'),
  range: repeatable.optional().describe('The period as range=<start>&range=<end> or range=<start>,<end>'),
  where: z
    .string()
    .optional()
    .describe(
      'JSON filter on the host summaries of the snapshots (fields of hosts_statistic hosts: status, version, nodegroups, ...)',
    )
    .meta({ examples: ['{"nodegroups": "web"}'] }),
};

/** `online` reads `interval` besides: whole seconds, an integer in the document. */
const interval = z.coerce
  .number()
  .int()
  .min(0)
  .optional()
  .describe('Seconds: the least gap between two points returned (the first point is always kept)');

/** The parsed query: the period, the least gap between two points, the filter. */
function parsedQuery(
  query: Parameters<typeof rangeParts>[0] & { interval?: number | undefined; where?: string | undefined },
  ctx: z.RefinementCtx,
) {
  const parts = rangeParts(query);
  const range = parts === undefined ? undefined : rangeOf(parts);
  if (range !== undefined && 'problem' in range) {
    ctx.addIssue({ code: 'custom', path: ['range'], message: range.problem });
    return z.NEVER;
  }
  return { range: range?.range, intervalMs: (query.interval ?? 0) * 1000, where: query.where };
}

/** The query of `online`. */
export const onlineQuery = z.object({ ...queryFields, interval }).transform(parsedQuery);
/** The query of `unique_online`, `unique_updated`, `unique_dist_upgraded` and `new_hosts`. */
export const listsQuery = z.object(queryFields).transform(parsedQuery);

/** The statistics query as the handler receives it. */
export type StatisticsQuery = z.output<typeof onlineQuery>;

/** The period: the query's `range`, or the last 24 hours. */
function spanOf(query: StatisticsQuery, now: Date): Span {
  const [start, end] = query.range ?? [new Date(now.getTime() - 86_400_000), now];
  return { start, end };
}

/** `where` on the host summaries, checked against the snapshot definition and prefixed `hosts.`. */
export function summaryMatch(res: CompiledResource, raw: string | undefined): Row {
  if (raw === undefined || raw === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new BadRequest('where: not valid JSON');
  }
  if (!isPlainObject(parsed)) throw new BadRequest('where: must be a JSON object');
  // Bounded before `prefix` walks it (recursively).
  assertJsonBounds(parsed, 'where', WHERE_BOUNDS);
  return parseWhere(JSON.stringify(prefix(parsed)), { paths: res.paths });
}

function prefix(filter: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(filter)) {
    if (k.startsWith('$'))
      out[k] = Array.isArray(v) ? v.map((sub: unknown) => (isPlainObject(sub) ? prefix(sub) : sub)) : v;
    else out[`hosts.${k}`] = v;
  }
  return out;
}

/** The entry key each host-list statistic reads (codec.ts). */
const FLAG_KEY = {
  unique_online: 's',
  unique_updated: 'a',
  unique_dist_upgraded: 'd',
  new_hosts: 'c',
} as const;

/** The hosts with `flag`, in the order of `sorted` (every host, sorted once). */
const names = (sorted: readonly string[], flags: ReadonlyMap<string, number>, flag: number) =>
  sorted.filter((host) => ((flags.get(host) ?? 0) & flag) !== 0);

/** Points and flags of the full snapshots in range, looked at one by one. */
async function legacyPart(
  req: StatisticsRequest,
  refs: readonly LegacyRef[],
  o: { span: Span; filter: SummaryFilter | undefined; flags?: Map<string, number> },
): Promise<Point[]> {
  const points: Point[] = [];
  for await (const snap of legacySnapshots(req.ctx, refs)) {
    const { up, down } = standalone(snap.entries, o.span, o.filter, o.flags);
    if (up + down > 0) points.push({ timestamp: snap.timestamp, up, down });
  }
  return points;
}

/** Runs one statistic. */
export async function statistic(
  kind: StatisticKind,
  req: StatisticsRequest,
  res: CompiledResource,
): Promise<unknown[]> {
  const ctx = req.ctx;
  const span = spanOf(req.query, ctx.now);
  const filter = summaryFilter(summaryMatch(res, req.query.where));
  const gap = kind === 'online' ? req.query.intervalMs : 0;
  const refs = await legacyRefs(ctx, { from: span.start, to: span.end });
  if (kind === 'online') {
    const points =
      filter === undefined ? await countedPoints(ctx, span) : await matchedPoints(ctx, span, filter);
    if (refs.length > 0) points.push(...(await legacyPart(req, refs, { span, filter })));
    points.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
    return spaced(points, gap).map((p) => ({
      timestamp: p.timestamp.toUTCString(),
      _id: null,
      hostnames: { up: p.up, down: p.down },
    }));
  }
  const flags = new Map<string, number>();
  await foldFlags(ctx, span, { filter, flags, keys: [FLAG_KEY[kind]] });
  if (refs.length > 0) await legacyPart(req, refs, { span, filter, flags });
  const all = [...flags.keys()].sort();
  if (kind === 'unique_online') return [{ hostnames: { up: names(all, flags, UP), all } }];
  if (kind === 'unique_updated') return [{ hostnames: { updated: names(all, flags, UPDATED), all } }];
  if (kind === 'unique_dist_upgraded')
    return [{ hostnames: { distUpgraded: names(all, flags, DIST_UPGRADED), all } }];
  return [{ hostnames: { new: names(all, flags, NEW) } }];
}

/** Keeps points at least `gapMs` apart (the first one always). */
function spaced(points: readonly Point[], gapMs: number): Point[] {
  const out: Point[] = [];
  let last = -Infinity;
  for (const p of points) {
    const t = p.timestamp.getTime();
    if (t - last >= gapMs) {
      out.push(p);
      last = t;
    }
  }
  return out;
}

/** The snapshot resource, compiled once: `where` is checked against its host summary fields. */
export const compiledSnapshots = compileResource(hosts_statistic);
