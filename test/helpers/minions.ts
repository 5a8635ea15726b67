/** The simulated master's minion ids, sorted: what a sync or a ping should find. */
import type { SaltSim } from '@fleet/salt-sim';

/** Accepted keys; of those, the minions that are up, or down. */
export function minionIds(sim: SaltSim, which: 'accepted' | 'up' | 'down'): string[] {
  return [...sim.fleet.minions.values()]
    .filter((m) => m.key === 'accepted' && (which === 'accepted' || m.up === (which === 'up')))
    .map((m) => m.id)
    .sort();
}
