/**
 * The benchmarks' way to the data: an engine over a SQLite file (collections declared as the
 * server does at boot), used through its local API like every other part of the service.
 */
import { createEngine, createSecretBox, type Runtime } from '@fleet/engine';
import { openSqliteStore } from '@fleet/engine/sqlite';
import { allResources, allRouteGroups } from '@fleet/resources';
import { createLogger } from '../src/logger';

/** Runs `work` with the runtime of an engine over the file at `path`; closes the file after. */
export async function withEngine<T>(
  path: string,
  secretKey: string,
  work: (runtime: Runtime) => Promise<T>,
): Promise<T> {
  const store = openSqliteStore({ path });
  try {
    const engine = createEngine({
      definitions: allResources,
      routeGroups: allRouteGroups,
      store,
      secrets: createSecretBox(secretKey),
      log: createLogger('warn'),
    });
    await engine.ensureCollections();
    return await work(engine.runtime);
  } finally {
    await store.close();
  }
}
