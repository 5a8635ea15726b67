/**
 * The usage of `fleet` and of each command (`fleet <command> --help`), and `fleet --version`:
 * answered from text alone, before any of the server's code is loaded.
 */
import { VERSION } from '../version';
import {
  BACKUP_USAGE,
  IMPORT_USAGE,
  NEW_RESOURCE_USAGE,
  OPENAPI_USAGE,
  RESTORE_USAGE,
  TOKEN_USAGE,
} from './usage';

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

Refused while a server holds the store. With the service stopped: re-seals every stored secret under NEW_SECRET_KEY (or a key generated
into secret-key.next) and replaces the key file, keeping the old one aside (docs/secrets.md).`,
  },
  import: {
    summary: "copy the original application's MongoDB database (dump, export or live) into the store",
    usage: IMPORT_USAGE,
  },
  backup: {
    summary: 'copy the store into a file while the service runs',
    usage: BACKUP_USAGE,
  },
  restore: {
    summary: 'replace the store by a backup (service stopped)',
    usage: RESTORE_USAGE,
  },
};

/** The overview: every command and its summary. */
export function overview(): string {
  const width = Math.max(...Object.keys(COMMAND_HELP).map((n) => n.length));
  const lines = Object.entries(COMMAND_HELP).map(([name, h]) => `  ${name.padEnd(width)}  ${h.summary}`);
  return `usage: fleet <command> [options]          Fleet API ${VERSION}

${lines.join('\n')}

fleet <command> --help tells more; fleet --version prints the release. Settings come from the
environment (README: Configuration). In a checkout: pnpm fleet <command> (after pnpm build).
`;
}

const wantsHelp = (argv: readonly string[]): boolean => argv.includes('--help') || argv.includes('-h');

/**
 * What `fleet <argv>` prints when it only asks for help or the version; undefined when the
 * command has work to do (or is unknown: the command table refuses it).
 */
export function quickAnswer(argv: readonly string[]): string | undefined {
  const [command = 'serve', ...rest] = argv;
  if (command === '--version' || command === '-V') return `${VERSION}\n`;
  if (command === 'help' || wantsHelp([command])) {
    const topic = command === 'help' ? rest[0] : undefined;
    return topic && COMMAND_HELP[topic] ? `${COMMAND_HELP[topic].usage}\n` : overview();
  }
  const help = COMMAND_HELP[command];
  return help && wantsHelp(rest) ? `${help.usage}\n` : undefined;
}
