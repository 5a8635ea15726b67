/**
 * `status.all_status` on Linux (salt/modules/status.py): cpuinfo flattened into one dict of
 * strings (flags a list), cpustats, diskstats, diskusage in bytes, loadavg, meminfo with
 * string values and a `unit`, netdev, netstats, uptime, vmstats and `w`.
 */
import type { SimMinion } from './model';

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' ? v : fallback;
}

function cpuinfo(m: SimMinion): Record<string, unknown> {
  const cpus = num(m.grains['num_cpus'], 2);
  return {
    processor: String(cpus - 1),
    vendor_id: 'GenuineIntel',
    'cpu family': '6',
    model: '106',
    'model name': typeof m.grains['cpu_model'] === 'string' ? m.grains['cpu_model'] : '',
    'cpu MHz': '2000.000',
    'cache size': '49152 KB',
    siblings: String(cpus),
    'cpu cores': String(cpus),
    flags: ['fpu', 'vme', 'de', 'pse', 'tsc', 'msr', 'sse', 'sse2', 'avx', 'avx2'],
  };
}

function iface(name: string, rx: number): Record<string, number | string> {
  return {
    iface: name,
    rx_bytes: rx,
    rx_packets: Math.floor(rx / 900),
    rx_errs: 0,
    rx_drop: 0,
    rx_fifo: 0,
    rx_frame: 0,
    rx_compressed: 0,
    rx_multicast: 0,
    tx_bytes: Math.floor(rx / 3),
    tx_packets: Math.floor(rx / 2700),
    tx_errs: 0,
    tx_drop: 0,
    tx_fifo: 0,
    tx_colls: 0,
    tx_carrier: 0,
    tx_compressed: 0,
  };
}

/** A plausible `status.all_status` return for one minion at `now`. */
export function allStatus(m: SimMinion, now = Date.now()): Record<string, unknown> {
  const memKb = num(m.grains['mem_total'], 4096) * 1024;
  const uptimeS = 86_400 * 3 + ((m.id.length * 7919) % 86_400);
  const since = new Date(now - uptimeS * 1000);
  const load = Math.round(Math.random() * 150) / 100;
  return {
    cpuinfo: cpuinfo(m),
    cpustats: {
      cpu: {
        user: 812_331,
        nice: 112,
        system: 203_114,
        idle: 41_559_201,
        iowait: 10_221,
        irq: 0,
        softirq: 4_012,
        steal: 0,
      },
      intr: { total: 912_331_201, irqs: [] },
      softirq: { total: 221_331_020, softirqs: [] },
      ctxt: 1_552_331_201,
      btime: Math.floor(since.getTime() / 1000),
      processes: 1_220_331,
      procs_running: 2,
      procs_blocked: 0,
    },
    diskstats: {
      sda: {
        major: 8,
        minor: 0,
        device: 'sda',
        reads_issued: 331_201,
        reads_merged: 120_221,
        sectors_read: 22_331_980,
        ms_spent_reading: 120_331,
        writes_completed: 1_220_331,
        writes_merged: 881_201,
        sectors_written: 91_331_228,
        ms_spent_writing: 1_901_331,
        io_in_progress: 0,
        ms_spent_in_io: 1_331_201,
        weighted_ms_spent_in_io: 2_021_331,
      },
    },
    diskusage: {
      '/': { available: 41_331_220_480, total: 105_089_261_568 },
      '/boot': { available: 801_331_200, total: 1_020_702_720 },
    },
    loadavg: { '1-min': load, '5-min': Math.round(load * 80) / 100, '15-min': Math.round(load * 60) / 100 },
    meminfo: {
      MemTotal: { value: String(memKb), unit: 'kB' },
      MemFree: { value: String(Math.floor(memKb * 0.41)), unit: 'kB' },
      MemAvailable: { value: String(Math.floor(memKb * 0.63)), unit: 'kB' },
      HugePages_Total: { value: '0' },
    },
    netdev: { lo: iface('lo', 91_331_220), eth0: iface('eth0', 8_331_220_480) },
    netstats: {
      TcpExt: { SyncookiesSent: 0, TCPTimeouts: 1_331 },
      IpExt: { InOctets: 8_331_220_480, OutOctets: 2_771_331_220 },
    },
    uptime: {
      seconds: uptimeS,
      since_iso: since.toISOString().slice(0, 23),
      since_t: Math.floor(since.getTime() / 1000),
      days: Math.floor(uptimeS / 86_400),
      time: `${Math.floor((uptimeS % 86_400) / 3600)}:${Math.floor((uptimeS % 3600) / 60)}`,
      users: 1,
    },
    vmstats: { nr_free_pages: Math.floor(memKb / 10), pgfault: 1_331_220_480, pgmajfault: 12_331 },
    w: [
      {
        user: 'admin',
        tty: 'pts/0',
        login: '09:12',
        idle: '3:02m',
        jcpu: '0.05s',
        pcpu: '0.01s',
        what: '-bash',
      },
    ],
  };
}
