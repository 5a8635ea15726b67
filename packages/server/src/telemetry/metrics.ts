/**
 * The service's Prometheus metrics (prom-client), one registry per running server: requests by
 * route template, method and status with their latency; store operations' latency; sync runs,
 * their duration and the hosts seen; salt events by tag family; salt-api and VPN server calls by
 * function and outcome; rate-limit refusals; and prom-client's default process metrics. Every
 * label takes a bounded set of values (route templates, not paths; a capped set of function
 * names), so a hostile caller cannot grow the scrape. docs/operations.md lists them.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Latency buckets (seconds) of requests, store operations and peer calls: 1 ms to 2 min. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** The salt event families counted by name; any other tag counts as `other`. */
const EVENT_FAMILIES = [
  'salt/job',
  'salt/run',
  'salt/wheel',
  'salt/key',
  'salt/auth',
  'salt/minion',
  'salt/presence',
  'salt/beacon',
  'salt/stats',
  'minion_start',
  'vnc/connect',
];

/** The most distinct salt function names kept as label values; later ones count as `other`. */
const MAX_FUNCTIONS = 200;

/** An event tag's family: `salt/job/<jid>/ret/<id>` is `salt/job`; unknown tags are `other`. */
export function eventFamily(tag: string): string {
  return EVENT_FAMILIES.find((f) => tag === f || tag.startsWith(`${f}/`)) ?? 'other';
}

/** What the server observes; each method is cheap and never throws. */
export interface Metrics {
  readonly registry: Registry;
  request(route: string, method: string, status: number, seconds: number): void;
  storeOperation(op: string, collection: string, outcome: 'ok' | 'error', seconds: number): void;
  syncRun(result: 'ok' | 'unreachable' | 'failed', seconds: number, hostsSeen: number): void;
  event(tag: string): void;
  saltCall(fun: string, outcome: 'ok' | 'error', seconds: number): void;
  vpnCall(call: string, outcome: 'ok' | 'error', seconds: number): void;
  rateLimited(kind: 'exec' | 'writes'): void;
}

/** A label that keeps its first `max` values and folds the rest into `other`. */
function capped(max: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= max) return 'other';
    seen.add(value);
    return value;
  };
}

function histogram<L extends string>(registry: Registry, name: string, help: string, labelNames: L[]) {
  return new Histogram<L>({ name, help, labelNames, buckets: LATENCY_BUCKETS, registers: [registry] });
}

function counter<L extends string>(registry: Registry, name: string, help: string, labelNames: L[]) {
  return new Counter<L>({ name, help, labelNames, registers: [registry] });
}

/** A new registry with every metric of the service and the default process metrics. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = counter(registry, 'fleet_http_requests_total', 'HTTP requests answered', [
    'route',
    'method',
    'status',
  ]);
  const requestSeconds = histogram(registry, 'fleet_http_request_duration_seconds', 'HTTP request latency', [
    'route',
    'method',
    'status',
  ]);
  const storeSeconds = histogram(
    registry,
    'fleet_store_operation_duration_seconds',
    'Store operation latency',
    ['op', 'collection', 'outcome'],
  );
  const syncRuns = counter(registry, 'fleet_sync_runs_total', 'Fleet sync runs made by this instance', [
    'result',
  ]);
  const syncSeconds = histogram(registry, 'fleet_sync_duration_seconds', 'Fleet sync run duration', []);
  const hostsSeen = new Gauge({
    name: 'fleet_sync_hosts_seen',
    help: 'Hosts the last sync run of this instance saw',
    registers: [registry],
  });
  const events = counter(registry, 'fleet_salt_events_total', 'Salt events received, by tag family', [
    'family',
  ]);
  const saltCalls = counter(
    registry,
    'fleet_salt_api_calls_total',
    'salt-api calls by function and outcome',
    ['function', 'outcome'],
  );
  const saltSeconds = histogram(registry, 'fleet_salt_api_call_duration_seconds', 'salt-api call latency', [
    'function',
  ]);
  const vpnCalls = counter(registry, 'fleet_vpn_calls_total', 'VPN server calls by call and outcome', [
    'function',
    'outcome',
  ]);
  const vpnSeconds = histogram(registry, 'fleet_vpn_call_duration_seconds', 'VPN server call latency', [
    'function',
  ]);
  const refusals = counter(
    registry,
    'fleet_rate_limit_refusals_total',
    'Requests refused by a rate limit (429)',
    ['kind'],
  );
  const saltFun = capped(MAX_FUNCTIONS);
  const vpnFun = capped(MAX_FUNCTIONS);
  return {
    registry,
    request(route, method, status, seconds) {
      const labels = { route, method, status: String(status) };
      requests.inc(labels);
      requestSeconds.observe(labels, seconds);
    },
    storeOperation(op, collection, outcome, seconds) {
      storeSeconds.observe({ op, collection, outcome }, seconds);
    },
    syncRun(result, seconds, seen) {
      syncRuns.inc({ result });
      syncSeconds.observe(seconds);
      hostsSeen.set(seen);
    },
    event: (tag) => events.inc({ family: eventFamily(tag) }),
    saltCall(fun, outcome, seconds) {
      const name = saltFun(fun);
      saltCalls.inc({ function: name, outcome });
      saltSeconds.observe({ function: name }, seconds);
    },
    vpnCall(call, outcome, seconds) {
      const name = vpnFun(call);
      vpnCalls.inc({ function: name, outcome });
      vpnSeconds.observe({ function: name }, seconds);
    },
    rateLimited: (kind) => refusals.inc({ kind }),
  };
}
