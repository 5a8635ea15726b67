/**
 * Realistic `grains.items` for a generated Linux host, with the key names and types of
 * salt/grains/core.py (salt-api notes §7): `mem_total` in MiB, `gpus` as {vendor, model},
 * `ip_interfaces` iface -> addresses, `saltversioninfo` as numbers, and the fleet's own
 * nested tool object (`last_distupgrade` / `last_stateapply`).
 */
import type { Rng } from './prng';
import { toolTimestamp } from './model';

/** One OS image: the grains it fixes and its kernel release. */
export interface OsProfile {
  os: string;
  os_family: string;
  osfullname: string;
  osrelease: string;
  oscodename: string;
  lsb_distrib_id: string;
  lsb_distrib_description: string;
  kernel: (rng: Rng) => string;
}

const OS_PROFILES: readonly OsProfile[] = [
  { os: 'Ubuntu', os_family: 'Debian', osfullname: 'Ubuntu', osrelease: '22.04', oscodename: 'jammy',
    lsb_distrib_id: 'Ubuntu', lsb_distrib_description: 'Ubuntu 22.04.4 LTS',
    kernel: (r) => `5.15.0-${r.int(88, 125)}-generic` },
  { os: 'Ubuntu', os_family: 'Debian', osfullname: 'Ubuntu', osrelease: '24.04', oscodename: 'noble',
    lsb_distrib_id: 'Ubuntu', lsb_distrib_description: 'Ubuntu 24.04.1 LTS',
    kernel: (r) => `6.8.0-${r.int(31, 51)}-generic` },
  { os: 'Debian', os_family: 'Debian', osfullname: 'Debian GNU/Linux', osrelease: '12', oscodename: 'bookworm',
    lsb_distrib_id: 'Debian', lsb_distrib_description: 'Debian GNU/Linux 12 (bookworm)',
    kernel: (r) => `6.1.0-${r.int(18, 28)}-amd64` },
  { os: 'Rocky', os_family: 'RedHat', osfullname: 'Rocky Linux', osrelease: '9.4', oscodename: 'Blue Onyx',
    lsb_distrib_id: 'Rocky Linux', lsb_distrib_description: 'Rocky Linux 9.4 (Blue Onyx)',
    kernel: (r) => `5.14.0-427.${r.int(13, 42)}.1.el9_4.x86_64` },
];

const CPU_MODELS = [
  'Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz',
  'Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz',
  'AMD EPYC 7313P 16-Core Processor',
  'Intel(R) Core(TM) i7-12700 CPU @ 2.10GHz',
  'Intel(R) Core(TM) i5-1235U',
] as const;

/** The `virtual` grain: bare metal or the hypervisor. */
export type Virtual = 'physical' | 'kvm' | 'VMware';

/** What `generateFleet` decides about a host before its grains are rendered. */
export interface HostSpec {
  id: string;
  role: string;
  ip: string;
  virtual: Virtual;
  saltVersion: string;
  toolKey: string;
  referenceTime: number;
}

const DAY_MS = 86_400_000;

function gpusFor(rng: Rng, spec: HostSpec): Array<{ vendor: string; model: string }> {
  if (spec.virtual === 'VMware') return [{ vendor: 'vmware', model: 'SVGA II Adapter' }];
  if (spec.virtual === 'kvm') return rng.chance(0.5) ? [{ vendor: 'cirrus logic', model: 'GD 5446' }] : [];
  if (spec.role === 'ws') {
    return [
      { vendor: 'intel', model: 'AlderLake-S GT1' },
      { vendor: 'nvidia', model: rng.pick(['GA104GL [RTX A4000]', 'AD104GL [RTX 4000 SFF Ada Generation]']) },
    ];
  }
  if (spec.role === 'kiosk') return [{ vendor: 'intel', model: 'Alder Lake-P GT2 [Iris Xe Graphics]' }];
  return [rng.pick([
    { vendor: 'matrox', model: 'Integrated Matrox G200eW3 Graphics Controller' },
    { vendor: 'aspeed', model: 'ASPEED Graphics Family' },
  ])];
}

function firmware(rng: Rng, virtual: Virtual): { serialnumber: string | null; biosversion: string | null } {
  if (virtual === 'VMware') {
    const serial = `VMware-42 ${rng.hex(2)} ${rng.hex(2)} ${rng.hex(2)} ${rng.hex(2)} ${rng.hex(2)} ${rng.hex(2)} ${rng.hex(2)}`;
    return { serialnumber: serial, biosversion: 'VMW71.00V.21100432.B64.2301110304' };
  }
  if (virtual === 'kvm') {
    // QEMU leaves the DMI serial empty more often than not: core.py then omits the grain.
    return { serialnumber: null, biosversion: rng.chance(0.8) ? '1.16.2-debian-1.16.2-1' : null };
  }
  const serial = rng.hex(7).toUpperCase();
  return { serialnumber: serial, biosversion: `${rng.int(1, 2)}.${rng.int(1, 21)}.${rng.int(0, 9)}` };
}

