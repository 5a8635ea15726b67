/**
 * The benchmarks' way to the data: an engine over a SQLite file (collections declared as the
 * server does at boot), used through its local API like every other part of the service.
 */
import { type AnyResourceDefinition, createEngine, createSecretBox, type Runtime } from '@fleet/engine';
import { openSqliteStore } from '@fleet/engine/sqlite';
import { allResources, allRouteGroups } from '@fleet/resources';
import { createLogger } from '../src/logger';
import { withoutSecondaryIndexes } from '../src/seed';

/**
 * Runs `work` with the runtime of an engine over the file at `path`; closes the file after. With
 * `bulk`, those collections are declared without their secondary indexes while `work` runs and
 * whole after it (a seed's bulk load: seed/bulk.ts).
 */
export async function withEngine<T>(
  path: string,
  secretKey: string,
  work: (runtime: Runtime) => Promise<T>,
  options: { bulk?: readonly string[] } = {},
): Promise<T> {
  const store = openSqliteStore({ path });
  const engineOf = (definitions: readonly AnyResourceDefinition[]) =>
    createEngine({
      definitions,
      routeGroups: allRouteGroups,
      store,
      secrets: createSecretBox(secretKey),
      log: createLogger('warn'),
    });
  try {
    const engine = engineOf(
      options.bulk === undefined ? allResources : withoutSecondaryIndexes(allResources, options.bulk),
    );
    await engine.ensureCollections();
    const result = await work(engine.runtime);
    if (options.bulk !== undefined) await engineOf(allResources).ensureCollections();
    return result;
  } finally {
    await store.close();
  }
}
