/**
 * For the peers' harness (bench/peers/run.sh): loads the host documents of
 * $HOSTS_JSON into a fresh SQLite store through the local API (as the sync creates hosts), then
 * serves the API on $PORT from it. hosts.cjs names nodegroups and groups the hosts refer to; they are
 * created first (nodegroups keep their names as ids, groups get ids of their own that the hosts'
 * `groups` are rewritten to), since the local API checks every reference.
 * The store lives in a temp directory removed at exit.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemContext, type Doc, type Runtime } from '@fleet/engine';
import { startServer } from '../src/boot';
import { loadConfig } from '../src/config';
import { secretKey } from '../src/secrets';
import { createAll, stamped } from '../src/seed/write';
import { withEngine } from './engine';

/** A host as gen.js writes it: `heartbeat` is an ISO string. */
type RawHost = { _id: string; heartbeat?: string } & Record<string, unknown>;

function* asStored(
  raw: readonly RawHost[],
  groupIds: ReadonlyMap<string, string>,
  now: Date,
): Generator<Doc> {
  for (const host of raw) {
    const heartbeat = typeof host.heartbeat === 'string' ? new Date(host.heartbeat) : null;
    const groups = Array.isArray(host.groups)
      ? host.groups.map((g) => groupIds.get(String(g)) ?? String(g))
      : [];
    yield stamped({ ...host, heartbeat, groups }, now);
  }
}

/** The distinct strings of one list field over every host. */
function names(raw: readonly RawHost[], field: 'nodegroups' | 'groups'): string[] {
  return [
    ...new Set(raw.flatMap((h) => (Array.isArray(h[field]) ? (h[field] as unknown[]).map(String) : []))),
  ].sort();
}

/** Creates the nodegroups and groups the hosts name, then the hosts; resolves how many hosts. */
async function load(runtime: Runtime, raw: readonly RawHost[]): Promise<number> {
  const ctx = systemContext(runtime);
  await runtime.resources.get('nodegroups').createMany(
    names(raw, 'nodegroups').map((name) => ({ name })),
    ctx,
  );
  const groupNames = names(raw, 'groups');
  const created = await runtime.resources.get('groups').createMany(
    groupNames.map((name) => ({ name })),
    ctx,
  );
  const groupIds = new Map(groupNames.map((name, i) => [name, created[i]?._id ?? name]));
  return createAll(runtime, 'hosts', asStored(raw, groupIds, new Date()), { size: 5000 });
}

/**
 * Loads the hosts of the JSON file `file` (gen.js's) into a new store `fleet.db` in `into` (a new
 * temp dir when not given); resolves the dir and the file.
 */
export async function loadHostsJson(
  file: string,
  into?: string,
): Promise<{ dir: string; path: string; loaded: number }> {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as RawHost[];
  const dir = into ?? mkdtempSync(join(tmpdir(), 'fleet-anchors-'));
  const path = join(dir, 'fleet.db');
  const loaded = await withEngine(path, secretKey(undefined, dir), (runtime) => load(runtime, raw));
  return { dir, path, loaded };
}

async function main(): Promise<void> {
  const file = process.env.HOSTS_JSON;
  if (file === undefined || file === '') throw new Error('HOSTS_JSON is not set');
  const { dir, path, loaded } = await loadHostsJson(file);
  process.stderr.write(`loaded ${loaded} hosts from ${file} into ${path}\n`);

  const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env, DATABASE_URL: `sqlite:${path}` });
  const running = await startServer(config);
  const stop = () => {
    void running.close().finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`load-hosts-json failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
