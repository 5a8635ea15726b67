/**
 * `seedFleet`: writes a realistic, deterministic fleet through the local API (as the system
 * principal, so every item is what the service itself would have written): hosts with full
 * grains, nodegroups, nested groups, actions, failed patches, alerts, tasks, snapshots and
 * patches. Large collections stream in batches.
 */
import { systemContext, type Doc, type Runtime } from '@fleet/engine';
import { actionBatches, type ActionBatchOptions } from './action-batches';
import type { HostRef } from './actions';
import { groupDocs, nodegroupDocs, taskDocs, updateDocs } from './catalog';
import { planGroups, planNodegroups } from './groups';
import { hostDocs, type SeededHost } from './hosts';
import { alertDocs, failedPatchDocs } from './incidents';
import { createRng } from './prng';
import { summaryOf, writeSnapshots, type HostSummary } from './snapshots';
import { planHosts } from './topology';
import { type BatchOptions, createAll, DEFAULT_BATCH } from './write';

/** The collections seedFleet writes, in the order it writes them. */
export const SEEDED_COLLECTIONS = [
  'nodegroups',
  'groups',
  'updates',
  'actions',
  'hosts',
  'failed_patches',
  'alerts',
  'tasks',
  'hosts_statistic',
] as const;
/** A collection seedFleet writes. */
export type SeededCollection = (typeof SEEDED_COLLECTIONS)[number];

/** Options of {@link seedFleet}. Everything has a default. */
export interface SeedOptions {
  /** Number of hosts (default 50); ~95% have an accepted key. */
  readonly hosts?: number;
  /** Total number of actions (default 20 per host), spread over the accepted hosts and 90 days. */
  readonly actions?: number;
  /** PRNG seed (default 1): same seed and `now`, same fleet. */
  readonly seed?: number;
  /** Reference time of every generated timestamp (default: the current time). */
  readonly now?: Date;
  /** Number of hosts_statistic snapshots (default 24), `snapshotIntervalMs` apart. */
  readonly snapshots?: number;
  /** Time between two snapshots (default one hour; the server takes one every 5 minutes). */
  readonly snapshotIntervalMs?: number;
  /** Grain key of the nested tool object (GRAIN_TOOL_KEY, default `tool`). */
  readonly toolKey?: string;
  /** Documents per insert: actions default to 50,000, the other large collections to 5,000. */
  readonly batchSize?: number;
  /** Told after each insert how many of the {@link seedTotal} items it wrote. */
  readonly onWritten?: (items: number) => void;
  /**
   * Stores the actions (default: batches through the local API). A benchmark's bulk loader
   * passes its own, which must store exactly what the default would.
   */
  readonly writeActions?: ActionsWriter;
}

/** What an {@link ActionsWriter} stored: how many actions, and each host's latest action id. */
export interface WrittenActions {
  readonly count: number;
  readonly lastAction: ReadonlyMap<string, string>;
}

/** Stores the actions of `targets` that `options` describe (action-batches.ts yields them). */
export type ActionsWriter = (
  runtime: Runtime,
  targets: readonly HostRef[],
  options: ActionBatchOptions,
  onWritten?: (items: number) => void,
) => Promise<WrittenActions>;

/** The items a seed writes in all, as {@link SeedResult.counts} adds up (for its progress). */
export function seedTotal(options: Pick<SeedOptions, 'hosts' | 'actions' | 'snapshots'>): number {
  const hosts = options.hosts ?? 50;
  const actions = hosts === 0 ? 0 : (options.actions ?? hosts * 20);
  const fixed = 9 + 17 + 5 + 10; // nodegroups, groups, updates, tasks
  return fixed + actions + hosts + Math.ceil(hosts / 10) + Math.ceil(hosts / 4) + (options.snapshots ?? 24);
}

/** What {@link seedFleet} wrote. */
export interface SeedResult {
  /**
   * Documents written per collection: hosts = `hosts`; actions = `actions` (0 without accepted
   * hosts); failed_patches = ceil(hosts / 10); alerts = ceil(hosts / 4); tasks = 10;
   * hosts_statistic = `snapshots`; nodegroups = 9; groups = 17; updates = 5.
   */
  readonly counts: Readonly<Record<SeededCollection, number>>;
  /** Host ids in generation order (the first ones make handy examples). */
  readonly hostIds: readonly string[];
  /** Ids of the type 1 (rule) groups. */
  readonly ruleGroupIds: readonly string[];
  /** Milliseconds spent per collection (generation and writes). */
  readonly timings: Readonly<Record<SeededCollection, number>>;
  readonly ms: number;
}

/**
 * Actions per insert. Measured on 1M actions (2 slow cores): 5,000 per insert spends most of its
 * time rewriting the same (host, _created) index pages commit after commit (125 s); 50,000 sorted
 * by host rewrites each page about once per commit (45-50 s; 25,000: 54 s). The price is memory:
 * the seeding process peaks around 600 MB (460 MB at 25,000), whatever the number of actions.
 */
