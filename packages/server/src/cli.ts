/**
 * The `fleet` command line: `serve` (the API, the default), `seed`, `demo`, `openapi`,
 * `new-resource`, `token` and `rotate-key`; `--help` on each (cli/help.ts). Settings come from
 * the environment. A failure is one line on stderr and exit status 1.
 */
import { HttpError } from '@fleet/engine';
import { startServer } from './boot';
import { COMMAND_HELP, overview } from './cli/help';
import { newResourceCommand } from './cli/new-resource';
import { openapiCommand } from './cli/openapi';
import type { CommandOutput } from './cli/output';
import { tokenCommand } from './cli/token';
import { ConfigError, loadConfig } from './config';
import { demoCommand } from './demo';
import { rotateKeyCommand } from './rotate-key';
import { seedCommand } from './seed/command';

async function serve(): Promise<void> {
  const config = loadConfig();
  const running = await startServer(config);
  if (running.adminToken?.created) {
    // Printed once, at the start that creates it (DESIGN §4); later starts only say where it is.
    process.stdout.write(
      `\nGenerated an admin token (kept in ${running.adminToken.path}, mode 0600):\n  Authorization: Bearer ${running.adminToken.token}\n` +
        `Try: curl -H 'Authorization: Bearer ${running.adminToken.token}' ${running.url}/api/hosts\n\n`,
    );
  } else if (running.adminToken) {
    process.stdout.write(`\nAuthenticate with the admin token kept in ${running.adminToken.path}: Authorization: Bearer <token>\n\n`);
  } else {
    process.stdout.write(`\nAuthenticate with a token of API_TOKENS: Authorization: Bearer <token>\n\n`);
  }
  process.stdout.write(`API docs: ${running.url}/api/docs\n\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

function print(output: CommandOutput): void {
  if (output.stderr) process.stderr.write(output.stderr);
  process.stdout.write(output.stdout);
}

/** Each command: what it runs with the arguments after its name. */
const COMMANDS: Readonly<Record<string, (argv: string[]) => Promise<void>>> = {
  serve: async () => serve(),
  seed: seedCommand,
  demo: demoCommand,
  openapi: async (argv) => print(await openapiCommand(argv)),
  'new-resource': async (argv) => print(await newResourceCommand(argv)),
  token: async (argv) => print(await tokenCommand(argv)),
  'rotate-key': async () => print({ stdout: `${await rotateKeyCommand()}\n` }),
};

const wantsHelp = (argv: readonly string[]): boolean => argv.includes('--help') || argv.includes('-h');

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...rest] = argv;
  if (command === 'help' || wantsHelp([command])) {
    const topic = command === 'help' ? rest[0] : undefined;
    return void process.stdout.write(topic && COMMAND_HELP[topic] ? `${COMMAND_HELP[topic].usage}\n` : overview());
  }
  const run = COMMANDS[command];
  const help = COMMAND_HELP[command];
  if (!run || !help) throw new ConfigError(`Unknown command "${command}": use ${Object.keys(COMMANDS).join(', ')} (fleet --help)`);
  if (wantsHelp(rest)) return void process.stdout.write(`${help.usage}\n`);
  return run(rest);
}

const command = process.argv[2] ?? 'serve';
// `fleet openapi | head`: a reader that stops early is no failure.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});
main(process.argv.slice(2)).catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ConfigError) process.stderr.write(`${message}\n`);
  else if (command === 'serve') process.stderr.write(`fleet-api failed to start: ${message}\n`);
  else process.stderr.write(`fleet ${command}: ${err instanceof HttpError ? message : `failed: ${message}`}\n`);
  process.exit(1);
});
