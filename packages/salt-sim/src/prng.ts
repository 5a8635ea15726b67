/**
 * A small seeded PRNG (mulberry32) so that `generateFleet({ seed })` is deterministic:
 * the same seed always yields the same hosts, grains, keys and files.
 */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** `n` random bytes. */
  bytes(n: number): Buffer;
  /** `n` lowercase hex characters. */
  hex(n: number): string;
}

/** Creates a deterministic generator from a numeric seed. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const bytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, () => int(0, 255)));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => {
      const item = items[int(0, items.length - 1)];
      if (item === undefined) throw new Error('pick() needs a non-empty list');
      return item;
    },
    chance: (p) => next() < p,
    bytes,
    hex: (n) => bytes(Math.ceil(n / 2)).toString('hex').slice(0, n),
  };
}
