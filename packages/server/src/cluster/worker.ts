/**
 * A cluster worker (cluster.ts forks it with FLEET_WORKER=<n>): the API on the shared port and
 * store. It tells the primary when it listens or why it could not start; worker 1 runs the
 * background loops and answers the syncs the other workers relay (`POST /api/sync` landing on
 * any worker runs the one sync loop). It stops on SIGTERM/SIGINT, and when the primary is gone.
 */
import { HttpError } from '@fleet/engine';
import { startServer, type RunningServer } from '../boot';
import type { Config } from '../config';
import { stopOnSignals } from '../graceful-stop';
import type { SyncTrigger } from '../integrations';
import { readMessage, type ClusterMessage, type SyncAnswer } from './messages';

/** The environment variable carrying a worker's number (1..WORKERS). */
export const WORKER_ENV = 'FLEET_WORKER';

function send(message: ClusterMessage): void {
  process.send?.(message);
}

/** The sync of a worker without the loop: asked of worker 1 through the primary. */
class SyncRelay implements SyncTrigger {
  private next = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (report: unknown) => void; reject: (err: Error) => void }
  >();

  runNow(): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      send({ type: 'sync', id });
    });
  }

  settle(answer: SyncAnswer): void {
    const waiter = this.waiting.get(answer.id);
    if (waiter === undefined) return;
    this.waiting.delete(answer.id);
    if (answer.ok) waiter.resolve(answer.report);
    else
      waiter.reject(
        answer.status >= 400 ? new HttpError(answer.status, answer.message) : new Error(answer.message),
      );
  }
}

/** Worker 1's answer to a relayed sync: its loop's report, or the error as status and message. */
async function answerSync(running: RunningServer, id: number): Promise<SyncAnswer> {
  try {
    if (running.sync === undefined)
      return {
        type: 'sync-result',
        id,
        ok: false,
        status: 503,
        message: 'The fleet sync is not running on this server',
      };
    return { type: 'sync-result', id, ok: true, report: await running.sync.runNow() };
  } catch (err) {
    const status = err instanceof HttpError ? err.status : 0;
    return {
      type: 'sync-result',
      id,
      ok: false,
      status,
      message: err instanceof Error ? err.message : String(err),
    };
  }
}

/** Runs this process as worker `FLEET_WORKER` of a cluster. */
export async function runWorker(config: Config): Promise<void> {
  const worker = Number(process.env[WORKER_ENV]);
  const relay = worker === 1 ? undefined : new SyncRelay();
  let running: RunningServer;
  try {
    running = await startServer(config, { worker, ...(relay ? { syncRelay: relay } : {}) });
  } catch (err) {
    send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
  process.on('message', (value: unknown) => {
    const message = readMessage(value);
    if (message?.type === 'sync-result') relay?.settle(message);
    if (message?.type === 'sync') void answerSync(running, message.id).then(send);
  });
  stopOnSignals(running, { onDisconnect: true });
  send({ type: 'listening', url: running.url });
}
