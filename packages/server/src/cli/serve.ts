/**
 * `fleet serve`: starts the API (WORKERS=N > 1: a cluster of N processes on the one port,
 * cluster/primary.ts), says how to authenticate and where the docs are, and stops cleanly on
 * SIGTERM/SIGINT.
 */
import cluster from 'node:cluster';
import { startServer } from '../boot';
import { startCluster } from '../cluster/primary';
import { runWorker } from '../cluster/worker';
import { loadConfig, type Config } from '../config';
import { stopOnSignals } from '../graceful-stop';

/** What the operator reads once the API listens. */
function announce(
  url: string,
  adminToken: { token: string; created: boolean; path: string } | undefined,
  metricsPort?: number,
): void {
  if (adminToken?.created) {
    // Printed once, at the start that creates it; later starts only say where it is.
    process.stdout.write(
      `\nGenerated an admin token (kept in ${adminToken.path}, mode 0600):\n  Authorization: Bearer ${adminToken.token}\n` +
        `Try: curl -H 'Authorization: Bearer ${adminToken.token}' ${url}/api/hosts\n\n`,
    );
  } else if (adminToken) {
    process.stdout.write(
      `\nAuthenticate with the admin token kept in ${adminToken.path}: Authorization: Bearer <token>\n\n`,
    );
  } else {
    process.stdout.write(
      `\nAuthenticate with a token of API_TOKENS (or fleet token create): Authorization: Bearer <token>\n\n`,
    );
  }
  process.stdout.write(`API docs: ${url}/api/docs\n`);
  process.stdout.write(`Readiness: ${url}/api/health/ready\n`);
  if (metricsPort !== undefined)
    process.stdout.write(`Metrics: ${url.replace(/:\d+$/, `:${metricsPort}`)}/metrics\n`);
  process.stdout.write('\n');
}

/** One process: the API. */
async function serveAlone(config: Config): Promise<void> {
  const running = await startServer(config);
  announce(running.url, running.adminToken, running.metricsPort);
  stopOnSignals(running);
}

export async function serveCommand(): Promise<undefined> {
  const config = loadConfig();
  if (cluster.isWorker) await runWorker(config);
  else if (config.WORKERS > 1) {
    const started = await startCluster(config, (code) => process.exit(code));
    announce(started.url, started.adminToken, started.metricsPort);
  } else await serveAlone(config);
  return undefined;
}
