/** The graceful stop of a serving process: once, on the first signal, forced after 10 s. */
import type { RunningServer } from './boot';

/**
 * Closes `running` on SIGTERM or SIGINT (and on `disconnect`, the primary gone, for a cluster
 * worker): in-flight requests finish, the store closes, the process exits 0; 1 when the close
 * fails or takes over 10 s.
 */
export function stopOnSignals(running: RunningServer, o: { onDisconnect?: boolean } = {}): void {
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    running.log.info({ reason }, 'shutting down');
    setTimeout(() => process.exit(1), 10_000).unref();
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (o.onDisconnect === true) process.on('disconnect', () => stop('primary gone'));
}
