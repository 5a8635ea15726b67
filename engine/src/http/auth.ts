/**
 * Bearer-token authentication with the three roles of DESIGN §4. Tokens are compared by their
 * SHA-256 digest (a map lookup on a digest leaks nothing useful through timing).
 */
import { createHash } from 'node:crypto';
import type { Principal } from '../definition/define';
import type { Role } from '../definition/fields';
import { Unauthorized } from '../errors';

export interface TokenGrant {
  /** The token's name, recorded with every remote execution (never the token itself). */
  readonly name: string;
  readonly token: string;
  readonly role: Role;
}

export interface Authenticator {
  /** Resolves the `Authorization` header to a principal; throws 401. */
  authenticate(header: string | undefined): Principal;
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** Names a token by a short digest prefix when the configuration gives no name. */
export function defaultTokenName(token: string): string {
  return `token-${digest(token).slice(0, 8)}`;
}

/** An authenticator over a fixed set of token grants. */
export function createAuthenticator(grants: readonly TokenGrant[]): Authenticator {
  const byDigest = new Map(grants.map((g) => [digest(g.token), { name: g.name, role: g.role }] as const));
  return {
    authenticate(header) {
      if (!header) throw new Unauthorized();
      const m = /^(?:Bearer|Token)\s+(\S+)\s*$/i.exec(header);
      if (!m?.[1]) throw new Unauthorized('Authorization header must be "Bearer <token>"');
      const principal = byDigest.get(digest(m[1]));
      if (!principal) throw new Unauthorized('Unknown or revoked token');
      return principal;
    },
  };
}
