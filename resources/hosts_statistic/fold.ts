/**
 * The statistics as folds over a replay of the history (docs/statistics.md). The first snapshot
 * in range is looked at whole; after it only the hosts a snapshot changed are looked at again, so
 * a request costs the hosts plus the changes in range, and holds the host list and the answer.
 * `where` is evaluated on a host's summary only when a field it names has changed.
 */
import { compileMatcher, type CallContext, type Filter } from '@fleet/engine';
import { blockPages, ChainState, replay } from './chain';
import { blockSnapshots } from './columns';
import { decodeEntry, entryKeyOf, type Entry, type Summary } from './codec';

/** What a statistic covers. */
export interface Span {
  readonly start: Date;
  readonly end: Date;
}

/** A compiled `where` on the summaries (`hosts.`-prefixed, as checked), and the entry keys it reads. */
export interface SummaryFilter {
  test(summary: Summary): boolean;
  readonly keys: ReadonlySet<string> | 'all';
}

/** A point of `online`. */
export interface Point {
  readonly timestamp: Date;
  readonly up: number;
  readonly down: number;
}

/** Flags of `unique_*`: what a host was at least once in range. */
export const SEEN = 1;
export const UP = 2;
export const UPDATED = 4;
export const DIST_UPGRADED = 8;
export const NEW = 16;

/** The filter of a checked `where`, or undefined when there is none. */
export function summaryFilter(match: Filter): SummaryFilter | undefined {
  if (Object.keys(match).length === 0) return undefined;
  const test = compileMatcher(match);
  return { test: (summary) => test({ _id: summary._id, hosts: summary }), keys: keysRead(match) };
}

/** Array.isArray narrows to any[]: the filter's lists hold unknown values. */
const isList = (v: unknown): v is readonly unknown[] => Array.isArray(v);

/** The entry keys a filter reads: `hosts.<field>` at the filter level and inside $and/$or/$nor. */
function keysRead(filter: Filter): ReadonlySet<string> | 'all' {
  const keys = new Set<string>();
  const stack: unknown[] = [filter];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isList(node)) stack.push(...node);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$and' || key === '$or' || key === '$nor') stack.push(value);
        else {
          const entryKey = key.startsWith('hosts.')
            ? entryKeyOf(key.slice('hosts.'.length).split('.')[0] ?? '')
            : undefined;
          if (entryKey === undefined) return 'all';
          keys.add(entryKey);
        }
      }
    }
  }
  return keys;
}

/** Whether each host matches `where`, remembered until a field the filter reads changes. */
class HostMatcher {
  private readonly known = new Map<string, boolean>();

  constructor(private readonly filter: SummaryFilter | undefined) {}

  get filtering(): boolean {
    return this.filter !== undefined;
  }

  /** Visible: not soft-deleted, and matching `where`. */
  visible(entry: Entry | undefined): entry is Entry {
    if (entry === undefined || entry.x === true) return false;
    if (this.filter === undefined) return true;
    let match = this.known.get(entry.h);
    if (match === undefined) {
      match = this.filter.test(decodeEntry(entry));
      this.known.set(entry.h, match);
    }
    return match;
  }

  /** A host's entry key changed (`*`: it appeared or left). */
  touched(host: string, key: string): void {
    const keys = this.filter?.keys;
    if (keys !== undefined && (keys === 'all' || key === '*' || keys.has(key))) this.known.delete(host);
  }

  /** The entry keys evaluating `where` needs, besides `base`. */
  keys(base: readonly string[]): ReadonlySet<string> | undefined {
    const keys = this.filter?.keys;
    if (keys === 'all') return undefined;
    return new Set([...base, ...(keys ?? [])]);
  }

  clear(): void {
    this.known.clear();
  }
}

/** What a fold does per snapshot: look at every host, or at the ones a snapshot changed. */
interface Observer {
  all(state: ChainState): void;
  some(hosts: readonly string[], state: ChainState): void;
  snapshot(timestamp: Date): void;
}

/**
 * Replays [start, end] and feeds the observer from the first snapshot in range on, reading only
 * the entry keys in `keys` (plus those `where` reads).
 */
async function fold(
  ctx: CallContext,
  span: Span,
  o: { matcher: HostMatcher; keys: readonly string[]; observer: Observer },
): Promise<void> {
  const { matcher, observer } = o;
  let observing = false;
  const state = new ChainState();
  const keys = matcher.keys([...o.keys, 'x']);
  const onChange = matcher.filtering ? (host: string, key: string) => matcher.touched(host, key) : undefined;
  for await (const step of replay(ctx, { from: span.start, to: span.end }, state, {
    ...(keys ? { keys } : {}),
    ...(onChange ? { onChange } : {}),
  })) {
    if (step.touched === 'all') {
      matcher.clear();
      if (observing) observer.all(state);
    } else if (observing) observer.some(step.touched, state);
    if (step.head.timestamp < span.start) continue;
    if (!observing) {
      observing = true;
      observer.all(state);
    }
    observer.snapshot(step.head.timestamp);
  }
}

