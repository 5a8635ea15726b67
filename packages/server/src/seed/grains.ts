/**
 * `grains.items` of a generated Linux host, with the key names and types of salt/grains/core.py:
 * `mem_total` in MiB, `gpus` as {vendor, model}, `ip_interfaces` iface -> addresses, and the
 * fleet's nested tool object (`last_distupgrade` / `last_stateapply`, `YYYY-MM-DD HH:MM:SS+00:00`).
 */
import type { Rng } from './prng';
import type { HostSpec } from './topology';
import { toolTimestamp } from './write';

const CPU_MODELS = [
  'Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz',
  'Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz',
  'AMD EPYC 7313P 16-Core Processor',
  'Intel(R) Core(TM) i7-12700 CPU @ 2.10GHz',
] as const;

/** The two tool timestamps, as instants: the host document repeats them as datetimes. */
export interface ToolTimes {
  readonly distupgrade: number;
  readonly stateapply: number;
}

function gpusFor(rng: Rng, spec: HostSpec): Array<{ model: string; vendor: string }> {
  if (spec.virtual === 'VMware') return [{ model: 'SVGA II Adapter', vendor: 'vmware' }];
  if (spec.virtual === 'kvm') return rng.chance(0.5) ? [{ model: 'GD 5446', vendor: 'cirrus logic' }] : [];
  if (spec.role === 'ws') {
    return [
      { model: 'AlderLake-S GT1', vendor: 'intel' },
      { model: rng.pick(['GA104GL [RTX A4000]', 'AD104GL [RTX 4000 SFF Ada Generation]']), vendor: 'nvidia' },
    ];
  }
  if (spec.role === 'kiosk') return [{ model: 'Alder Lake-P GT2 [Iris Xe Graphics]', vendor: 'intel' }];
  return [rng.pick([
    { model: 'Integrated Matrox G200eW3 Graphics Controller', vendor: 'matrox' },
    { model: 'ASPEED Graphics Family', vendor: 'aspeed' },
  ])];
}

function firmware(rng: Rng, spec: HostSpec): { serialnumber: string | null; biosversion: string | null } {
  if (spec.virtual === 'VMware') return { serialnumber: `VMware-42 ${rng.hex(2)} ${rng.hex(2)} ${rng.hex(2)} ${rng.hex(2)}`, biosversion: 'VMW71.00V.21100432.B64.2301110304' };
  // QEMU leaves the DMI serial empty more often than not.
  if (spec.virtual === 'kvm') return { serialnumber: null, biosversion: rng.chance(0.8) ? '1.16.2-debian-1.16.2-1' : null };
  return { serialnumber: rng.hex(7).toUpperCase(), biosversion: `${rng.int(1, 2)}.${rng.int(1, 21)}.${rng.int(0, 9)}` };
}

function network(rng: Rng, spec: HostSpec): Record<string, unknown> {
  const iface = spec.virtual === 'physical' ? 'eno1' : spec.virtual === 'kvm' ? 'ens18' : 'ens192';
  const ll = `fe80::${rng.hex(4)}:${rng.hex(2)}ff:fe${rng.hex(2)}:${rng.hex(4)}`;
  const mac = `52:54:00:${rng.hex(2)}:${rng.hex(2)}:${rng.hex(2)}`;
  const ipInterfaces: Record<string, string[]> = { lo: ['127.0.0.1', '::1'], [iface]: [spec.ip, ll] };
  if (spec.role === 'build') ipInterfaces.docker0 = ['172.17.0.1'];
  return {
    ip: spec.ip,
    ip_interfaces: ipInterfaces,
    ipv4: Object.values(ipInterfaces).flat().filter((a) => !a.includes(':')),
    ipv6: ['::1', ll],
    fqdn_ip4: [spec.ip],
    hwaddr_interfaces: { lo: '00:00:00:00:00:00', [iface]: mac },
    dns: { nameservers: ['10.0.0.53', '10.0.1.53'], search: [`${spec.site}.example.net`] },
  };
}

function hardware(rng: Rng, spec: HostSpec): Record<string, unknown> {
  const vm = spec.virtual !== 'physical';
  const cpus = vm ? rng.pick([2, 4, 8]) : spec.office ? rng.pick([4, 8, 12]) : rng.pick([16, 32, 64]);
  const memGiB = vm ? rng.pick([4, 8, 16]) : spec.office ? rng.pick([8, 16, 32]) : rng.pick([64, 128, 256]);
  const gpus = gpusFor(rng, spec);
  return {
    cpu_model: vm ? 'QEMU Virtual CPU version 2.5+' : rng.pick(CPU_MODELS),
    cpuarch: 'x86_64',
    num_cpus: cpus,
    // MemTotal in kB // 1024: a little under the nominal size (kernel reservations).
    mem_total: memGiB * 1024 - rng.int(60, 400),
    swap_total: vm ? 0 : 8191,
    num_gpus: gpus.length,
    gpus,
    virtual: spec.virtual,
    manufacturer: vm ? (spec.virtual === 'VMware' ? 'VMware, Inc.' : 'QEMU') : rng.pick(['Dell Inc.', 'HPE', 'Lenovo']),
    ...firmware(rng, spec),
  };
}

/** The grains of one host, and the tool timestamps they carry. */
export function makeGrains(rng: Rng, spec: HostSpec, options: { toolKey: string; now: number }): { grain: Record<string, unknown>; times: ToolTimes } {
  const [host = spec.id, ...rest] = spec.id.split('.');
  const [major = 0, minor = 0] = spec.saltVersion.split('.').map(Number);
  const day = 86_400_000;
  const times = { distupgrade: options.now - rng.int(1, 120) * day - rng.int(0, day), stateapply: options.now - rng.int(0, 30) * day - rng.int(0, day) };
  const { kernel, ...os } = spec.os;
  const grain: Record<string, unknown> = {
    id: spec.id,
    fqdn: spec.id,
    host,
    domain: rest.join('.'),
    localhost: host,
    nodename: host,
    kernel: 'Linux',
    kernelrelease: kernel(rng),
    ...os,
    osarch: spec.os.os_family === 'RedHat' ? 'x86_64' : 'amd64',
    osmajorrelease: Number.parseInt(spec.os.osrelease, 10),
    ...hardware(rng, spec),
    ...network(rng, spec),
    roles: [spec.role],
    saltversion: spec.saltVersion,
    saltversioninfo: [major, minor],
    init: 'systemd',
    machine_id: rng.hex(32),
    uuid: `${rng.hex(8)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(12)}`,
    tool_version: rng.pick(['2.4.1', '2.4.1', '2.5.0']),
    [options.toolKey]: { last_distupgrade: toolTimestamp(times.distupgrade), last_stateapply: toolTimestamp(times.stateapply) },
  };
  return { grain, times };
}
