/**
 * A cluster worker (cluster.ts forks it with FLEET_WORKER=<n>): the API on the shared port and
 * store, an instance like any other (the store leases pick the one doing each duty). It tells the
 * primary when it listens or why it could not start. It stops on SIGTERM/SIGINT, and when the
 * primary is gone.
 */
import { startServer, type RunningServer } from '../boot';
import type { Config } from '../config';
import { stopOnSignals } from '../graceful-stop';
import type { ClusterMessage } from './messages';

/** The environment variable carrying a worker's number (1..WORKERS). */
export const WORKER_ENV = 'FLEET_WORKER';

function send(message: ClusterMessage): void {
  process.send?.(message);
}

/** Runs this process as worker `FLEET_WORKER` of a cluster. */
export async function runWorker(config: Config): Promise<void> {
  const worker = Number(process.env[WORKER_ENV]);
  let running: RunningServer;
  try {
    running = await startServer(config, { worker });
  } catch (err) {
    send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
  stopOnSignals(running, { onDisconnect: true });
  send({ type: 'listening', url: running.url });
}
