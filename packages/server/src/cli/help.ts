/** The usage of `fleet` and of each command (`fleet <command> --help`). */
import { IMPORT_USAGE } from './import';
import { NEW_RESOURCE_USAGE } from './new-resource';
import { OPENAPI_USAGE } from './openapi';
import { TOKEN_USAGE } from './token';

/** Each command's one-line summary and its usage text. */
export const COMMAND_HELP: Readonly<Record<string, { readonly summary: string; readonly usage: string }>> = {
  serve: {
    summary: 'start the API (the default command)',
    usage: `usage: fleet serve

Starts the API on PORT (5000) with the store of DATABASE_URL (sqlite:./data/fleet.db). Every
setting comes from the environment (README: Configuration). The docs page is /api/docs.`,
  },
  seed: {
    summary: 'fill the store with a realistic, deterministic fleet',
    usage: `usage: fleet seed [--hosts N (50)] [--actions M (20 per host)] [--seed S (1)] [--snapshots K (24)]
                  [--snapshot-interval-s T (3600)] [--reset]

Seeds the store of DATABASE_URL as the sync would fill it; --reset empties the seeded collections first.`,
  },
  openapi: { summary: 'write the OpenAPI document to a file or stdout', usage: OPENAPI_USAGE },
  'new-resource': {
    summary: 'write resources/<name>.ts from a template and register it',
    usage: NEW_RESOURCE_USAGE,
  },
  token: { summary: 'create, list or revoke bearer tokens kept in the store', usage: TOKEN_USAGE },
  'rotate-key': {
    summary: 'seal every stored secret under a new key (service stopped)',
    usage: `usage: fleet rotate-key

With the service stopped: re-seals every stored secret under NEW_SECRET_KEY (or a key generated
into secret-key.next) and replaces the key file, keeping the old one aside (docs/secrets.md).`,
  },
  import: {
    summary: "copy the original application's MongoDB database (dump, export or live) into the store",
    usage: IMPORT_USAGE,
  },
};

/** The overview: every command and its summary. */
export function overview(): string {
  const width = Math.max(...Object.keys(COMMAND_HELP).map((n) => n.length));
  const lines = Object.entries(COMMAND_HELP).map(([name, h]) => `  ${name.padEnd(width)}  ${h.summary}`);
  return `usage: fleet <command> [options]   (in this repository: npx -y pnpm@10 fleet <command>)

${lines.join('\n')}

fleet <command> --help tells more. Settings come from the environment (README: Configuration).
`;
}
