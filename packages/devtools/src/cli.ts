/**
 * The development tools' command line: `demo` (`pnpm demo`). Kept out of the production server,
 * which depends on no simulator. A failure is one line on stderr and exit status 1.
 */
import { ConfigError } from '@fleet/server';
import { demoCommand } from './demo';

const [command = 'demo', ...rest] = process.argv.slice(2);

async function main(): Promise<void> {
  if (command !== 'demo')
    throw new ConfigError(`Unknown command "${command}": the development tools have demo`);
  await demoCommand(rest);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `${err instanceof ConfigError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
