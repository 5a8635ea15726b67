/**
 * Host documents: the spec's fields, full grains, key state and fingerprints, nodegroups and static
 * group memberships, the VPN user record of office machines, and the id of the host's last action.
 */
import { makeGrains } from './grains';
import type { GroupPlan, NodegroupPlan } from './groups';
import { forkRng, type Rng } from './prng';
import type { HostSpec } from './topology';
import { stamped } from './write';

/** Everything a host document is derived from besides its own spec. */
export interface HostContext {
  readonly seed: number;
  readonly now: number;
  readonly toolKey: string;
  readonly nodegroups: readonly NodegroupPlan[];
  readonly groups: readonly GroupPlan[];
  /** Host id -> the `_id` of its latest action, for the hosts that ran any. */
  readonly lastAction: ReadonlyMap<string, string>;
}

const DAY = 86_400_000;

/** `aa:bb:...`: a SHA-256 key fingerprint as `salt-key -F` prints it. */
function fingerprint(rng: Rng): string {
  return Array.from({ length: 32 }, () => rng.hex(2)).join(':');
}

/** The host document of one spec (two rng streams: the document's and the group memberships'). */
function hostDoc(spec: HostSpec, ctx: HostContext, rng: Rng, memberRng: Rng) {
  const { grain, times } = makeGrains(rng, spec, { toolKey: ctx.toolKey, now: ctx.now });
  const created = ctx.now - rng.int(100, 400) * DAY - rng.int(0, DAY);
  const heartbeat = spec.up ? ctx.now - rng.int(5, 120) * 1000 : ctx.now - rng.int(600, 20 * 86_400) * 1000;
  const current = fingerprint(rng);
  // One host in five had its key regenerated once (reinstall): the first entry keeps the old fingerprint.
  const old = rng.chance(0.2) ? fingerprint(rng) : null;
  const history =
    old === null
      ? [{ added: new Date(created), fingerprint: current }]
      : [
          { added: new Date(created), fingerprint: old },
          { added: new Date(created + rng.int(1, 90) * DAY), fingerprint: current },
        ];
  const fields = {
    _id: spec.id,
    version: spec.saltVersion,
    ip: spec.ip,
    nodegroups: ctx.nodegroups.filter((n) => n.matches(spec)).map((n) => n.name),
    groups: ctx.groups.filter((g) => g.member?.(spec, memberRng) === true).map((g) => g.id),
    grain,
    last_distupgrade: new Date(times.distupgrade),
    last_stateapply: new Date(times.stateapply),
    status: spec.up ? 'up' : 'down',
    heartbeat: spec.key === 'accepted' ? new Date(heartbeat) : null,
    key: spec.key,
    last_action: ctx.lastAction.get(spec.id) ?? null,
    nat: spec.office,
    fingerprint: current,
    fingerprint_history: history,
    identification_number: spec.office ? `INV-${String(100000 + spec.index).padStart(6, '0')}` : null,
  };
  return stamped(fields, new Date(created), new Date(Math.max(heartbeat, times.stateapply)));
}

/** A seeded host document, as {@link hostDocs} yields it. */
export type SeededHost = ReturnType<typeof hostDoc>;

/** Yields the host documents in spec order; one rng stream, so the output is deterministic. */
export function* hostDocs(specs: readonly HostSpec[], ctx: HostContext): Generator<SeededHost> {
  const rng = forkRng(ctx.seed, 'hosts');
  const memberRng = forkRng(ctx.seed, 'members');
  for (const spec of specs) yield hostDoc(spec, ctx, rng, memberRng);
}