/** `online` without `where`: the counters stored with every snapshot. */
export async function countedPoints(ctx: CallContext, span: Span): Promise<Point[]> {
  const points: Point[] = [];
  const [from, to] = [span.start.getTime(), span.end.getTime()];
  for await (const page of blockPages(ctx, { from: span.start, to: span.end })) {
    for (const block of page) {
      for (const s of blockSnapshots(block.data))
        if (s.at >= from && s.at <= to && s.up + s.down > 0)
          points.push({ timestamp: new Date(s.at), up: s.up, down: s.down });
    }
  }
  return points;
}

/** `online` with `where`: up and down visible hosts, kept current host by host. */
export async function matchedPoints(ctx: CallContext, span: Span, filter: SummaryFilter): Promise<Point[]> {
  const matcher = new HostMatcher(filter);
  const weight = new Map<string, 1 | 2>();
  const count = { up: 0, down: 0 };
  const points: Point[] = [];
  const look = (host: string, state: ChainState): void => {
    const before = weight.get(host);
    if (before === 1) count.up -= 1;
    if (before === 2) count.down -= 1;
    const entry = state.hosts.get(host);
    if (!matcher.visible(entry)) {
      weight.delete(host);
      return;
    }
    const now = entry.s === 'up' ? 1 : 2;
    weight.set(host, now);
    if (now === 1) count.up += 1;
    else count.down += 1;
  };
  const observer: Observer = {
    all(state) {
      for (const host of [...weight.keys(), ...state.hosts.keys()]) look(host, state);
    },
    some(hosts, state) {
      for (const host of hosts) look(host, state);
    },
    snapshot(timestamp) {
      if (count.up + count.down > 0) points.push({ timestamp, up: count.up, down: count.down });
    },
  };
  await fold(ctx, span, { matcher, keys: ['s'], observer });
  return points;
}

/** Whether a stored datetime (epoch ms) is within [start, end] (a null or a missing one is not). */
function within(value: unknown, start: number, end: number): boolean {
  return typeof value === 'number' && value >= start && value <= end;
}

/** The flags of one visible host summary in `span`. */
export function flagsOf(entry: Entry, span: Span): number {
  const start = span.start.getTime();
  const end = span.end.getTime();
  return (
    SEEN |
    (entry.s === 'up' ? UP : 0) |
    (within(entry.a, start, end) ? UPDATED : 0) |
    (within(entry.d, start, end) ? DIST_UPGRADED : 0) |
    (within(entry.c, start, end) ? NEW : 0)
  );
}

/**
 * `unique_*` and `new_hosts`: every visible host's flags over the range, added to `flags`; only
 * the entry keys of the flags asked for (`s` up, `a` updated, `d` dist-upgraded, `c` new) are read.
 */
export async function foldFlags(
  ctx: CallContext,
  span: Span,
  o: { filter: SummaryFilter | undefined; flags: Map<string, number>; keys: readonly string[] },
): Promise<void> {
  const matcher = new HostMatcher(o.filter);
  const look = (host: string, state: ChainState): void => {
    const entry = state.hosts.get(host);
    if (matcher.visible(entry)) o.flags.set(host, (o.flags.get(host) ?? 0) | flagsOf(entry, span));
  };
  const observer: Observer = {
    all(state) {
      for (const host of state.hosts.keys()) look(host, state);
    },
    some(hosts, state) {
      for (const host of hosts) look(host, state);
    },
    snapshot: () => undefined,
  };
  await fold(ctx, span, { matcher, keys: o.keys, observer });
}

/** A full snapshot (a legacy item) looked at on its own: its point and its hosts' flags. */
export function standalone(
  entries: readonly Entry[],
  span: Span,
  filter: SummaryFilter | undefined,
  flags?: Map<string, number>,
): { up: number; down: number } {
  const matcher = new HostMatcher(filter);
  let up = 0;
  let down = 0;
  for (const entry of entries) {
    if (!matcher.visible(entry)) continue;
    if (entry.s === 'up') up += 1;
    else down += 1;
    flags?.set(entry.h, (flags.get(entry.h) ?? 0) | flagsOf(entry, span));
  }
  return { up, down };
}
