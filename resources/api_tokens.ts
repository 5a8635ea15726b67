/**
 * api_tokens: bearer tokens made with `fleet token create`, beside the configured API_TOKENS.
 * Only a token's SHA-256 digest is kept (the command shows the token once); `revoked` ends it and
 * keeps the record. Internal: no HTTP methods. The CLI writes it and every server instance reads
 * it, both through the local API as the system principal (packages/server/src/stored-tokens.ts).
 */
import { defineResource, f, ROLES, Unprocessable } from '@fleet/engine';

/** Token names as API_TOKENS writes them (config.ts): they appear in logs and recorded executions. */
export const TOKEN_NAME = /^[\w.-]{1,64}$/;
const DIGEST = /^[0-9a-f]{64}$/;

export const api_tokens = defineResource({
  name: 'api_tokens',
  description:
    'Bearer tokens made with `fleet token create`, kept as SHA-256 digests. Internal: read and written through the local API only.',
  itemTitle: 'Api_token',
  fields: {
    name: f.string({
      required: true,
      unique: true,
      maxLength: 64,
      description: 'Recorded with executions, as the names of API_TOKENS are',
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
      if (fields.name !== undefined && !TOKEN_NAME.test(fields.name)) {
        throw new Unprocessable('api_tokens: a token name is letters, digits, "_", "." and "-"', {
          name: 'must match [A-Za-z0-9_.-]{1,64}',
        });
      }
      if (fields.digest !== undefined && !DIGEST.test(fields.digest))
        throw new Unprocessable('api_tokens: digest is a SHA-256 in hex', {
          digest: 'must be 64 hex digits',
        });
      return fields;
    },
  },
});
