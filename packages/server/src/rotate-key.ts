/**
 * `fleet-api rotate-key`: seals every stored secret again under a new key, with the service
 * stopped (refused while a server holds the store; docs/secrets.md). The current key is SECRET_KEY or the key file; the new one is
 * NEW_SECRET_KEY, or one generated into `secret-key.next` before anything is rewritten, so a run
 * cut short is simply run again (values already sealed with the new key are kept).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine, createSecretBox } from '@fleet/engine';
import { allResources, allRouteGroups } from '@fleet/resources';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { loadSecretKey, MIN_KEY_LENGTH } from './secrets';
import { chooseStore, refuseUnderServer } from './store';

/** The new key: NEW_SECRET_KEY, or the one a previous run left in `secret-key.next`, or a new one saved there. */
function nextKey(env: NodeJS.ProcessEnv, nextPath: string | undefined): string {
  const given = env.NEW_SECRET_KEY?.trim();
  if (given !== undefined && given !== '') {
    if (given.length < MIN_KEY_LENGTH)
      throw new ConfigError(
        `Invalid configuration: NEW_SECRET_KEY must be at least ${MIN_KEY_LENGTH} characters`,
      );
    return given;
  }
  if (nextPath === undefined)
    throw new ConfigError(
      'SECRET_KEY gives the current key: set NEW_SECRET_KEY to the new one (16+ characters), then SECRET_KEY to it once this is done',
    );
  if (existsSync(nextPath)) return readFileSync(nextPath, 'utf8').trim();
  const key = randomBytes(32).toString('base64url');
  writeFileSync(nextPath, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

/** Runs the rotation; prints one line saying what was done and what is left to do. */
export async function rotateKeyCommand(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const config = loadConfig(env);
  const choice = chooseStore(config.DATABASE_URL);
  if (choice.kind === 'memory')
    throw new ConfigError('rotate-key needs a stored database: DATABASE_URL is memory:');
  const current = loadSecretKey(config.SECRET_KEY, choice.dataDir);
  if (current.save)
    throw new ConfigError(
      `There is no key to rotate: ${current.path ?? 'the key file'} is missing and SECRET_KEY is unset`,
    );
  const keyFile = config.SECRET_KEY === undefined ? current.path : undefined;
  const nextPath = keyFile === undefined ? undefined : `${keyFile}.next`;
  const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const store = await choice.open(log);
  let count: number;
  let key: string;
  try {
    // Before any key is made: a running server would go on sealing with the old key.
    await refuseUnderServer(store, 'fleet rotate-key');
    key = nextKey(env, nextPath);
    const engine = createEngine({
      definitions: allResources,
      routeGroups: allRouteGroups,
      store,
      secrets: createSecretBox(key),
      log,
    });
    count = await engine.resealSecrets(createSecretBox(current.key));
  } finally {
    await store.close();
  }
  if (keyFile === undefined || nextPath === undefined)
    return `Re-sealed the secrets of ${count} item(s) with NEW_SECRET_KEY: set SECRET_KEY to it before the next start`;
  const kept = join(choice.dataDir, `secret-key.old-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  renameSync(keyFile, kept);
  if (env.NEW_SECRET_KEY === undefined || env.NEW_SECRET_KEY.trim() === '') renameSync(nextPath, keyFile);
  else writeFileSync(keyFile, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return `Re-sealed the secrets of ${count} item(s); ${keyFile} holds the new key, the old one is in ${kept} (delete it once no backup needs it)`;
}
