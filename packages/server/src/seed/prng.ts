/**
 * The seed's random source: the shared seeded PRNG (@fleet/fixtures, also the simulator's) (mulberry32), so the same `--seed` always
 * yields the same fleet and tests and benchmarks can name hosts and counts in advance.
 */
import { createRng, type Rng } from '@fleet/fixtures';

export { createRng, type Rng };

/** A generator for one part of the fleet: parts stay stable when another part changes size. */
export function forkRng(seed: number, part: string): Rng {
  let h = seed >>> 0;
  for (let i = 0; i < part.length; i += 1) h = Math.imul(h ^ part.charCodeAt(i), 0x01000193) >>> 0;
  return createRng(h);
}
