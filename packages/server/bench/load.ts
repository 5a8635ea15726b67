/**
 * One measurement: autocannon's CLI (pinned to the other core) for a warm-up, then for the
 * measured run with --json, reduced to the figures the report prints.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { pinTo, REPO } from './child';

const run = promisify(execFile);

/** A request to load the server with. */
export interface Scenario {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** Path and query, already encoded. */
  readonly path: string;
  readonly body?: string;
  /** A p99 target in ms, when the issue sets one. */
  readonly p99Target?: number;
}

/** The figures of one measured run. */
export interface LoadResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly requests: number;
}

/** The part of autocannon's --json output read here. */
interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** Settings shared by every run. */
export interface LoadOptions {
  readonly baseUrl: string;
  readonly token: string;
  readonly connections: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
}

async function autocannon(s: Scenario, options: LoadOptions, seconds: number): Promise<AutocannonJson> {
  const bin = resolve(REPO, 'node_modules/.bin/autocannon');
  const pin = pinTo(1);
  const args = [bin, '-j', '-c', String(options.connections), '-d', String(seconds), '-m', s.method, '-H', `Authorization=Bearer ${options.token}`];
  if (s.body !== undefined) args.push('-H', 'Content-Type=application/json', '-b', s.body);
  args.push(`${options.baseUrl}${s.path}`);
  const [command, ...rest] = [...pin, ...args];
  const { stdout } = await run(command as string, rest, { maxBuffer: 64 * 1024 * 1024 });
  const last = stdout.trim().split('\n').pop() ?? '{}';
  return JSON.parse(last) as AutocannonJson;
}

/** Warm-up (discarded), then the measured run. */
export async function measure(s: Scenario, options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await autocannon(s, options, options.warmupSeconds);
  const j = await autocannon(s, options, options.seconds);
  return { rps: j.requests.average, p50: j.latency.p50, p99: j.latency.p99, non2xx: j.non2xx, errors: j.errors + j.timeouts, requests: j.requests.total };
}
