/**
 * The table `pnpm bench` prints: one line per row with its medians, and the targets with
 * PASS or FAIL (a missed target is reported, never an exit code).
 */
import { RSS_GROWTH_MB } from './attack';
import type { Results } from './results';

/** One target of a row: what it asks, what was measured, whether it holds (undefined: not measured). */
export interface Verdict {
  readonly target: string;
  readonly measured: string;
  readonly pass: boolean | undefined;
  /** A figure shown for reference, with no target. */
  readonly info?: true;
}

/** The rows in print order (those without samples are left out). */
export const ROW_ORDER = [
  'S1',
  'S1:sqlite-ref',
  'S1:feathers',
  'S1:raw',
  'S1s',
  'S2',
  'S3',
  'S4',
  'S5a',
  'S5b',
  'S6a',
  'S6b',
  'S7a',
  'S7b',
  'S8a',
  'S8b',
  'S9a',
  'S9b',
  'S9c',
  'S10',
  'ATK1',
  'ATK2',
  'S11',
  'S11t',
  'S12r',
  'S12',
  'RSS',
  'START',
] as const;

const fixed = (n: number, digits = 0) =>
  Number.isNaN(n) ? '-' : Number.isFinite(n) ? n.toFixed(digits) : 'none';
const ratioText = (n: number) => (Number.isNaN(n) ? '-' : `${n.toFixed(n < 1 ? 3 : 2)} x`);

function check(target: string, value: number, ok: (v: number) => boolean, shown: string): Verdict {
  return { target, measured: shown, pass: Number.isNaN(value) ? undefined : ok(value) };
}

/** The targets, per row, from the medians; `s9Targets` maps S9 rows to their p50 limit. */
export function judge(r: Results, s9Targets: ReadonlyMap<string, number>): Map<string, Verdict[]> {
  const v = new Map<string, Verdict[]>();
  const p99 = (id: string, limit: number) =>
    check(`p99 <= ${limit} ms`, r.median(id, 'p99'), (x) => x <= limit, `${fixed(r.median(id, 'p99'))} ms`);
  const ratio = (a: string, b: string, text: string, ok: (x: number) => boolean) =>
    check(text, r.ratio(a, b), ok, ratioText(r.ratio(a, b)));
  v.set('S1', [
    ratio('S1', 'S1:sqlite-ref', '>= 1.0 x sqlite-ref', (x) => x >= 1),
    ratio('S1', 'S1:feathers', '>= 15 x feathers', (x) => x >= 15),
    p99('S1', 10),
  ]);
  v.set('S1:raw', [{ ...ratio('S1', 'S1:raw', 'ours/raw (no target)', () => true), info: true }]);
  // "S2 loses less than 1.5 x against S1": S1's req/s over S2's, on the same server code.
  v.set('S2', [ratio('S1s', 'S2', 'S1s/S2 < 1.5 x', (x) => x < 1.5)]);
  v.set('S3', [ratio('S3', 'S1:raw', '>= 0.1 x raw', (x) => x >= 0.1)]);
  for (const id of ['S4', 'S5a', 'S5b']) v.set(id, [p99(id, 15)]);
  v.set('S6a', [p99('S6a', 20)]);
  v.set('S6b', [p99('S6b', 100)]);
  for (const [id, floor] of [
    ['S7a', 3000],
    ['S7b', 1500],
  ] as const)
    v.set(id, [
      check(
        `>= ${floor} writes/s`,
        r.median(id, 'rps'),
        (x) => x >= floor,
        `${fixed(r.median(id, 'rps'))}/s`,
      ),
    ]);
  const clean = (id: string) => {
    const bad = r.sum(id, 'non2xx') + r.sum(id, 'errors');
    return check('no errors/timeouts', r.has(id) ? bad : Number.NaN, (x) => x === 0, String(bad));
  };
  v.set('S8a', [clean('S8a'), p99('S8a', 60)]);
  v.set('S8b', [clean('S8b')]);
  for (const [id, limit] of s9Targets)
    v.set(id, [
      check(
        `p50 <= ${limit} ms`,
        r.median(id, 'p50'),
        (x) => x <= limit,
        `${fixed(r.median(id, 'p50'), 1)} ms`,
      ),
    ]);
  v.set('S10', [ratio('S10', 'S1s', '>= 1.7 x S1s', (x) => x >= 1.7)]);
  const growth = (x: number) => (Number.isNaN(x) ? '-' : `${x >= 0 ? '+' : ''}${x.toFixed(0)} MB`);
  for (const id of ['ATK1', 'ATK2']) {
    const bad = r.sum(id, 'non2xx') + r.sum(id, 'errors');
    v.set(id, [
      p99(id, 100),
      check(
        `RSS back within ${RSS_GROWTH_MB} MB`,
        r.maxGrowth(id),
        (x) => x <= RSS_GROWTH_MB,
        growth(r.maxGrowth(id)),
      ),
      check('all 2xx / 400 / 429', r.has(id) ? bad : Number.NaN, (x) => x === 0, String(bad)),
    ]);
  }
  v.set('S11', [p99('S11', 50)]);
  v.set('S11t', [
    check(
      '<= 5 s',
      r.median('S11t', 'p50'),
      (x) => x <= 5000,
      `${fixed(r.median('S11t', 'p50') / 1000, 2)} s`,
    ),
  ]);
  v.set('RSS', [check('<= 300 MB', r.maxRss('RSS'), (x) => x <= 300, `${fixed(r.maxRss('RSS'))} MB`)]);
  v.set('START', [
    check(
      '<= 2 s',
      r.median('START', 'p50'),
      (x) => x <= 2000,
      `${fixed(r.median('START', 'p50') / 1000, 2)} s`,
    ),
  ]);
  return v;
}

const HEAD = [
  'id',
  'scenario',
  'req/s',
  'p50 ms',
  'p99 ms',
  'non-2xx',
  'err (t/o)',
  'RSS MB',
  'target',
  'measured',
  '',
];
const WIDTH = [13, 50, 7, 7, 7, 7, 9, 7, 22, 10, 4];

function line(cells: readonly string[]): string {
  return cells
    .map((c, i) => (i <= 1 || i >= 8 ? c.padEnd(WIDTH[i] ?? 0) : c.padStart(WIDTH[i] ?? 0)))
    .join(' ')
    .trimEnd();
}

/** The table as text lines. */
export function table(r: Results, verdicts: ReadonlyMap<string, Verdict[]>): string[] {
  const out = [line(HEAD), line(WIDTH.map((w) => '-'.repeat(w)))];
  for (const id of ROW_ORDER.filter((x) => r.has(x))) {
    const figures = [
      fixed(r.median(id, 'rps')),
      fixed(r.median(id, 'p50'), id.startsWith('S9') ? 1 : 0),
      fixed(r.median(id, 'p99'), id.startsWith('S9') ? 1 : 0),
      String(r.sum(id, 'non2xx')),
      `${r.sum(id, 'errors')} (${r.sum(id, 'timeouts')})`,
      fixed(r.maxRss(id)),
    ];
    const list = verdicts.get(id) ?? [];
    const verdict = (x: Verdict | undefined) =>
      x === undefined
        ? ['', '', '']
        : [
            x.target,
            x.measured,
            x.pass === undefined ? '-' : x.info === true ? '' : x.pass ? 'PASS' : 'FAIL',
          ];
    out.push(line([id, r.label(id), ...figures, ...verdict(list[0])]));
    for (const more of list.slice(1)) out.push(line(['', '', '', '', '', '', '', '', ...verdict(more)]));
  }
  return out;
}
