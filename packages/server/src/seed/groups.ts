/**
 * Nodegroups (as the master's config would declare them: `E@` regex, `G@` grain, `L@` list) and
 * the nested groups of the service: type 0 containers of type 1 rule groups, plus groups whose
 * static members are listed in the hosts' `groups`.
 */
import type { Rng } from './prng';
import type { HostSpec } from './topology';
import { ID_KIND, seededObjectId } from './write';

/** A nodegroup of the master's config and how it matches a host. */
export interface NodegroupPlan {
  readonly name: string;
  readonly info: {
    readonly expression: string;
    readonly regex?: string;
    readonly grain?: Record<string, unknown>;
    readonly hosts?: string[];
  };
  readonly matches: (spec: HostSpec) => boolean;
}

/** A group of the service; `member` decides the static members (it may use the rng). */
export interface GroupPlan {
  readonly id: string;
  readonly name: string;
  readonly type: 0 | 1;
  readonly subgroups: readonly string[];
  readonly info: { readonly regex?: string; readonly grain?: Record<string, unknown> };
  readonly member?: (spec: HostSpec, rng: Rng) => boolean;
}

function regexRule(name: string, regex: string): NodegroupPlan {
  const re = new RegExp(`^(?:${regex})`);
  return { name, info: { expression: `E@${regex}`, regex }, matches: (s) => re.test(s.id) };
}

function grainRule(name: string, key: string, value: string, of: (s: HostSpec) => string): NodegroupPlan {
  return {
    name,
    info: { expression: `G@${key}:${value}`, grain: { [key]: value } },
    matches: (s) => of(s) === value,
  };
}

/** The master's nodegroups; a host's `nodegroups` are the ones that match it. */
export function planNodegroups(specs: readonly HostSpec[]): NodegroupPlan[] {
  const canary = specs
    .filter((s) => s.role === 'web' && s.key === 'accepted')
    .slice(0, 5)
    .map((s) => s.id);
  return [
    regexRule('webservers', 'web-.*'),
    regexRule('databases', '(db|cache)-.*'),
    regexRule('workstations', 'ws-.*'),
    regexRule('kiosks', 'kiosk-.*'),
    regexRule('datacenter1', '.*\\.dc1\\.example\\.net'),
    grainRule('ubuntu', 'os', 'Ubuntu', (s) => s.os.os),
    grainRule('redhat', 'os_family', 'RedHat', (s) => s.os.os_family),
    grainRule('vms', 'virtual', 'kvm', (s) => s.virtual),
    {
      name: 'canary',
      info: { expression: `L@${canary.join(',')}`, hosts: canary },
      matches: (s) => canary.includes(s.id),
    },
  ];
}

/** The group tree: Fleet > sites > rule groups, patch rings with static members. */
export function planGroups(seed: number): GroupPlan[] {
  const id = (n: number) => seededObjectId(seed, ID_KIND.group, n);
  const container = (n: number, name: string, subs: number[], member?: GroupPlan['member']): GroupPlan => ({
    id: id(n),
    name,
    type: 0,
    subgroups: subs.map(id),
    info: {},
    ...(member ? { member } : {}),
  });
  const rule = (
    n: number,
    name: string,
    info: GroupPlan['info'],
    member?: GroupPlan['member'],
  ): GroupPlan => ({
    id: id(n),
    name,
    type: 1,
    subgroups: [],
    info,
    ...(member ? { member } : {}),
  });
  return [
    container(1, 'Fleet', [2, 6, 10, 14]),
    container(2, 'Datacenter dc1', [3, 4, 5]),
    rule(3, 'dc1 web servers', { regex: 'web-\\d+\\.dc1\\.' }),
    rule(4, 'dc1 databases', { regex: '(db|cache)-\\d+\\.dc1\\.' }),
    rule(5, 'dc1 KVM guests', { regex: '.*\\.dc1\\.', grain: { virtual: 'kvm' } }),
    container(6, 'Datacenter dc2', [7, 8, 9]),
    rule(7, 'dc2 web servers', { regex: 'web-\\d+\\.dc2\\.' }),
    rule(8, 'dc2 databases', { regex: '(db|cache)-\\d+\\.dc2\\.' }),
    rule(9, 'Rocky Linux servers', { grain: { os: 'Rocky' } }),
    container(10, 'Offices', [11, 12, 13, 17]),
    rule(11, 'Berlin workstations', { regex: 'ws-\\d+\\.ber\\.' }),
    rule(12, 'Munich kiosks', { regex: 'kiosk-\\d+\\.muc\\.' }),
    rule(13, 'GPU workstations', { grain: { num_gpus: 2 } }),
    container(14, 'Patch rings', [15, 16]),
    container(15, 'Pilot ring', [], (s, rng) => s.key === 'accepted' && rng.chance(0.03)),
    container(16, 'Sunday maintenance window', [15], (s, rng) => !s.office && rng.chance(0.1)),
    rule(
      17,
      'Finance workstations',
      { regex: 'ws-00[0-4]\\d\\.ber\\.' },
      (s, rng) => s.role === 'kiosk' && s.site === 'ber' && rng.chance(0.05),
    ),
  ];
}
