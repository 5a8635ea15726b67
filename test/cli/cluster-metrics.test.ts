/**
 * WORKERS=2 with METRICS_PORT: `fleet serve` (the bin, as a user starts it) announces one metrics
 * URL, served by the primary, which sums every worker's metrics (prom-client's
 * AggregatorRegistry over the cluster's IPC channel). Requests sent on connections of their own
 * are handed round-robin to both workers, and the scrape counts all of them; readiness answers
 * on any worker.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scrape, total } from '../helpers/metrics';
import { until } from '../helpers/until';

const BIN = join(__dirname, '..', '..', 'packages', 'server', 'bin', 'fleet.cjs');
const TOKEN = 'cluster-metrics-token-0123456789abcdef';

/** One GET on a connection of its own (so the primary hands each to the next worker). */
function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

let child: ChildProcess;
let out = '';
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-cluster-metrics-'));
  child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      WORKERS: '2',
      PORT: '0',
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}`,
      API_TOKENS: `root=${TOKEN}:admin`,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await until(() => /Metrics: \S+\/metrics/.test(out), 'the cluster to listen', 60_000);
}, 90_000);

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

it('announces one metrics URL, and sums the requests every worker served', async () => {
  const url = /API docs: (\S+)\/api\/docs/.exec(out)?.[1] ?? '';
  const metricsPort = Number(/Metrics: http:\/\/[^:]+:(\d+)\/metrics/.exec(out)?.[1]);
  expect(out.match(/Metrics:/g)).toHaveLength(1);
  const served = new Set<unknown>();
  for (let i = 0; i < 10; i++) expect(await get(`${url}/api/groups`)).toBe(200);
  for (const line of out.split('\n').filter((l) => l.includes('"path":"/api/groups"')))
    served.add((JSON.parse(line) as { worker?: number }).worker);
  expect(served).toEqual(new Set([1, 2]));
  const s = await scrape(metricsPort);
  expect(s.status).toBe(200);
  expect(total(s, 'fleet_http_requests_total', { route: '/api/groups', method: 'GET', status: '200' })).toBe(
    10,
  );
  expect(total(s, 'fleet_http_request_duration_seconds', { route: '/api/groups' })).toBe(10);
  expect(s.families.has('process_resident_memory_bytes')).toBe(true);
}, 60_000);

it('answers readiness on any worker, without a token', async () => {
  const url = /API docs: (\S+)\/api\/docs/.exec(out)?.[1] ?? '';
  const statuses = await Promise.all([get(`${url}/api/health/ready`), get(`${url}/api/health/ready`)]);
  expect(statuses).toEqual([200, 200]);
});
