/**
 * A small seeded PRNG (mulberry32): the same `--seed` always yields the same fleet, so tests and
 * benchmarks can name hosts and counts in advance.
 */

/** A deterministic source of random choices. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** `n` lowercase hex characters. */
  hex(n: number): string;
}

const HEX = '0123456789abcdef';

/** Creates a generator from a numeric seed. */
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
  return {
    next,
    int,
    pick<T>(items: readonly T[]): T {
      const item = items[int(0, items.length - 1)];
      if (item === undefined) throw new Error('pick() needs a non-empty list');
      return item;
    },
    chance: (p) => next() < p,
    hex(n) {
      let out = '';
      for (let i = 0; i < n; i += 1) out += HEX[int(0, 15)];
      return out;
    },
  };
}

/** A generator for one part of the fleet: parts stay stable when another part changes size. */
export function forkRng(seed: number, part: string): Rng {
  let h = seed >>> 0;
  for (let i = 0; i < part.length; i += 1) h = Math.imul(h ^ part.charCodeAt(i), 0x01000193) >>> 0;
  return createRng(h);
}
