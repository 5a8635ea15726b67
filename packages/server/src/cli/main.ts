/**
 * What `fleet <command> [args]` runs: the command table, `--help` on each command (before the
 * command parses anything, so `fleet seed --help` seeds nothing), and unknown commands refused.
 */
import { ConfigError } from '../config';
import { rotateKeyCommand } from '../rotate-key';
import { seedCommand } from '../seed/command';
import { COMMAND_HELP, overview } from './help';
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
};

const wantsHelp = (argv: readonly string[]): boolean => argv.includes('--help') || argv.includes('-h');

/** Runs `argv` (the words after `fleet`); resolves what to print, if the command did not print itself. */
export async function runCli(argv: readonly string[]): Promise<CommandOutput | undefined> {
  const [command = 'serve', ...rest] = argv;
  if (command === 'help' || wantsHelp([command])) {
    const topic = command === 'help' ? rest[0] : undefined;
    return { stdout: topic && COMMAND_HELP[topic] ? `${COMMAND_HELP[topic].usage}\n` : overview() };
  }
  const run = COMMANDS[command];
  const help = COMMAND_HELP[command];
  if (!run || !help)
    throw new ConfigError(
      `Unknown command "${command}": use ${Object.keys(COMMANDS).join(', ')} (fleet --help)`,
    );
  if (wantsHelp(rest)) return { stdout: `${help.usage}\n` };
  return run(rest);
}
