/**
 * `fleet-api seed [--hosts N] [--actions M] [--seed S] [--snapshots K] [--snapshot-interval-s T] [--reset]`: opens the store
 * of DATABASE_URL, declares the collections as the server does at boot, seeds the fleet (its
 * progress on stderr: a bar on a terminal, a line every few seconds otherwise) and prints one
 * summary line.
 */
import { parseArgs } from 'node:util';
import { type AnyResourceDefinition, createEngine, createSecretBox } from '@fleet/engine';
import { allResources, allRouteGroups } from '@fleet/resources';
import { ConfigError, engineSettings, loadConfig } from '../config';
import { createLogger } from '../logger';
import { STORE_SCHEMA } from '../schema';
import { secretKey } from '../secrets';
import { chooseStore, emptyCollections } from '../store';
import { withoutSecondaryIndexes } from './bulk';
import { SEEDED_COLLECTIONS, seedFleet, seedTotal, type SeedResult } from './fleet';
import { seedProgress } from './progress';

/** The parsed command line of `seed`. */
export interface SeedArgs {
  readonly hosts: number;
  /** Total actions; undefined means 20 per host. */
  readonly actions: number | undefined;
  readonly seed: number;
  readonly snapshots: number;
  /** Seconds between two snapshots; undefined means 3600. */
  readonly snapshotIntervalS?: number;
  readonly reset: boolean;
}

const USAGE =
  'usage: seed [--hosts N (50)] [--actions M (20 per host)] [--seed S (1)] [--snapshots K (24)] [--snapshot-interval-s T (3600)] [--reset]';

function wholeNumber(name: string, raw: string | undefined, dflt: number | undefined): number | undefined {
  if (raw === undefined) return dflt;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isSafeInteger(n) || n < 0)
    throw new ConfigError(`seed: --${name} must be a whole number >= 0 (got "${raw}"); ${USAGE}`);
  return n;
}

/** `--snapshot-interval-s`: 1 s to a day, as SNAPSHOT_INTERVAL_S (config.ts). */
function snapshotInterval(raw: string | undefined): number | undefined {
  const n = wholeNumber('snapshot-interval-s', raw, undefined);
  if (n !== undefined && (n < 1 || n > 86_400))
    throw new ConfigError(
      `seed: --snapshot-interval-s must be between 1 and 86400 (got "${raw ?? ''}"); ${USAGE}`,
    );
  return n;
}

/** Parses the arguments after `seed`; throws ConfigError (one line) on anything unexpected. */
export function parseSeedArgs(argv: readonly string[]): SeedArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        hosts: { type: 'string' },
        actions: { type: 'string' },
        seed: { type: 'string' },
        snapshots: { type: 'string' },
        'snapshot-interval-s': { type: 'string' },
        reset: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new ConfigError(`seed: ${err instanceof Error ? err.message : String(err)}; ${USAGE}`);
  }
  const str = (k: string): string | undefined => {
    const value = values[k];
    return typeof value === 'string' ? value : undefined;
  };
  return {
    hosts: wholeNumber('hosts', str('hosts'), 50) ?? 50,
    actions: wholeNumber('actions', str('actions'), undefined),
    seed: wholeNumber('seed', str('seed'), 1) ?? 1,
    snapshots: wholeNumber('snapshots', str('snapshots'), 24) ?? 24,
    snapshotIntervalS: snapshotInterval(str('snapshot-interval-s')),
    reset: values.reset === true,
  };
}

/** The one summary line: counts per collection and the elapsed time. */
export function summaryLine(where: string, result: SeedResult): string {
  const c = result.counts;
  return (
    `seeded ${where}: ${c.hosts} hosts, ${c.actions} actions, ${c.failed_patches} failed_patches, ${c.alerts} alerts, ` +
    `${c.tasks} tasks, ${c.hosts_statistic} hosts_statistic, ${c.groups} groups, ${c.nodegroups} nodegroups, ` +
    `${c.updates} updates in ${(result.ms / 1000).toFixed(1)} s`
  );
}

/** Runs `seed` with the configuration of the environment (DATABASE_URL, SECRET_KEY, GRAIN_TOOL_KEY). */
export async function seedCommand(argv: readonly string[]): Promise<void> {
  const args = parseSeedArgs(argv);
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL);
  const choice = chooseStore(config.DATABASE_URL);
  if (choice.kind === 'memory')
    throw new ConfigError(
      'seed: DATABASE_URL=memory: would be gone when the command exits; use sqlite:<path> or mongodb://',
    );
  const store = await choice.open(log);
  try {
    const secrets = createSecretBox(secretKey(config.SECRET_KEY, choice.dataDir));
    const engineOf = (definitions: readonly AnyResourceDefinition[]) =>
      createEngine({
        definitions,
        routeGroups: allRouteGroups,
        store,
        secrets,
        log,
        schema: STORE_SCHEMA,
        config: engineSettings(config),
      });
    // The actions are loaded in bulk (bulk.ts): their indexes are declared once they are in.
    const engine = engineOf(withoutSecondaryIndexes(allResources));
    await engine.ensureCollections();
    // The snapshots' compact history (hosts_history) and the groups' kept membership go with them.
    if (args.reset)
      await emptyCollections(store, [...SEEDED_COLLECTIONS, 'hosts_history', 'host_rules', 'group_rules']);
    const progress = seedProgress({ total: seedTotal(args), stream: process.stderr });
    const started = Date.now();
    const result = await seedFleet(engine.runtime, {
      onWritten: (items) => progress.add(items),
      hosts: args.hosts,
      ...(args.actions === undefined ? {} : { actions: args.actions }),
      seed: args.seed,
      snapshots: args.snapshots,
      ...(args.snapshotIntervalS === undefined ? {} : { snapshotIntervalMs: args.snapshotIntervalS * 1000 }),
      toolKey: config.GRAIN_TOOL_KEY,
    })
      .catch((err: unknown) => {
        throw new ConfigError(
          `seed: ${choice.describe}: ${err instanceof Error ? err.message : String(err)}`,
        );
      })
      .finally(() => progress.done());
    await engineOf(allResources).ensureCollections();
    process.stdout.write(`${summaryLine(choice.describe, { ...result, ms: Date.now() - started })}\n`);
  } finally {
    await store.close();
  }
}
