/**
 * The other cached SQLite files of `pnpm bench` (dataset.ts keeps the seeded fleet): the anchors'
 * hosts (peers/hosts.cjs at N hosts, loaded as anchors.sh loads them) for S1 on
 * `fleet serve`, S2, S8 and S10, and the group tree of the graph bench for S6. Each lives in a
 * directory of its own under the bench dir with a `done.json` written last, so a run killed
 * half-way is not reused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO } from './child';
import { seedGraph } from './graph';
import { loadHostsJson } from './load-hosts-json';

/** Bumped when what these files hold changes, so stale ones are made again. */
const FORMAT = 1;

/** The peers' dataset generator (the hosts every anchor serves). */
const HOSTS_GENERATOR = resolve(REPO, 'packages/server/bench/peers/hosts.cjs');

function benchDir(): string {
  return process.env.BENCH_DIR ?? join(tmpdir(), 'fleet-api-bench');
}

/** The file of `dir`, made by `make` (into a clean dir) unless a finished one is there; resolves it and what `make` noted. */
async function cached<T>(
  name: string,
  make: (dir: string) => Promise<T>,
  log: (line: string) => void,
): Promise<{ path: string; dir: string; meta: T }> {
  const dir = join(benchDir(), `${name}-f${FORMAT}`);
  const path = join(dir, 'fleet.db');
  const done = join(dir, 'done.json');
  if (existsSync(done) && existsSync(path)) {
    log(`reusing ${path} (delete ${dir} to make it again)`);
    return { path, dir, meta: JSON.parse(readFileSync(done, 'utf8')) as T };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  log(`making ${path} ...`);
  try {
    const meta = await make(dir);
    writeFileSync(done, `${JSON.stringify(meta)}\n`);
    log(`made ${path} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { path, dir, meta };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The anchors' `hosts` hosts (gen.js, HOSTS=n) in a store of ours. */
export async function ensureAnchorStore(
  hosts: number,
  log: (line: string) => void,
): Promise<{ path: string; dir: string }> {
  return cached(
    `anchors-h${hosts}`,
    async (dir) => {
      execFileSync(process.execPath, [HOSTS_GENERATOR, dir], {
        env: { ...process.env, HOSTS: String(hosts) },
        stdio: 'ignore',
      });
      const { loaded } = await loadHostsJson(join(dir, 'hosts.json'), dir);
      rmSync(join(dir, 'hosts.json'));
      return { loaded };
    },
    log,
  );
}

/** The graph bench's 2,000 groups over 10,000 hosts; `meta.container` is a three-level group (S6). */
export async function ensureGraphStore(
  log: (line: string) => void,
): Promise<{ path: string; dir: string; meta: { root: string; container: string } }> {
  return cached(
    'graph',
    async (dir) => {
      const { root, containers } = await seedGraph(join(dir, 'fleet.db'));
      return { root, container: containers[0] ?? root };
    },
    log,
  );
}
