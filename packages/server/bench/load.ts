/**
 * One measurement: autocannon (ac-run.ts, pinned to the other core) for a warm-up, then for the
 * measured run, reduced to the figures the report prints.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type Autocannon from 'autocannon';
import { pinTo, REPO } from './child';

const exec = promisify(execFile);

/** A request to load the server with. */
export interface Scenario {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PATCH';
  /** Path and query, already encoded. */
  readonly path: string;
  /** The body; a list is sent in turn by every connection (a PATCH that changes the item each time). */
  readonly body?: string | readonly string[];
  /** Connections (10 when not given). */
  readonly connections?: number;
  /** A mix: every connection sends these in turn instead (method, path and body of each). */
  readonly requests?: readonly MixedRequest[];
}

/** One request of a mixed scenario. */
export interface MixedRequest {
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly path: string;
  /** Paths to draw one from at random, each time (ac-run.ts): writes spread over many items. */
  readonly paths?: readonly string[];
  readonly body?: string;
}

/** The figures of one measured run. */
export interface LoadResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  /** Socket errors and timeouts (autocannon counts a timeout as an error too). */
  readonly errors: number;
  readonly timeouts: number;
  readonly requests: number;
  /** Answers by status code (`{"200": 1234, "503": 2}`). */
  readonly statuses: Readonly<Record<string, number>>;
}

/** The part of autocannon's result read here (ac-run.ts prints it). */
type AutocannonJson = Autocannon.Result;

/** Settings shared by every run. */
export interface LoadOptions {
  /** The server, or several (the connections spread over them in turn). */
  readonly baseUrl: string | readonly string[];
  readonly token: string;
  readonly connections: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
}

async function autocannon(s: Scenario, options: LoadOptions, seconds: number): Promise<AutocannonJson> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token}` };
  if (s.body !== undefined || s.requests !== undefined) headers['content-type'] = 'application/json';
  const bodies = s.body === undefined ? [undefined] : typeof s.body === 'string' ? [s.body] : s.body;
  const run = {
    url: typeof options.baseUrl === 'string' ? options.baseUrl : [...options.baseUrl],
    connections: s.connections ?? options.connections,
    duration: seconds,
    headers,
    requests:
      s.requests?.map((r) => ({ ...r })) ??
      bodies.map((body) => ({
        method: s.method,
        path: s.path,
        ...(body === undefined ? {} : { body }),
      })),
  };
  const [command, ...rest] = [
    ...pinTo(1),
    process.execPath,
    '--import',
    'tsx',
    resolve(__dirname, 'ac-run.ts'),
    JSON.stringify(run),
  ];
  const { stdout } = await exec(command ?? process.execPath, rest, {
    cwd: REPO,
    maxBuffer: 64 * 1024 * 1024,
  });
  const last = stdout.trim().split('\n').pop() ?? '{}';
  return JSON.parse(last) as AutocannonJson;
}

/** Warm-up (discarded), then the measured run. */
export async function measure(s: Scenario, options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await autocannon(s, options, options.warmupSeconds);
  const j = await autocannon(s, options, options.seconds);
  return {
    rps: j.requests.average,
    p50: j.latency.p50,
    p99: j.latency.p99,
    non2xx: j.non2xx,
    errors: j.errors,
    timeouts: j.timeouts,
    requests: j.requests.total,
    statuses: Object.fromEntries(
      Object.entries(j.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
    ),
  };
}
