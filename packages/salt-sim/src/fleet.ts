/**
 * `generateFleet`: a deterministic, realistic fleet for the simulator — FQDN minion ids,
 * full grains, some hosts down, pending and rejected keys, hosts whose state runs fail,
 * nodegroups written as compound expressions and patch states under `patches/`.
 */
import { createRng, makeGrains, type Rng } from '@fleet/fixtures';
import { makePublicKey, RSA_2048_SPKI_BYTES } from './keys';
import type { Fleet, FleetOptions, KeyState, SimMinion } from './model';
import { PATCH_FILES, BASE_FILES } from './files';

/** The IP resolver every generated fleet can reach (`http://ip.fleet.example.com/`). */
export const DEFAULT_RESOLVER = 'ip.fleet.example.com';

/** 2025-01-15T00:00:00Z: generated timestamps are relative to this unless told otherwise. */
const DEFAULT_REFERENCE_TIME = Date.UTC(2025, 0, 15);

interface Site {
  code: string;
  /** Hosts at a NAT'd site share one outward address (the graph's gateway groups). */
  natAddress: string | null;
}

const SITES: readonly Site[] = [
  { code: 'ber', natAddress: '203.0.113.10' },
  { code: 'fra', natAddress: '203.0.113.20' },
  { code: 'ams', natAddress: '203.0.113.30' },
  { code: 'lon', natAddress: null },
  { code: 'nyc', natAddress: null },
];
const ROLES = ['web', 'web', 'db', 'cache', 'worker', 'build', 'ws', 'kiosk', 'gw'] as const;
const SALT_VERSIONS = ['3006.9', '3006.9', '3006.9', '3007.1', '3006.8'] as const;

function hostAddress(site: Site, siteIndex: number, n: number): { ip: string; publicIp: string } {
  if (site.natAddress !== null) {
    const ip = `10.${siteIndex + 1}.${Math.floor(n / 250)}.${(n % 250) + 10}`;
    return { ip, publicIp: site.natAddress };
  }
  const ip = `198.51.${100 + siteIndex * 10 + Math.floor(n / 250)}.${(n % 250) + 2}`;
  return { ip, publicIp: ip };
}

function makeMinion(
  rng: Rng,
  n: number,
  key: KeyState,
  opts: Required<FleetOptions>,
  saltVersion: string,
): SimMinion {
  const siteIndex = rng.int(0, SITES.length - 1);
  const site = SITES[siteIndex] ?? SITES[0]!;
  const role = rng.pick(ROLES);
  const id = `${role}-${String(n + 1).padStart(3, '0')}.${site.code}.fleet.example.com`;
  const { ip, publicIp } = hostAddress(site, siteIndex, n);
  const virtual =
    role === 'ws' || role === 'kiosk' || role === 'gw'
      ? 'physical'
      : rng.pick(['physical', 'kvm', 'kvm', 'VMware'] as const);
  const grains = makeGrains(rng, {
    id,
    role,
    ip,
    virtual,
    saltVersion,
    toolKey: opts.toolKey,
    referenceTime: opts.referenceTime,
  });
  return {
    id,
    grains,
    key,
    pem: makePublicKey(rng.bytes(RSA_2048_SPKI_BYTES)),
    up: key === 'accepted' && !rng.chance(0.08),
    failingStates: rng.chance(0.12),
    publicIp,
  };
}

/** Guarantees the scenarios tests rely on: one host down and one failing, up host. */
function ensureScenarios(accepted: SimMinion[]): void {
  if (accepted.length >= 3 && !accepted.some((m) => !m.up)) {
    const last = accepted[accepted.length - 1];
    if (last) last.up = false;
  }
  const upHosts = accepted.filter((m) => m.up);
  if (!upHosts.some((m) => m.failingStates)) {
    const first = upHosts[0];
    if (first) first.failingStates = true;
  }
}

function makeNodegroups(accepted: SimMinion[]): Record<string, string | string[]> {
  const core = accepted.slice(0, 3).map((m) => m.id);
  return {
    webservers: 'E@^web-\\d+\\.',
    databases: 'G@roles:db',
    ubuntu: 'G@os:Ubuntu',
    berlin: 'E@.*\\.ber\\.fleet\\.example\\.com$',
    core: `L@${core.join(',')}`,
    physical_ubuntu: 'G@virtual:physical and G@os:Ubuntu',
    // List form (2017.7+): one compound token per element (salt/utils/minions.py).
    edge: ['G@roles:kiosk', 'or', 'G@roles:gw'],
  };
}

/** Generates a fleet; the same `{ hosts, seed }` always yields the same fleet. */
export function generateFleet(options: FleetOptions): Fleet {
  const opts: Required<FleetOptions> = {
    seed: 1,
    toolKey: 'tool',
    referenceTime: DEFAULT_REFERENCE_TIME,
    ...options,
  };
  const rng = createRng(opts.seed);
  const pending = Math.max(1, Math.round(opts.hosts * 0.02));
  const states: KeyState[] = [
    ...Array.from({ length: opts.hosts }, (): KeyState => 'accepted'),
    ...Array.from({ length: pending }, (): KeyState => 'pending'),
    'rejected',
  ];
  const minions = states.map((key, n) => makeMinion(rng, n, key, opts, rng.pick(SALT_VERSIONS)));
  const accepted = minions.filter((m) => m.key === 'accepted');
  ensureScenarios(accepted);
  return {
    minions: new Map(minions.map((m) => [m.id, m])),
    nodegroups: makeNodegroups(accepted),
    files: new Map([...BASE_FILES, ...PATCH_FILES]),
    masterId: 'salt-master.fleet.example.com',
    saltVersion: '3006.9',
    toolKey: opts.toolKey,
    resolvers: new Map([[DEFAULT_RESOLVER, {}]]),
  };
}

/** A new minion for `controls.addMinion`, with grains drawn from its own seed. */
export function generateMinion(fleet: Fleet, id: string, key: KeyState, seed: number): SimMinion {
  const rng = createRng(seed);
  const n = fleet.minions.size;
  const base = makeMinion(
    rng,
    n,
    key,
    { hosts: 1, seed, toolKey: fleet.toolKey, referenceTime: Date.now() },
    fleet.saltVersion,
  );
  const [host = id, ...rest] = id.split('.');
  const grains = {
    ...base.grains,
    id,
    fqdn: id,
    host,
    localhost: host,
    nodename: host,
    domain: rest.join('.'),
    fqdns: [id],
  };
  return { ...base, id, grains, up: key === 'accepted', failingStates: false };
}
