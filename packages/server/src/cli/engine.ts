/**
 * The store and engine of a command that works on the data (`token`, `import`): the store of DATABASE_URL,
 * the engine over it with every resource and its collections declared, as the server's boot
 * does, and the store closed afterwards. Everything is then read and written through the local
 * API, as the system principal.
 */
import { createEngine, createSecretBox, type Engine, type Services } from '@fleet/engine';
import { allResources, allRouteGroups } from '@fleet/resources';
import { ConfigError, engineSettings, loadConfig, type Config } from '../config';
import { createLogger } from '../logger';
import { STORE_SCHEMA } from '../schema';
import { loadSecretKey, missingKeyMessage } from '../secrets';
import { chooseStore } from '../store';

/** What a command gets: the engine, the configuration and the data dir. */
export interface CommandEngine {
  readonly engine: Engine;
  readonly config: Config;
  readonly dataDir: string;
}

/** Opens the store and the engine, runs `work`, and closes the store whatever happens. */
export async function withEngine<T>(
  env: NodeJS.ProcessEnv,
  work: (opened: CommandEngine) => Promise<T>,
  o: { readonly services?: Services } = {},
): Promise<T> {
  const config = loadConfig(env);
  const choice = chooseStore(config.DATABASE_URL);
  // A command prints its own lines; the store's start-up chatter is left out.
  const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const store = await choice.open(log);
  try {
    const key = loadSecretKey(config.SECRET_KEY, choice.dataDir);
    const engine = createEngine({
      definitions: allResources,
      routeGroups: allRouteGroups,
      store,
      secrets: createSecretBox(key.key),
      log,
      ...(o.services ? { services: o.services } : {}),
      schema: STORE_SCHEMA,
      config: engineSettings(config),
    });
    // As the boot does: a new key is only kept when no stored secret needs the old one.
    if (key.save) {
      if (await engine.hasSealedSecrets()) throw new ConfigError(missingKeyMessage(key.path ?? 'secret-key'));
      key.save();
    }
    await engine.ensureCollections();
    return await work({ engine, config, dataDir: choice.dataDir });
  } finally {
    await store.close();
  }
}