function network(rng: Rng, spec: HostSpec): Record<string, unknown> {
  const iface = spec.virtual === 'physical' ? 'eno1' : spec.virtual === 'kvm' ? 'ens18' : 'ens192';
  const ll = `fe80::${rng.hex(4)}:${rng.hex(2)}ff:fe${rng.hex(2)}:${rng.hex(4)}`;
  const mac = Array.from({ length: 6 }, (_, i) => (i === 0 ? '52' : rng.hex(2))).join(':');
  const ipInterfaces: Record<string, string[]> = { lo: ['127.0.0.1', '::1'], [iface]: [spec.ip, ll] };
  if (spec.role === 'build') ipInterfaces['docker0'] = ['172.17.0.1'];
  const ipv4 = Object.values(ipInterfaces).flat().filter((a) => !a.includes(':'));
  return {
    ip: spec.ip,
    ip_interfaces: ipInterfaces,
    ip4_interfaces: Object.fromEntries(Object.entries(ipInterfaces).map(([k, v]) => [k, v.filter((a) => !a.includes(':'))])),
    ipv4,
    ipv6: ['::1', ll],
    fqdn_ip4: [spec.ip],
    fqdn_ip6: [],
    fqdns: [spec.id],
    hwaddr_interfaces: { lo: '00:00:00:00:00:00', [iface]: mac },
  };
}

function hardware(rng: Rng, spec: HostSpec): Record<string, unknown> {
  const vm = spec.virtual !== 'physical';
  const cpus = vm ? rng.pick([2, 4, 8]) : spec.role === 'kiosk' ? 4 : rng.pick([8, 16, 32, 64]);
  const memGiB = vm ? rng.pick([4, 8, 16]) : spec.role === 'kiosk' ? 8 : rng.pick([32, 64, 128, 256]);
  const gpus = gpusFor(rng, spec);
  return {
    cpu_model: vm ? 'QEMU Virtual CPU version 2.5+' : rng.pick(CPU_MODELS),
    cpuarch: 'x86_64',
    num_cpus: cpus,
    // MemTotal kB // 1024: a little under the nominal size (kernel reservations).
    mem_total: memGiB * 1024 - rng.int(60, 400),
    swap_total: vm ? 0 : 8191,
    num_gpus: gpus.length,
    gpus,
    virtual: spec.virtual,
    manufacturer: vm ? (spec.virtual === 'VMware' ? 'VMware, Inc.' : 'QEMU') : rng.pick(['Dell Inc.', 'HPE', 'Intel(R) Client Systems']),
    ...firmware(rng, spec.virtual),
  };
}

/** The tool grain's two timestamps, as instants. */
export interface ToolTimes {
  readonly distupgrade: number;
  readonly stateapply: number;
}

/** When the host last ran a dist-upgrade and a state.apply, before `referenceTime`. */
export function toolTimes(rng: Rng, referenceTime: number): ToolTimes {
  const distupgrade = referenceTime - rng.int(1, 120) * DAY_MS - rng.int(0, DAY_MS);
  const stateapply = referenceTime - rng.int(0, 30) * DAY_MS - rng.int(0, DAY_MS);
  return { distupgrade, stateapply };
}

/** What {@link renderGrains} needs besides the host spec: its OS image and tool timestamps. */
export interface GrainChoices {
  readonly profile: OsProfile;
  readonly times: ToolTimes;
}

/** Renders the grains dict of one host whose OS and tool timestamps are already chosen. */
export function renderGrains(rng: Rng, spec: HostSpec, choices: GrainChoices): Record<string, unknown> {
  const [host = spec.id, ...rest] = spec.id.split('.');
  const [major = 0, minor = 0] = spec.saltVersion.split('.').map(Number);
  const { kernel, ...os } = choices.profile;
  const { distupgrade, stateapply } = choices.times;
  return {
    id: spec.id,
    fqdn: spec.id,
    host,
    domain: rest.join('.'),
    localhost: host,
    nodename: host,
    kernel: 'Linux',
    kernelrelease: kernel(rng),
    ...os,
    osarch: os.os_family === 'RedHat' ? 'x86_64' : 'amd64',
    osmajorrelease: Number.parseInt(os.osrelease, 10),
    ...hardware(rng, spec),
    ...network(rng, spec),
    roles: [spec.role],
    saltversion: spec.saltVersion,
    saltversioninfo: [major, minor],
    init: 'systemd',
    machine_id: rng.hex(32),
    uuid: `${rng.hex(8)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(12)}`,
    tool_version: rng.pick(['2.4.1', '2.4.1', '2.5.0']),
    [spec.toolKey]: { last_distupgrade: toolTimestamp(distupgrade), last_stateapply: toolTimestamp(stateapply) },
  };
}

/** Builds the grains dict of one host; the rng makes it deterministic per fleet seed. */
export function makeGrains(rng: Rng, spec: HostSpec): Record<string, unknown> {
  const profile = rng.pick(OS_PROFILES);
  return renderGrains(rng, spec, { profile, times: toolTimes(rng, spec.referenceTime) });
}
