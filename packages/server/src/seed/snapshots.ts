/**
 * hosts_statistic: hourly snapshots of the host list going back from now, each with every host's
 * summary; a few hosts change status between snapshots so the statistics endpoints have a story.
 */
import type { Doc } from '@fleet/engine';
import { forkRng } from './prng';
import { ID_KIND, seededObjectId, stamped } from './write';

/** The part of a host a snapshot keeps. */
export interface HostSummary {
  readonly _id: string;
  readonly version: string | null;
  readonly ip: string | null;
  readonly nodegroups: readonly string[];
  readonly status: string;
  readonly last_stateapply: Date | null;
  readonly last_distupgrade: Date | null;
  readonly _created: Date;
  readonly _updated: Date;
  readonly _soft_deleted: boolean;
}

/** The summary of a seeded host document. */
export function summaryOf(host: Doc): HostSummary {
  return {
    _id: host._id,
    version: (host.version as string | undefined) ?? null,
    ip: (host.ip as string | undefined) ?? null,
    nodegroups: (host.nodegroups as string[] | undefined) ?? [],
    status: (host.status as string | undefined) ?? 'down',
    last_stateapply: (host.last_stateapply as Date | null | undefined) ?? null,
    last_distupgrade: (host.last_distupgrade as Date | null | undefined) ?? null,
    _created: host._created as Date,
    _updated: host._updated as Date,
    _soft_deleted: host._soft_deleted === true,
  };
}

/** `count` snapshots, one an hour, the newest at `now` rounded down to the hour. */
export function* snapshotDocs(hosts: readonly HostSummary[], options: { seed: number; now: number; count: number; intervalMs?: number }): Generator<Doc> {
  const rng = forkRng(options.seed, 'snapshots');
  const step = options.intervalMs ?? 3_600_000;
  const newest = Math.floor(options.now / step) * step;
  for (let i = 0; i < options.count; i += 1) {
    const at = new Date(newest - (options.count - 1 - i) * step);
    const summaries = hosts
      .filter((h) => h._created <= at)
      .map((h) => (rng.chance(0.03) ? { ...h, status: h.status === 'up' ? 'down' : 'up' } : h));
    yield stamped({ _id: seededObjectId(options.seed, ID_KIND.snapshot, i + 1), hosts: summaries, timestamp: at, index: i }, at);
  }
}
