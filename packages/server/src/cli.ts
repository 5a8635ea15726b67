/**
 * The `fleet` command line (bin `fleet`; in a checkout `pnpm fleet <command>`): `serve` (the API,
 * the default), `seed`, `openapi`, `new-resource`, `token`, `rotate-key`, `import`, `backup` and
 * `restore`, with `--help` on each and `--version` (cli/main.ts). The demo (simulated master and VPN server) is a development tool:
 * `pnpm demo` (packages/devtools). Settings come from the environment. A failure is one line on
 * stderr and exit status 1.
 *
 * Help and the version are answered from text alone; the server's code (and its packages) is
 * loaded only for a command that has work to do.
 */
import type * as Duties from '@fleet/duties';
import type * as Engine from '@fleet/engine';
import type * as Main from './cli/main';
import { quickAnswer } from './cli/help';
import type * as ConfigModule from './config';

const argv = process.argv.slice(2);
const command = argv[0] ?? 'serve';

// `fleet openapi | head`: a reader that stops early is no failure.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

/** The failure's one line. */
function report(err: unknown): never {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded with the commands, see above */
  const { HttpError } = require('@fleet/engine') as typeof Engine;
  const { ConfigError } = require('./config') as typeof ConfigModule;
  const { StoreInUse } = require('@fleet/duties') as typeof Duties;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ConfigError || err instanceof StoreInUse) process.stderr.write(`${message}\n`);
  else if (command === 'serve') process.stderr.write(`fleet-api failed to start: ${message}\n`);
  else
    process.stderr.write(`fleet ${command}: ${err instanceof HttpError ? message : `failed: ${message}`}\n`);
  process.exit(1);
}

const quick = quickAnswer(argv);
if (quick !== undefined) process.stdout.write(quick);
else {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for real work, see above
  const { runCli } = require('./cli/main') as typeof Main;
  runCli(argv).then((output) => {
    if (output?.stderr) process.stderr.write(output.stderr);
    if (output) process.stdout.write(output.stdout);
  }, report);
}
