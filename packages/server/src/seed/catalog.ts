/**
 * The small collections: nodegroups and groups (from their plans), the patches (`updates`) and
 * the scheduled tasks. (VPN managers and organizations live on a VPN server: the seed writes none;
 * `pnpm demo` shows them against the simulated one.)
 */
import type { Doc } from '@fleet/engine';
import { nextRun } from '@fleet/resources';
import type { GroupPlan, NodegroupPlan } from './groups';
import { PATCH_NAMES } from './incidents';
import { jidOf } from './actions';
import { at } from './at';
import { forkRng } from './prng';
import type { HostSpec } from './topology';
import { ID_KIND, seededObjectId, stamped } from './write';

const DAY = 86_400_000;

/** Nodegroup documents: the id is the name. */
export function nodegroupDocs(plans: readonly NodegroupPlan[], now: number): Doc[] {
  return plans.map((n) =>
    stamped({ _id: n.name, name: n.name, type: 1, info: { ...n.info } }, new Date(now - 200 * DAY)),
  );
}

/** Group documents: containers carry `subgroups`, rule groups their `info`. */
export function groupDocs(plans: readonly GroupPlan[], now: number): Doc[] {
  return plans.map((g, i) =>
    stamped(
      { _id: g.id, name: g.name, type: g.type, subgroups: [...g.subgroups], info: { ...g.info } },
      new Date(now - 180 * DAY + i * 60_000),
      new Date(now - (i + 1) * DAY),
    ),
  );
}

/** The patches of the master's file server. */
export function updateDocs(seed: number, now: number): Doc[] {
  return PATCH_NAMES.map((name, i) =>
    stamped(
      {
        _id: seededObjectId(seed, ID_KIND.update, i + 1),
        name: `${name}.sls`,
        text: `# patches/${name}.sls\ninstall-packages:\n  cmd.run:\n    - name: apt-get install -y --only-upgrade ${name.split('-')[0] ?? name}\n`,
        description: i % 2 === 0 ? `Rolls out ${name}` : '',
      },
      new Date(now - (90 - i * 10) * DAY),
    ),
  );
}

interface TaskPlan {
  readonly name: string;
  readonly fun: string;
  readonly kwarg: Record<string, unknown>;
  readonly every: number | string;
  readonly paused?: boolean;
  readonly role?: string;
}

const TASKS: readonly TaskPlan[] = [
  { name: 'Ping the fleet', fun: 'test.ping', kwarg: {}, every: 180 },
  { name: 'Disk usage report', fun: 'cmd.run', kwarg: { cmd: 'df -h /' }, every: 3600 },
  { name: 'Nightly baseline', fun: 'state.apply', kwarg: { mods: 'baseline' }, every: '0 2 * * *' },
  {
    name: 'Pilot ring patches',
    fun: 'state.apply',
    kwarg: { mods: 'patches.openssl-2024-07' },
    every: '0 3 * * 0',
  },
  {
    name: 'Restart kiosk browser',
    fun: 'cmd.run',
    kwarg: { cmd: 'systemctl restart kiosk-browser' },
    every: '30 6 * * 1-5',
    role: 'kiosk',
  },
  { name: 'Sync modules', fun: 'saltutil.sync_all', kwarg: {}, every: 86400, paused: true },
  {
    name: 'Check the minion service',
    fun: 'cmd.run',
    kwarg: { cmd: 'systemctl is-active salt-minion' },
    every: 900,
    paused: true,
  },
  { name: 'Quarterly reboot', fun: 'system.reboot', kwarg: { at_time: 5 }, every: '0 4 1 */3 *', role: 'ws' },
  { name: 'Clean /tmp', fun: 'cmd.run', kwarg: { cmd: 'find /tmp -mtime +7 -delete' }, every: 43200 },
  { name: 'Refresh grains', fun: 'saltutil.refresh_grains', kwarg: {}, every: 21600 },
];

/** Scheduled tasks (interval seconds or cron) targeting accepted hosts; `next` as the scheduler computes it. */
export function taskDocs(targets: readonly HostSpec[], options: { seed: number; now: number }): Doc[] {
  if (targets.length === 0) return [];
  const rng = forkRng(options.seed, 'tasks');
  const now = new Date(options.now);
  return TASKS.map((plan, i) => {
    const pool = plan.role ? targets.filter((t) => t.role === plan.role) : targets;
    const from = pool.length > 0 ? pool : targets;
    const first = rng.int(0, from.length - 1);
    const tgt = Array.from(
      { length: Math.min(from.length, rng.int(1, 25)) },
      (_, k) => at(from, (first + k) % from.length).id,
    );
    const start = new Date(Math.floor((options.now - rng.int(2, 60) * DAY) / 60_000) * 60_000);
    const interval = typeof plan.every === 'number' ? plan.every : null;
    const cron = typeof plan.every === 'string' ? plan.every : null;
    const schedule = { start, end: null, interval, cron };
    const next = nextRun(schedule, now);
    const runs =
      interval === null ? rng.int(2, 40) : Math.floor((options.now - start.getTime()) / (interval * 1000));
    const lastRun = new Date(options.now - rng.int(60, 3600) * 1000);
    return stamped(
      {
        _id: seededObjectId(options.seed, ID_KIND.task, i + 1),
        salt_client: 'local_async',
        name: plan.name,
        fun: plan.fun,
        kwarg: { ...plan.kwarg },
        arg: [],
        start,
        end: null,
        status: plan.paused === true ? 'paused' : 'scheduled',
        tgt,
        interval,
        cron,
        next,
        count_of_execution: runs,
        last_run: lastRun,
        last_jid: jidOf(lastRun.getTime() * 1000),
        last_error: null,
      },
      start,
      lastRun,
    );
  });
}
