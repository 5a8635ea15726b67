/**
 * The settings of `pnpm bench`, from the environment: BENCH_ONLY picks scenarios (`S1,S3`; `RSS`
 * for the seeded store's RSS and start-up alone), BENCH_QUICK=1 a short run (1 round of 2 s), and
 * BENCH_ROUNDS / BENCH_SECONDS / BENCH_WARMUP / BENCH_HOSTS / BENCH_ACTIONS / BENCH_BIG_HOSTS /
 * BENCH_ATTACK_SECONDS / BENCH_ATTACK_VIEWERS / BENCH_CONTENTION_SECONDS override the defaults one
 * by one (`ATK` selects the attack row, attack.ts; `S12` the two processes on one file, contention.ts).
 */

/** What a run measures and how long. */
export interface BenchOptions {
  /** Selected scenario ids (`S1` .. `S12`, `RSS`, `ATK`), upper case; undefined = all. */
  readonly only: ReadonlySet<string> | undefined;
  readonly quick: boolean;
  /** Alternated rounds: each runs every selected scenario once; the table gives medians. */
  readonly rounds: number;
  /** Measured seconds of one scenario in one round, and the warm-up before it. */
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** The seeded store of S3-S5, S7 and of the RSS and start-up rows. */
  readonly hosts: number;
  readonly actions: number;
  /** Hosts of S2 (the anchors' generator at this size). */
  readonly bigHosts: number;
  /** Days of history of S9, and timed requests of each of its statistics per round. */
  readonly statDays: number;
  readonly statRequests: number;
  /** Seconds of each attack (ATK1, ATK2), and the viewers sending the worst reads in it. */
  readonly attackSeconds: number;
  readonly attackViewers: number;
  /** BENCH_SCALE=1: the 100,000-host set (scale.ts) instead of the table. */
  readonly scale: boolean;
  /** Measured seconds of S12's load (two processes writing to one file). */
  readonly contentionSeconds: number;
}

function envInt(env: NodeJS.ProcessEnv, name: string, dflt: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`${name} must be a positive whole number (got "${raw}")`);
  return n;
}

/** The options of this run. */
export function benchOptions(env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const quick = env.BENCH_QUICK === '1' || env.BENCH_QUICK === 'true';
  const only = env.BENCH_ONLY?.trim();
  return {
    only:
      only === undefined || only === ''
        ? undefined
        : new Set(only.split(',').map((s) => s.trim().toUpperCase())),
    quick,
    rounds: envInt(env, 'BENCH_ROUNDS', quick ? 1 : 3),
    seconds: envInt(env, 'BENCH_SECONDS', quick ? 2 : 5),
    warmupSeconds: envInt(env, 'BENCH_WARMUP', quick ? 1 : 2),
    hosts: envInt(env, 'BENCH_HOSTS', 10_000),
    actions: envInt(env, 'BENCH_ACTIONS', 1_000_000),
    bigHosts: envInt(env, 'BENCH_BIG_HOSTS', 100_000),
    statDays: envInt(env, 'BENCH_STAT_DAYS', quick ? 3 : 30),
    statRequests: envInt(env, 'BENCH_STAT_REQUESTS', quick ? 3 : 10),
    attackSeconds: envInt(env, 'BENCH_ATTACK_SECONDS', quick ? 10 : 60),
    attackViewers: envInt(env, 'BENCH_ATTACK_VIEWERS', 16),
    scale: env.BENCH_SCALE === '1' || env.BENCH_SCALE === 'true',
    contentionSeconds: envInt(env, 'BENCH_CONTENTION_SECONDS', quick ? 10 : 60),
  };
}

/** Whether scenario `id` (`S3`, or a sub-scenario `S5a` by its number) runs. */
export function selected(options: BenchOptions, id: string): boolean {
  if (options.only === undefined) return true;
  const upper = id.toUpperCase();
  return options.only.has(upper) || options.only.has(upper.replace(/[A-Z]$/, ''));
}
