/**
 * The compact history's encoding, without a store: summaries encode and decode without loss
 * (absent is not null, fields outside the summary kept), changes replay to the same state, the
 * live loop does not record `_updated` alone, and a block's columns and a keyframe read back.
 */
import {
  applyChange,
  decodeEntry,
  diffEntry,
  encodeSummary,
  type Entry,
} from '../../resources/hosts_statistic/codec';
import {
  BlockColumns,
  blockSnapshots,
  BlockReader,
  frameColumns,
  readFrame,
  SNAPSHOTS,
} from '../../resources/hosts_statistic/columns';
import { changesOf, HistoryBuilder, PART_ENTRIES } from '../../resources/hosts_statistic/writer';

const T = Date.UTC(2026, 5, 1, 12);
const summary = (id: string, extra: Record<string, unknown> = {}) => ({
  _id: id,
  version: '3006.9',
  ip: '10.0.0.1',
  nodegroups: ['web', 'prod'],
  status: 'up',
  last_stateapply: new Date(T - 3_600_000),
  last_distupgrade: null,
  _created: new Date(T - 86_400_000),
  _updated: new Date(T - 60_000),
  _soft_deleted: false,
  ...extra,
});

test('a summary encodes and decodes without loss: dates, null, absent fields and fields outside the summary', () => {
  const full = summary('web-1', { heartbeat_note: { a: 1 } });
  expect(decodeEntry(encodeSummary(full))).toEqual(full);
  const { ip: _ip, ...withoutIp } = summary('web-2');
  const decoded = decodeEntry(encodeSummary(withoutIp));
  expect(decoded).toEqual(withoutIp);
  expect('ip' in decoded).toBe(false);
  expect(decodeEntry(encodeSummary(summary('web-3', { version: null }))).version).toBeNull();
});

test('a change replays to the next summary; a field that went away is unset, not nulled', () => {
  const before = encodeSummary(summary('web-1'));
  const { ip: _ip, ...rest } = summary('web-1', { status: 'down', nodegroups: ['web'] });
  const after = encodeSummary(rest);
  const change = diffEntry(before, after, { trackUpdated: true });
  expect(change).toEqual({ h: 'web-1', n: ['web'], s: 'down', r: ['i'] });
  expect(applyChange(before, change as Entry)).toEqual(after);
  expect(diffEntry(before, { ...before }, { trackUpdated: true })).toBeNull();
});

test('_updated moving alone is a change for the migration, not for the live loop', () => {
  const before = encodeSummary(summary('web-1'));
  const touched = { ...before, u: T };
  expect(diffEntry(before, touched, { trackUpdated: false })).toBeNull();
  expect(diffEntry(before, touched, { trackUpdated: true })).toEqual({ h: 'web-1', u: T });
  // With another field it is recorded either way.
  expect(diffEntry(before, { ...touched, s: 'down' }, { trackUpdated: false })).toEqual({
    h: 'web-1',
    s: 'down',
    u: T,
  });
});

test("a block's columns read back snapshot by snapshot, hosts appearing and leaving", () => {
  const state = new Map<string, Entry>([
    ['a', encodeSummary(summary('a'))],
    ['b', encodeSummary(summary('b'))],
  ]);
  const block = new BlockColumns();
  const steps = [
    [encodeSummary(summary('a', { status: 'down' })), encodeSummary(summary('b'))],
    [encodeSummary(summary('a', { status: 'down' })), encodeSummary(summary('c'))],
  ];
  let live = new Map(state);
  steps.forEach((entries, j) => {
    const changes = changesOf(live, entries, { trackUpdated: true });
    block.add(
      { id: `s${j}`, at: T + j, index: j, up: 0, down: 0, changed: changes.length },
      changes,
      (h) => !live.has(h),
    );
    live = new Map(entries.map((e) => [e.h, e]));
  });
  const columns = block.take();
  expect(blockSnapshots(columns.get(SNAPSHOTS)).map((s) => s.id)).toEqual(['s0', 's1']);
  const reader = new BlockReader(columns);
  const replayed = new Map([...state].map(([h, e]) => [h, { ...e }]));
  reader.apply(0, replayed);
  expect(replayed.get('a')?.s).toBe('down');
  // Snapshot 1: b left, c appeared (with every field): the hosts it touched.
  expect(new Set(reader.apply(1, replayed))).toEqual(new Set(['b', 'c']));
  expect([...replayed.keys()].sort()).toEqual(['a', 'c']);
  expect(decodeEntry(replayed.get('c') as Entry)).toEqual(summary('c'));
});

test('a keyframe reads back whole, or with the entry keys asked for only', () => {
  const { ip: _ip, ...noIp } = summary('b');
  const entries = [encodeSummary(summary('a')), encodeSummary(noIp)];
  const hosts = new Map<string, Entry>();
  readFrame(frameColumns(entries), hosts);
  expect([...hosts.values()].map(decodeEntry)).toEqual([summary('a'), noIp]);
  const some = new Map<string, Entry>();
  readFrame(frameColumns(entries), some, new Set(['s', 'x']));
  expect(some.get('a')).toEqual({ h: 'a', s: 'up', x: false });
});

test('a keyframe is split into parts of PART_ENTRIES hosts; a new block starts after a day', () => {
  const builder = new HistoryBuilder();
  const many = Array.from({ length: PART_ENTRIES + 1 }, (_v, i) =>
    encodeSummary(summary(`h-${String(i).padStart(5, '0')}`)),
  );
  const first = builder.add(
    { id: 'k0', timestamp: new Date(T), index: 0 },
    changesOf(builder.state.hosts, many, { trackUpdated: false }),
  );
  expect(first.starts).toBe(true);
  expect(new Set(first.rows.filter((r) => r.part !== 0).map((r) => r.part))).toEqual(new Set([1, 2]));
  const next = builder.add({ id: 'k1', timestamp: new Date(T + 300_000), index: 1 }, []);
  expect(next.starts).toBe(false);
  expect(next.rows.map((r) => r.column)).toEqual([SNAPSHOTS]);
  const day = builder.add({ id: 'k2', timestamp: new Date(T + 86_400_000), index: 2 }, []);
  expect(day.starts).toBe(true);
});
