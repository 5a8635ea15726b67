/**
 * What `fleet <command> [args]` runs: the command table, `--help` on each command and `--version`
 * (before the command parses anything, so `fleet seed --help` seeds nothing), and unknown commands
 * refused.
 */
import { backupCommand } from '../backup/backup';
import { restoreCommand } from '../backup/restore';
import { ConfigError } from '../config';
import { rotateKeyCommand } from '../rotate-key';
import { seedCommand } from '../seed/command';
import { COMMAND_HELP, quickAnswer } from './help';
import { importCommand } from './import';
import { newResourceCommand } from './new-resource';
import { openapiCommand } from './openapi';
import type { CommandOutput } from './output';
import { serveCommand } from './serve';
import { tokenCommand } from './token';

/** Each command: what it runs with the arguments after its name; long-running ones print for themselves. */
const COMMANDS: Readonly<Record<string, (argv: string[]) => Promise<CommandOutput | undefined>>> = {
  serve: async () => serveCommand(),
  seed: async (argv) => {
    await seedCommand(argv);
    return undefined;
  },
  openapi: openapiCommand,
  'new-resource': newResourceCommand,
  token: tokenCommand,
  'rotate-key': async () => ({ stdout: `${await rotateKeyCommand()}\n` }),
  import: importCommand,
  backup: backupCommand,
  restore: restoreCommand,
};

/** Runs `argv` (the words after `fleet`); resolves what to print, if the command did not print itself. */
export async function runCli(argv: readonly string[]): Promise<CommandOutput | undefined> {
  const quick = quickAnswer(argv);
  if (quick !== undefined) return { stdout: quick };
  const [command = 'serve', ...rest] = argv;
  const run = COMMANDS[command];
  if (!run || !COMMAND_HELP[command])
    throw new ConfigError(
      `Unknown command "${command}": use ${Object.keys(COMMANDS).join(', ')} (fleet --help)`,
    );
  return run(rest);
}