const ACTION_BATCH = 50_000;

/** Passes the documents through, keeping each host's summary for the snapshots. */
function* tapSummaries(docs: Iterable<SeededHost>, into: HostSummary[]): Generator<SeededHost> {
  for (const doc of docs) {
    into.push(summaryOf(doc));
    yield doc;
  }
}

/** Streams the actions in through the local API; returns each host's latest action id. */
const writeActions: ActionsWriter = async (runtime, targets, options, onWritten) => {
  const lastAction = new Map<string, string>();
  let count = 0;
  for await (const docs of actionBatches(targets, options)) {
    await runtime.resources.get('actions').createMany(docs, systemContext(runtime));
    count += docs.length;
    onWritten?.(docs.length);
    // Batches come in time order, each host's actions in time order within them: the last wins.
    for (const doc of docs) if (typeof doc.host === 'string') lastAction.set(doc.host, doc._id);
  }
  return { count, lastAction };
};

/** The seed writes into an empty fleet only (`seed --reset` empties it first, at the bootstrap). */
async function refuseExistingHosts(runtime: Runtime): Promise<void> {
  const existing = await runtime.resources
    .get('hosts')
    .count({}, systemContext(runtime), { showDeleted: true });
  if (existing > 0)
    throw new Error(
      `the store already has ${existing} host(s): seed with --reset to replace the seeded collections`,
    );
}

/** Seeds the fleet through the engine's runtime (collections already ensured, no host stored yet). */
export async function seedFleet(runtime: Runtime, options: SeedOptions = {}): Promise<SeedResult> {
  const started = Date.now();
  const hosts = options.hosts ?? 50;
  const seed = options.seed ?? 1;
  const now = (options.now ?? new Date()).getTime();
  const batch = options.batchSize ?? DEFAULT_BATCH;
  const toolKey = options.toolKey ?? 'tool';
  if (!Number.isSafeInteger(hosts) || hosts < 0) throw new Error('hosts must be a whole number >= 0');
  await refuseExistingHosts(runtime);

  const specs = planHosts(createRng(seed), hosts);
  const accepted = specs.filter((s) => s.key === 'accepted');
  const nodegroups = planNodegroups(specs);
  const groups = planGroups(seed);
  const counts = {
    nodegroups: 0,
    groups: 0,
    updates: 0,
    actions: 0,
    hosts: 0,
    failed_patches: 0,
    alerts: 0,
    tasks: 0,
    hosts_statistic: 0,
  } satisfies Record<SeededCollection, number>;

  const timings = { ...counts };
  const write = async (name: SeededCollection, docs: Iterable<Doc>, batching: BatchOptions = {}) => {
    const t0 = Date.now();
    const progress = options.onWritten === undefined ? {} : { onWritten: options.onWritten };
    counts[name] = await createAll(runtime, name, docs, { ...batching, ...progress });
    timings[name] = Date.now() - t0;
  };

  await write('nodegroups', nodegroupDocs(nodegroups, now));
  await write('groups', groupDocs(groups, now));
  await write('updates', updateDocs(seed, now));

  const actionsStarted = Date.now();
  const actions = await (options.writeActions ?? writeActions)(
    runtime,
    accepted,
    {
      seed,
      now,
      total: options.actions ?? hosts * 20,
      spanDays: 90,
      batch: options.batchSize ?? ACTION_BATCH,
    },
    options.onWritten,
  );
  counts.actions = actions.count;
  timings.actions = Date.now() - actionsStarted;

  const summaries: HostSummary[] = [];
  const hostContext = { seed, now, toolKey, nodegroups, groups, lastAction: actions.lastAction };
  await write('hosts', tapSummaries(hostDocs(specs, hostContext), summaries), {
    size: Math.min(batch, 2000),
  });
  await write('failed_patches', failedPatchDocs(accepted, { seed, now, count: Math.ceil(hosts / 10) }), {
    size: batch,
  });
  await write('alerts', alertDocs(specs, { seed, now, count: Math.ceil(hosts / 4) }), { size: batch });
  await write('tasks', taskDocs(accepted, { seed, now }));
  const snapshotsStarted = Date.now();
  const snapshots = {
    seed,
    now,
    count: options.snapshots ?? 24,
    ...(options.snapshotIntervalMs ? { intervalMs: options.snapshotIntervalMs } : {}),
  };
  counts.hosts_statistic = await writeSnapshots(
    (name, docs) =>
      createAll(runtime, name, docs, {
        size: 500,
        // The compact history rows are not counted in the total; the snapshots are.
        ...(name === 'hosts_statistic' && options.onWritten ? { onWritten: options.onWritten } : {}),
      }),
    summaries,
    snapshots,
  );
  timings.hosts_statistic = Date.now() - snapshotsStarted;

  return {
    counts,
    timings,
    hostIds: specs.map((s) => s.id),
    ruleGroupIds: groups.filter((g) => g.type === 1).map((g) => g.id),
    ms: Date.now() - started,
  };
}
