/**
 * The shape of the seeded fleet before any document is rendered: one small spec per host (name,
 * site, role, OS, key state), decided in one deterministic pass so every later part (grains,
 * nodegroups, group members, actions) agrees on it.
 */
import { OS_PROFILES, type OsProfile, type Virtual } from '@fleet/fixtures';
import type { Rng } from './prng';

/** Key acceptance states of the master's pki dir. */
export type KeyState = 'accepted' | 'pending' | 'rejected';
export type { OsProfile, Virtual };

/** What the generator decides about one host up front. */
export interface HostSpec {
  readonly index: number;
  /** Minion id: the host's FQDN. */
  readonly id: string;
  readonly role: string;
  readonly site: string;
  readonly office: boolean;
  readonly ip: string;
  readonly key: KeyState;
  readonly up: boolean;
  readonly virtual: Virtual;
  readonly os: OsProfile;
  readonly saltVersion: string;
}

interface Site {
  readonly name: string;
  readonly office: boolean;
}

/** Two datacenters and two offices. */
export const SITES: readonly Site[] = [
  { name: 'dc1', office: false },
  { name: 'dc2', office: false },
  { name: 'ber', office: true },
  { name: 'muc', office: true },
];

/** Roles and their weights: datacenter servers, then office machines. */
const SERVER_ROLES = [
  ['web', 30],
  ['db', 10],
  ['cache', 8],
  ['build', 6],
  ['mon', 3],
  ['edge', 8],
] as const;
const OFFICE_ROLES = [
  ['ws', 55],
  ['kiosk', 20],
] as const;
/** DNS domain under which every host is named. */
export const DOMAIN = 'example.net';

function weighted<T extends string>(rng: Rng, table: ReadonlyArray<readonly [T, number]>): T {
  const total = table.reduce((s, [, w]) => s + w, 0);
  let roll = rng.next() * total;
  for (const [value, weight] of table) {
    roll -= weight;
    if (roll < 0) return value;
  }
  const last = table[table.length - 1];
  if (last === undefined) throw new Error('empty weight table');
  return last[0];
}

function osFor(rng: Rng, office: boolean): OsProfile {
  if (office) return rng.chance(0.5) ? OS_PROFILES.jammy : OS_PROFILES.noble;
  return OS_PROFILES[
    weighted(rng, [
      ['jammy', 35],
      ['noble', 25],
      ['bookworm', 20],
      ['rocky', 20],
    ] as const)
  ];
}

function virtualFor(rng: Rng, role: string, office: boolean): Virtual {
  if (office) return role === 'kiosk' || rng.chance(0.9) ? 'physical' : 'kvm';
  const roll = rng.next();
  return roll < 0.6 ? 'kvm' : roll < 0.9 ? 'physical' : 'VMware';
}

/** A unique private address per host: 10.<site block>.<x>.<1..254>. */
function ipOf(siteIndex: number, index: number): string {
  const block = siteIndex * 16 + Math.floor(index / (254 * 256));
  return `10.${block & 255}.${Math.floor(index / 254) % 256}.${(index % 254) + 1}`;
}

/** Decides every host of the fleet: ~70% servers in two datacenters, the rest office machines. */
export function planHosts(rng: Rng, count: number): HostSpec[] {
  const numbers = new Map<string, number>();
  const specs: HostSpec[] = [];
  for (let index = 0; index < count; index += 1) {
    const office = rng.chance(0.3);
    const role = office ? weighted(rng, OFFICE_ROLES) : weighted(rng, SERVER_ROLES);
    const site = office ? (rng.chance(0.6) ? 'ber' : 'muc') : rng.chance(0.55) ? 'dc1' : 'dc2';
    const siteIndex = SITES.findIndex((s) => s.name === site);
    const n = (numbers.get(`${role}.${site}`) ?? 0) + 1;
    numbers.set(`${role}.${site}`, n);
    const keyRoll = rng.next();
    const key: KeyState = keyRoll < 0.95 ? 'accepted' : keyRoll < 0.985 ? 'pending' : 'rejected';
    specs.push({
      index,
      id: `${role}-${String(n).padStart(4, '0')}.${site}.${DOMAIN}`,
      role,
      site,
      office,
      ip: ipOf(siteIndex, index),
      key,
      // Only accepted minions answer; office machines are switched off more often.
      up: key === 'accepted' && rng.chance(office ? 0.7 : 0.93),
      virtual: virtualFor(rng, role, office),
      os: osFor(rng, office),
      saltVersion: weighted(rng, [
        ['3006.9', 60],
        ['3007.1', 30],
        ['3006.4', 10],
      ] as const),
    });
  }
  return specs;
}
