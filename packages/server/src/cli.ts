/**
 * The `fleet` command line (bin `fleet`, or `npx -y pnpm@10 fleet <command>` here): `serve` (the
 * API, the default), `seed`, `openapi`, `new-resource`, `token`, `rotate-key` and `import`, with `--help` on
 * each (cli/main.ts). The demo (simulated master and VPN server) is a development tool:
 * `pnpm demo` (packages/devtools). Settings come from the environment. A failure is one line on
 * stderr and exit status 1.
 */
import { HttpError } from '@fleet/engine';
import { runCli } from './cli/main';
import { ConfigError } from './config';

const argv = process.argv.slice(2);
const command = argv[0] ?? 'serve';

// `fleet openapi | head`: a reader that stops early is no failure.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

runCli(argv).then(
  (output) => {
    if (output?.stderr) process.stderr.write(output.stderr);
    if (output) process.stdout.write(output.stdout);
  },
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof ConfigError) process.stderr.write(`${message}\n`);
    else if (command === 'serve') process.stderr.write(`fleet-api failed to start: ${message}\n`);
    else
      process.stderr.write(
        `fleet ${command}: ${err instanceof HttpError ? message : `failed: ${message}`}\n`,
      );
    process.exit(1);
  },
);
