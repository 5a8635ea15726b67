/**
 * `grains.items` of a generated Linux host: the simulator's grains (key names and types of
 * salt/grains/core.py, the fleet's nested tool object with `YYYY-MM-DD HH:MM:SS+00:00`
 * timestamps), rendered for the OS image the topology chose, plus the host's resolver settings.
 */
import { renderGrains, toolTimes, type ToolTimes } from '@fleet/fixtures';
import type { Rng } from './prng';
import type { HostSpec } from './topology';

export type { ToolTimes };

/** The grains of one host, and the tool timestamps they carry. */
export function makeGrains(
  rng: Rng,
  spec: HostSpec,
  options: { toolKey: string; now: number },
): { grain: Record<string, unknown>; times: ToolTimes } {
  const times = toolTimes(rng, options.now);
  const grain = renderGrains(
    rng,
    { ...spec, toolKey: options.toolKey, referenceTime: options.now },
    { profile: spec.os, times },
  );
  grain.dns = { nameservers: ['10.0.0.53', '10.0.1.53'], search: [`${spec.site}.example.net`] };
  return { grain, times };
}
