/** `fleet serve`: starts the API, says how to authenticate and where the docs are, and stops cleanly on SIGTERM/SIGINT. */
import { startServer } from '../boot';
import { loadConfig } from '../config';

export async function serveCommand(): Promise<undefined> {
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
    process.stdout.write(`\nAuthenticate with a token of API_TOKENS (or fleet token create): Authorization: Bearer <token>\n\n`);
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
  return undefined;
}
