/**
 * The figures of every row over the rounds: medians per row (of req/s, p50 and p99 separately, as
 * run.sh takes them), errors summed, RSS at its highest, and ratios as the median of the rounds'
 * ratios (both sides measured in the same round, minutes apart at most).
 */

/** One row's figures in one round (req/s undefined where requests go one at a time). */
export interface Sample {
  readonly rps?: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** RSS of the server in MB after the measurement (NaN when unknown). */
  readonly rss: number;
  /** MB the server's RSS ended above where it started (the attack row). */
  readonly rssGrowth?: number;
}

/** The median of the numbers (the lower middle for an even count), NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN);
}

/** Every row's samples by round. */
export class Results {
  private readonly rows = new Map<string, { label: string; byRound: Map<number, Sample> }>();

  /** Records row `id`'s sample of `round`. */
  add(id: string, label: string, round: number, sample: Sample): void {
    const row = this.rows.get(id) ?? { label, byRound: new Map<number, Sample>() };
    row.byRound.set(round, sample);
    this.rows.set(id, row);
  }

  /** Whether row `id` has a sample. */
  has(id: string): boolean {
    return (this.rows.get(id)?.byRound.size ?? 0) > 0;
  }

  label(id: string): string {
    return this.rows.get(id)?.label ?? id;
  }

  /** The row's samples, in round order. */
  samples(id: string): Sample[] {
    const row = this.rows.get(id);
    return row === undefined ? [] : [...row.byRound.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
  }

  /** The median of one figure of the row. */
  median(id: string, figure: 'rps' | 'p50' | 'p99'): number {
    return median(this.samples(id).map((s) => s[figure] ?? Number.NaN));
  }

  /** The sum of a count over the rounds. */
  sum(id: string, figure: 'non2xx' | 'errors' | 'timeouts'): number {
    return this.samples(id).reduce((total, s) => total + s[figure], 0);
  }

  /** The highest RSS seen. */
  maxRss(id: string): number {
    const values = this.samples(id)
      .map((s) => s.rss)
      .filter((v) => !Number.isNaN(v));
    return values.length === 0 ? Number.NaN : Math.max(...values);
  }

  /** The largest RSS growth seen (NaN when none was measured). */
  maxGrowth(id: string): number {
    const values = this.samples(id).flatMap((s) => (s.rssGrowth === undefined ? [] : [s.rssGrowth]));
    return values.length === 0 ? Number.NaN : Math.max(...values);
  }

  /** The median over the rounds of `a`'s req/s over `b`'s, in rounds that measured both. */
  ratio(a: string, b: string): number {
    const left = this.rows.get(a)?.byRound;
    const right = this.rows.get(b)?.byRound;
    if (left === undefined || right === undefined) return Number.NaN;
    const ratios: number[] = [];
    for (const [round, s] of left) {
      const other = right.get(round);
      if (s.rps !== undefined && other?.rps !== undefined && other.rps > 0) ratios.push(s.rps / other.rps);
    }
    return median(ratios);
  }
}
