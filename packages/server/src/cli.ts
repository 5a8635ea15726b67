/**
 * The command line: `serve` (the API), `seed --hosts N [--actions M]` (a realistic fleet into
 * the store), `demo` (the API wired to a salt-api simulator) and `rotate-key` (seal the stored
 * secrets under a new key, service stopped). Configuration comes from the environment.
 */
import { ConfigError, loadConfig } from './config';
import { startServer } from './boot';
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

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...rest] = argv;
  if (command === 'serve') return serve();
  if (command === 'seed') return seedCommand(rest);
  if (command === 'demo') return demoCommand(rest);
  if (command === 'rotate-key') return void process.stdout.write(`${await rotateKeyCommand()}\n`);
  throw new ConfigError(`Unknown command "${command}": use serve, seed, demo or rotate-key`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`fleet-api failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
