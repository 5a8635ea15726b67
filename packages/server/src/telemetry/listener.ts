/**
 * The metrics listener: Prometheus text on `METRICS_PORT` (`GET /metrics`), a port of its own and
 * no token, so the API's port never serves it and the scrape is kept to the network that may
 * reach that port. One process: its own registry. A cluster (WORKERS=N): the primary listens and
 * answers with the sum over its workers (prom-client's AggregatorRegistry asks each worker for its
 * registry over the cluster's IPC channel); workers only answer the primary.
 */
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { ConfigError, type Config } from '../config';

/** Where the metrics come from: one registry, or the cluster's workers. */
export type Scrape = () => Promise<string>;

/** A worker's registry, handed to the primary when it asks. */
export function shareWithPrimary(registry: Registry): void {
  // The constructor registers the worker's answer to the primary's requests (once per process).
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
}

/** The primary's scrape: every worker's metrics, summed. */
export function clusterScrape(): Scrape {
  const aggregator = new AggregatorRegistry();
  return () => aggregator.clusterMetrics();
}

/** Listens on `port` (0: any free one) and `host`; resolves the server and its port. */
export async function listenMetrics(
  port: number,
  host: string,
  scrape: Scrape,
): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Metrics are at GET /metrics\n');
      return;
    }
    scrape().then(
      (text) => res.writeHead(200, { 'Content-Type': AggregatorRegistry.PROMETHEUS_CONTENT_TYPE }).end(text),
      () =>
        res
          .writeHead(503, { 'Content-Type': 'text/plain' })
          .end('metrics unavailable: a worker did not answer\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address !== null ? address.port : port };
}

/** A metrics listener: its server and the port it listens on. */
export interface MetricsListener {
  readonly server: Server;
  readonly port: number;
}

/** A metrics port that cannot be listened on, in one line naming METRICS_PORT. */
function metricsPortError(err: unknown, port: number, host: string): unknown {
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
  if (code === 'EADDRINUSE' || code === 'EACCES')
    return new ConfigError(
      `METRICS_PORT ${port} on ${host} cannot be listened on (${code}): set METRICS_PORT to a free port`,
    );
  return err;
}

/**
 * METRICS_PORT of one server: a process alone listens there with its own metrics; a cluster
 * worker (`worker` set) hands its metrics to the primary, which listens for all of them.
 */
export async function metricsEndpoint(
  config: Config,
  worker: number | undefined,
  registry: Registry,
  log: Logger,
): Promise<MetricsListener | undefined> {
  const port = config.METRICS_PORT;
  if (port === undefined) return undefined;
  if (worker !== undefined) {
    shareWithPrimary(registry);
    return undefined;
  }
  const listening = await listenMetrics(port, config.HOST, () => registry.metrics()).catch((err: unknown) => {
    throw metricsPortError(err, port, config.HOST);
  });
  log.info({ port: listening.port }, 'metrics listening (GET /metrics)');
  return listening;
}

/** The primary's metrics listener of a cluster: every worker's metrics, summed. */
export async function clusterMetricsEndpoint(config: Config): Promise<MetricsListener | undefined> {
  const port = config.METRICS_PORT;
  if (port === undefined) return undefined;
  return listenMetrics(port, config.HOST, clusterScrape()).catch((err: unknown) => {
    throw metricsPortError(err, port, config.HOST);
  });
}
