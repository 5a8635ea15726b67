/**
 * `fleet serve` as the contention bench runs it (contention.ts): the server in this process,
 * configured from the environment like the CLI, with `monitorEventLoopDelay` watching its loop. The
 * parent (a `fork` with IPC) sends `reset` before a measurement and `report` after it; the answer
 * is the worst and the 99th percentile delay of this process's loop, in ms. It sends `ready` with
 * the URL once the server listens, and closes the server on SIGTERM.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startServer } from '../src/boot';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';

/** What the parent sends. */
export type LoopCommand = { readonly type: 'reset' } | { readonly type: 'report' };

/** What this process sends. */
export type LoopMessage =
  | { readonly type: 'ready'; readonly url: string; readonly pid: number }
  | {
      readonly type: 'report';
      readonly maxMs: number;
      readonly p99Ms: number;
      /** The embedded store's group commit figures (engine/src/store/sqlite/group-commit.ts), when it has them. */
      readonly writes?: Record<string, number>;
    };

/** 1 ms: a delay is seen within a millisecond of what it was. */
const RESOLUTION_MS = 1;

function send(message: LoopMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const server = await startServer(config, { log: createLogger(config.LOG_LEVEL) });
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  process.on('message', (command: LoopCommand) => {
    if (command.type === 'reset') histogram.reset();
    else
      void server.writeStats().then((writes) =>
        send({
          type: 'report',
          maxMs: histogram.max / 1e6,
          p99Ms: histogram.percentile(99) / 1e6,
          ...(writes === undefined ? {} : { writes }),
        }),
      );
  });
  process.once('SIGTERM', () => {
    histogram.disable();
    void server.close().then(() => process.exit(0));
  });
  send({ type: 'ready', url: server.url, pid: process.pid });
}

main().catch((err: unknown) => {
  process.stderr.write(
    `loop-server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
