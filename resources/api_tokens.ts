/**
 * api_tokens: bearer tokens made with `fleet token create`, beside the configured API_TOKENS.
 * Only a token's SHA-256 digest is kept (the command shows the token once); `revoked` ends it and
 * keeps the record. Internal: no HTTP methods. The CLI writes it and every server instance reads
 * it, both through the local API as the system principal (packages/server/src/stored-tokens.ts).
 */
import { defineResource, f, ROLES, SYSTEM, Unprocessable } from '@fleet/engine';

/**
 * A token's name is recorded with every execution it runs and written in logs, so it has one
 * spelling: lowercase (`ADMIN` would pass for `admin` in a log), no spaces, at most 64 characters.
 */
const TOKEN_NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
export const TOKEN_NAME_RULE =
  'a token name is 1 to 64 characters: lowercase letters, digits, "_", "." and "-", starting with a letter or digit';

/** Names no token may take, and why: each would pass for something else in a record or a log. */
const RESERVED: ReadonlyMap<string, string> = new Map([
  [SYSTEM.name, 'the service records its own actions (the scheduler, the sync) under it'],
  ['constructor', 'it names a property of every JavaScript object'],
  ['prototype', 'it names a property of every JavaScript object'],
  ['__proto__', 'it names a property of every JavaScript object'],
]);
/** The names `defaultTokenName` gives to API_TOKENS without one (engine http/auth.ts). */
const GENERATED = /^token-[0-9a-f]{8}$/;

/** Why `name` cannot name a token (a sentence naming the rule), or null. */
export function tokenNameProblem(name: string): string | null {
  const reserved = RESERVED.get(name);
  if (reserved !== undefined) return `"${name}" is reserved: ${reserved}`;
  if (!TOKEN_NAME.test(name)) {
    const got = name.length > 64 ? `${name.length} characters` : JSON.stringify(name);
    return `${TOKEN_NAME_RULE} (got ${got})`;
  }
  if (GENERATED.test(name))
    return `"${name}" is reserved: API_TOKENS without a name are named token-<8 hex digits>`;
  return null;
}

const DIGEST = /^[0-9a-f]{64}$/;

export const api_tokens = defineResource({
  name: 'api_tokens',
  description:
    'Bearer tokens made with `fleet token create`, kept as SHA-256 digests. Internal: read and written through the local API only.',
  itemTitle: 'Api_token',
  fields: {
    // The length is part of the name rule, checked in `prepare` with the rule's sentence.
    name: f.string({
      required: true,
      unique: true,
      description: `Recorded with executions, as the names of API_TOKENS are; ${TOKEN_NAME_RULE}`,
    }),
    role: f.string({ required: true, enum: ROLES }),
    digest: f.string({ required: true, unique: true, description: 'SHA-256 of the token, hex' }),
    revoked: f.datetime({ nullable: true, default: null }),
  },
  methods: {},
  patchable: ['revoked'],
  hooks: {
    async prepare({ op, fields }) {
      if (op !== 'create') return fields;
      const problem = fields.name === undefined ? null : tokenNameProblem(fields.name);
      if (problem !== null) throw new Unprocessable(`api_tokens: ${problem}`, { name: problem });
      if (fields.digest !== undefined && !DIGEST.test(fields.digest))
        throw new Unprocessable('api_tokens: digest is a SHA-256 in hex', {
          digest: 'must be 64 hex digits',
        });
      return fields;
    },
  },
});
