/**
 * Server-generated secrets kept in the data directory with mode 0600: the admin token created at
 * first start when API_TOKENS is unset, and the key that encrypts secret fields at rest.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultTokenName, type TokenGrant } from '@fleet/engine';

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
export function tokenGrants(apiTokens: string | undefined, dataDir: string): { grants: TokenGrant[]; generated?: { token: string; created: boolean; path: string } } {
  if (apiTokens) {
    const grants = apiTokens.split(',').map((entry) => {
      const trimmed = entry.trim();
      const named = /^([\w.-]+)=(.+)$/.exec(trimmed);
      const rest = named ? (named[2] ?? '') : trimmed;
      const cut = rest.lastIndexOf(':');
      const token = rest.slice(0, cut);
      const role = rest.slice(cut + 1) as TokenGrant['role'];
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

/** SECRET_KEY, or a key generated once into the data dir. */
export function secretKey(configured: string | undefined, dataDir: string): string {
  return configured ?? keptFile(dataDir, 'secret-key', () => randomBytes(32).toString('base64url')).value;
}
