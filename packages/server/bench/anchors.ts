/**
 * S1 beside its peers: one round of anchors.sh (ROUNDS=1; raw, sqlite-ref, feathers and
 * ours measured one after the other, each its own process pinned to core 0), parsed from the
 * median table run.sh prints. `pnpm bench` calls it once per round, so the anchors alternate with
 * every other scenario.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { REPO } from './child';

/** One server's figures in one anchors round (RSS in MB). */
export interface AnchorFigures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Non-2xx answers and socket errors. */
  readonly bad: number;
  readonly rss: number;
}

/** The anchors' servers as run.sh names them. */
export const ANCHOR_SERVERS = ['raw', 'sqlite-ref', 'feathers', 'ours'] as const;
export type AnchorServer = (typeof ANCHOR_SERVERS)[number];

/** Parses run.sh's table (`server\treq/s(median)\tp50 ms\tp99 ms\tnon-2xx\tRSS MB`). */
export function parseAnchors(stdout: string): Map<AnchorServer, AnchorFigures> {
  const out = new Map<AnchorServer, AnchorFigures>();
  for (const line of stdout.split('\n')) {
    const [name, rps, p50, p99, bad, rss] = line.split('\t');
    const server = ANCHOR_SERVERS.find((s) => s === name);
    if (server === undefined) continue;
    out.set(server, {
      rps: Number(rps),
      p50: Number(p50),
      p99: Number(p99),
      bad: Number(bad),
      rss: Number(rss),
    });
  }
  return out;
}

/** Runs one round of anchors.sh with `seconds` measured per server; resolves every server's figures. */
export async function anchorsRound(
  seconds: number,
  connections = 10,
): Promise<Map<AnchorServer, AnchorFigures>> {
  // peers/hosts.cjs reads HOSTS: the anchor query is on 10,000 hosts whatever this process was given.
  const { HOSTS: _hosts, ...inherited } = process.env;
  const env = { ...inherited, ROUNDS: '1', DUR: String(seconds), CONN: String(connections) };
  const child = spawn('bash', [resolve(REPO, 'packages/server/bench/anchors.sh')], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const figures = parseAnchors(stdout);
  const missing = ANCHOR_SERVERS.filter((s) => !figures.has(s));
  if (code !== 0 || missing.length > 0)
    throw new Error(`anchors.sh exited ${String(code)} without ${missing.join(', ')}:\n${stdout}\n${stderr}`);
  return figures;
}
