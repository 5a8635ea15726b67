/**
 * Server-generated secrets kept in the data directory with mode 0600: the admin token created at
 * first start when API_TOKENS is unset, and the key that encrypts secret fields at rest.
 *
 * The key is never made up silently where one is expected: a key file that is empty or
 * short is refused (its secrets would be sealed with a guessable key), and a missing one is only
 * created when the store holds no sealed value (boot.ts asks the engine). docs/secrets.md.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultTokenName, isRole, type TokenGrant } from '@fleet/engine';
import { ConfigError } from './config';

/** Shortest key accepted, as SECRET_KEY (config.ts). */
export const MIN_KEY_LENGTH = 16;
const KEY_FILE = 'secret-key';

/** Reads `name` from the data dir, or creates it with `make()` (mode 0600). */
function keptFile(dataDir: string, name: string, make: () => string): { value: string; created: boolean } {
  const path = join(dataDir, name);
  if (existsSync(path)) return { value: readFileSync(path, 'utf8').trim(), created: false };
  mkdirSync(dataDir, { recursive: true });
  const value = make();
  writeFileSync(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  return { value, created: true };
}

/** The token grants: from API_TOKENS, or one admin token kept in the data dir. */
export function tokenGrants(
  apiTokens: string | undefined,
  dataDir: string,
): { grants: TokenGrant[]; generated?: { token: string; created: boolean; path: string } } {
  if (apiTokens) {
    const grants = apiTokens.split(',').map((entry) => {
      const trimmed = entry.trim();
      const named = /^([\w.-]+)=(.+)$/.exec(trimmed);
      const rest = named ? (named[2] ?? '') : trimmed;
      const cut = rest.lastIndexOf(':');
      const token = rest.slice(0, cut);
      const role = rest.slice(cut + 1);
      // loadConfig checked the roles of API_TOKENS; the guard tells the compiler.
      if (!isRole(role)) throw new ConfigError(`Invalid configuration: API_TOKENS: unknown role "${role}"`);
      return { name: named?.[1] ?? defaultTokenName(token), token, role };
    });
    return { grants };
  }
  const kept = keptFile(dataDir, 'admin-token', () => randomBytes(24).toString('base64url'));
  return {
    grants: [{ name: 'admin', token: kept.value, role: 'admin' }],
    generated: { token: kept.value, created: kept.created, path: join(dataDir, 'admin-token') },
  };
}

/** The key that seals secret fields; `save` is set when it is new and not yet written. */
export interface SecretKey {
  readonly key: string;
  /** The key file (`<data dir>/secret-key`), unless SECRET_KEY gave the key. */
  readonly path?: string;
  /** Writes a new key to its file (mode 0600); only after the store was found to hold no sealed value. */
  readonly save?: () => void;
}

/** SECRET_KEY, or the key file (refused when empty or short), or a new key not yet saved. */
export function loadSecretKey(configured: string | undefined, dataDir: string): SecretKey {
  if (configured !== undefined) return { key: configured };
  const path = join(dataDir, KEY_FILE);
  if (existsSync(path)) {
    const key = readFileSync(path, 'utf8').trim();
    if (key.length < MIN_KEY_LENGTH) {
      throw new ConfigError(
        `The secret key file ${path} is ${key.length === 0 ? 'empty' : `shorter than ${MIN_KEY_LENGTH} characters`}: restore it from a backup (or set SECRET_KEY); only if the store holds no secrets yet, delete it and a new key is made (docs/secrets.md)`,
      );
    }
    return { key, path };
  }
  const key = randomBytes(32).toString('base64url');
  return {
    key,
    path,
    save() {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
    },
  };
}

/** The one line of a start refused because the key file is gone while sealed values remain. */
export function missingKeyMessage(path: string): string {
  return `The store holds encrypted secrets but the key file ${path} is missing: restore it from a backup, or set SECRET_KEY to that key; a new key would make every stored secret unreadable (docs/secrets.md)`;
}

/** SECRET_KEY, or the key file, or a key generated once into the data dir (tools that seal nothing yet). */
export function secretKey(configured: string | undefined, dataDir: string): string {
  const loaded = loadSecretKey(configured, dataDir);
  loaded.save?.();
  return loaded.key;
}
