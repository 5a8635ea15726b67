/**
 * Failed patch runs (`state.apply` of a patch where a step returned `result: false`, later steps
 * failing on the requisite) and alerts (vnc.connect, host.down/up, key.changed, patch.failed...).
 */
import type { Doc } from '@fleet/engine';
import { jidOf } from './actions';
import { forkRng, type Rng } from './prng';
import type { HostSpec } from './topology';
import { ID_KIND, seededObjectId, stamped } from './write';

/** Patch (state) names: the failed patches and the `updates` resource use the same ones. */
export const PATCH_NAMES = [
  'openssl-2024-07',
  'kernel-2024-08',
  'sudo-2024-09',
  'chrony-config',
  'nginx-hardening',
] as const;

const DAY = 86_400_000;

interface StepPlan {
  readonly id: string;
  readonly cmd: string;
}

const STEPS: readonly StepPlan[] = [
  { id: 'refresh-package-index', cmd: 'apt-get update -q' },
  { id: 'backup-configuration', cmd: 'tar czf /var/backups/pre-patch.tgz /etc' },
  { id: 'install-packages', cmd: 'apt-get install -y --only-upgrade openssl libssl3' },
  { id: 'restart-services', cmd: 'systemctl restart nginx' },
  { id: 'verify', cmd: 'openssl version' },
];

const FAILURES = [
  'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1234 (unattended-upgr)',
  'E: Failed to fetch http://archive.ubuntu.com/ubuntu/pool/main/o/openssl/libssl3.deb  Temporary failure resolving',
  'Job for nginx.service failed because the control process exited with error code.',
  'dpkg: error processing package libssl3:amd64 (--configure): installed package post-installation script returned error exit status 1',
];

function timeOfDay(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)}.${String((ms % 1000) * 1000 + 123).padStart(6, '0')}`;
}

function steps(rng: Rng, patch: string, startMs: number): Record<string, unknown>[] {
  const failAt = rng.int(0, STEPS.length - 1);
  let at = startMs;
  return STEPS.map((step, i) => {
    const ran = i <= failAt;
    const duration = ran ? rng.int(30, 40_000) + rng.int(0, 999) / 1000 : 0;
    const failed = i === failAt;
    const out = {
      comment: ran
        ? `Command "${step.cmd}" run`
        : `One or more requisite failed: patches.${patch}.${STEPS[failAt]?.id ?? ''}`,
      name: step.cmd,
      start_time: timeOfDay(at),
      result: ran && !failed,
      duration,
      __run_num__: i,
      __sls__: `patches.${patch}`,
      changes: ran
        ? {
            pid: rng.int(1000, 400_000),
            retcode: failed ? rng.pick([1, 2, 100]) : 0,
            stderr: failed ? rng.pick(FAILURES) : '',
            stdout: failed ? '' : 'done',
          }
        : {},
      __id__: step.id,
      cmd: 'cmd.run',
    };
    at += Math.ceil(duration);
    return out;
  });
}

/** `count` failed patch runs over the last 60 days on accepted hosts. */
export function* failedPatchDocs(
  targets: readonly HostSpec[],
  options: { seed: number; now: number; count: number },
): Generator<Doc> {
  if (targets.length === 0) return;
  const rng = forkRng(options.seed, 'failed_patches');
  const spanUs = 60 * DAY * 1000;
  for (let i = 0; i < options.count; i += 1) {
    const atUs =
      options.now * 1000 -
      spanUs +
      Math.floor((spanUs * i) / Math.max(1, options.count)) +
      rng.int(0, 999_999);
    const jid = jidOf(atUs);
    const spec = rng.pick(targets);
    const patch = rng.pick(PATCH_NAMES);
    const startMs = Math.floor(atUs / 1000) + rng.int(200, 3000);
    yield stamped(
      {
        _id: `${jid}${spec.id}`,
        jid,
        action: 'state.apply',
        host: spec.id,
        state: 'finished',
        patch,
        return: steps(rng, patch, startMs),
      },
      new Date(startMs + 60_000),
    );
  }
}

type AlertMaker = (
  rng: Rng,
  spec: HostSpec,
) => { type: string; level: string; payload: Record<string, unknown> };

const ALERTS: ReadonlyArray<readonly [AlertMaker, number]> = [
  [
    (r, s) => ({
      type: 'vnc.connect',
      level: 'info',
      payload: { hostname: s.id, status: r.chance(0.7) ? 'connected' : 'disconnected' },
    }),
    40,
  ],
  [(_r, s) => ({ type: 'host.down', level: 'warning', payload: { hostname: s.id, status: 'down' } }), 25],
  [(_r, s) => ({ type: 'host.up', level: 'info', payload: { hostname: s.id, status: 'up' } }), 20],
  [
    (r, s) => ({
      type: 'key.changed',
      level: 'warning',
      payload: {
        hostname: s.id,
        status: 'changed',
        fingerprint: Array.from({ length: 32 }, () => r.hex(2)).join(':'),
      },
    }),
    3,
  ],
  [
    (r, s) => ({
      type: 'patch.failed',
      level: 'error',
      payload: { hostname: s.id, status: 'failed', patch: r.pick(PATCH_NAMES) },
    }),
    8,
  ],
  [
    (r, s) => ({
      type: 'task.failed',
      level: 'error',
      payload: {
        hostname: s.id,
        status: 'failed',
        error: r.pick(['Minion did not return', 'master unreachable']),
      },
    }),
    4,
  ],
];

/** `count` alerts over the last 30 days; older ones are mostly read. */
export function* alertDocs(
  specs: readonly HostSpec[],
  options: { seed: number; now: number; count: number },
): Generator<Doc> {
  if (specs.length === 0) return;
  const rng = forkRng(options.seed, 'alerts');
  const total = ALERTS.reduce((s, [, w]) => s + w, 0);
  for (let i = 0; i < options.count; i += 1) {
    const at =
      options.now - 30 * DAY + Math.floor((30 * DAY * i) / Math.max(1, options.count)) + rng.int(0, 59_999);
    let roll = rng.next() * total;
    const maker = ALERTS.find(([, w]) => (roll -= w) < 0)?.[0] ?? ALERTS[0]?.[0];
    if (!maker) return;
    const spec = rng.pick(specs);
    const recent = options.now - at < 3 * DAY;
    yield stamped(
      {
        _id: seededObjectId(options.seed, ID_KIND.alert, i),
        ...maker(rng, spec),
        read: rng.chance(recent ? 0.3 : 0.95),
      },
      new Date(at),
    );
  }
}
