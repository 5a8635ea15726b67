/**
 * The test server as a deployment of several instances: when FLEET_TEST_INSTANCES is set (the
 * `cluster` Jest project sets it to 2), `startTestServer` starts the scale-out rig (rig.ts: N
 * `fleet serve` processes on one SQLite file behind a round-robin balancer) instead of one server
 * in the test's process, so the same tests prove that N instances behave as one. The test still
 * gets a store, an engine and a secret box: its own, over the same file and secret key (fixtures
 * written through them are what every instance reads). `logs()` is every instance's output.
 */
import {
  apiDocument,
  createEngine,
  createSecretBox,
  type AnyResourceDefinition,
  type Engine,
} from '../../engine/src';
import { allResources, allRouteGroups } from '../../resources';
import type { RunningServer } from '../../packages/server/src/boot';
import { engineSettings, type Config } from '../../packages/server/src/config';
import { createLogger } from '../../packages/server/src/logger';
import { chooseStore } from '../../packages/server/src/store';
import { RIG_SECRET_KEY, startRig } from './rig';

/** How many instances the test servers are, when the environment asks for a deployment. */
export function testInstances(): number {
  const n = Number(process.env.FLEET_TEST_INSTANCES ?? '');
  return Number.isInteger(n) && n > 1 ? n : 1;
}

/** What `startTestServer` builds its answer from. */
export interface ClusterParts {
  readonly url: string;
  readonly engine: Engine;
  readonly server: RunningServer;
  readonly dir: string;
  readonly dbPath: string;
  readonly doc: Record<string, unknown>;
  logs(): string;
  close(): Promise<void>;
}

/**
 * Starts `instances` processes with `env` (the test server's environment, SECRET_KEY and the
 * listening address set by the rig) and the test's own engine over their store.
 */
export async function startClusterParts(
  instances: number,
  env: Readonly<Record<string, string>>,
  config: Config,
  definitions: readonly AnyResourceDefinition[] | undefined,
): Promise<ClusterParts> {
  if (definitions !== undefined && definitions !== allResources)
    throw new Error('a test server with its own resource definitions runs in the test process only');
  // The instances log at info at least: their output is how a test sees what they did.
  const level = env['LOG_LEVEL'] === 'debug' || env['LOG_LEVEL'] === 'trace' ? env['LOG_LEVEL'] : 'info';
  const rig = await startRig({ instances, env: { ...env, LOG_LEVEL: level } });
  const dbPath = rig.databaseUrl.slice('sqlite:'.length);
  const log = createLogger('silent');
  const store = await chooseStore(rig.databaseUrl, rig.dir).open(log, { checked: true });
  const secrets = createSecretBox(RIG_SECRET_KEY);
  const engine = createEngine({
    definitions: allResources,
    routeGroups: allRouteGroups,
    store,
    secrets,
    log,
    services: {},
    config: engineSettings(config),
  });
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      await store.close();
      await rig.close();
    })();
    return closed;
  };
  const server: RunningServer = {
    url: rig.url,
    port: Number(new URL(rig.url).port),
    engine,
    store,
    secrets,
    log,
    holder: 'test-process',
    // The rig's instances write in processes of their own; this probe's figures are nobody's.
    writeStats: () => Promise.resolve(undefined),
    close,
  };
  return {
    url: rig.url,
    engine,
    server,
    dir: rig.dir,
    dbPath,
    doc: apiDocument(engine.registry),
    logs: () => rig.output(),
    close,
  };
}
