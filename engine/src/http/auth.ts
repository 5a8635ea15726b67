/**
 * Bearer-token authentication with the three roles. Tokens are compared by their
 * SHA-256 digest (a map lookup on a digest leaks nothing useful through timing). Two sources:
 * the configured grants (API_TOKENS), fixed for the life of the process, and the stored ones
 * (`fleet token create`), which their owner replaces as they change; both live in one map, so
 * a request costs one digest and one lookup whatever the number of tokens.
 */
import { createHash } from 'node:crypto';
import type { Principal } from '../definition/local-api';
import type { Role } from '../definition/fields';
import { Unauthorized } from '../errors';

export interface TokenGrant {
  /** The token's name, recorded with every remote execution (never the token itself). */
  readonly name: string;
  readonly token: string;
  readonly role: Role;
}

/** A token known only by its digest (what the store keeps). */
export interface StoredGrant {
  readonly name: string;
  /** {@link tokenDigest} of the token. */
  readonly digest: string;
  readonly role: Role;
}

export interface Authenticator {
  /** Resolves the `Authorization` header to a principal; throws 401. */
  authenticate(header: string | undefined): Principal;
}

/** An authenticator whose stored tokens can be replaced while it serves. */
export interface ReloadableAuthenticator extends Authenticator {
  /**
   * Replaces every stored token at once (created ones start working, revoked ones stop). The
   * configured grants always stay, and win over a stored token of the same digest.
   */
  replaceStored(grants: readonly StoredGrant[]): void;
}

/** The digest a token is known by: SHA-256, hex. Tokens are random, so no slow hash is needed. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Names a token by a short digest prefix when the configuration gives no name. */
export function defaultTokenName(token: string): string {
  return `token-${tokenDigest(token).slice(0, 8)}`;
}

/** An authenticator over the configured grants, and the stored ones given later. */
export function createAuthenticator(grants: readonly TokenGrant[]): ReloadableAuthenticator {
  const configured = grants.map((g) => [tokenDigest(g.token), { name: g.name, role: g.role }] as const);
  let byDigest = new Map<string, Principal>(configured);
  return {
    authenticate(header) {
      if (!header) throw new Unauthorized();
      const m = /^(?:Bearer|Token)\s+(\S+)\s*$/i.exec(header);
      if (!m?.[1]) throw new Unauthorized('Authorization header must be "Bearer <token>"');
      const principal = byDigest.get(tokenDigest(m[1]));
      if (!principal) throw new Unauthorized('Unknown or revoked token');
      return principal;
    },
    replaceStored(stored) {
      // A new map swapped in whole: a request in flight sees the old set or the new, never half.
      byDigest = new Map<string, Principal>([
        ...stored.map((g) => [g.digest, { name: g.name, role: g.role }] as const),
        ...configured,
      ]);
    },
  };
}
