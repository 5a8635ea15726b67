/**
 * For the anchors harness (../shared/bench-anchors/run.sh): loads the host documents of
 * $HOSTS_JSON into a fresh SQLite store through the local API (as the sync creates hosts), then
 * serves the API on $PORT from it.
 * The store lives in a temp directory removed at exit.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Doc } from '@fleet/engine';
import { startServer } from '../src/boot';
import { loadConfig } from '../src/config';
import { secretKey } from '../src/secrets';
import { createAll, stamped } from '../src/seed/write';
import { withEngine } from './engine';

/** A host as gen.js writes it: `heartbeat` is an ISO string. */
type RawHost = { _id: string; heartbeat?: string } & Record<string, unknown>;

function* asStored(raw: readonly RawHost[], now: Date): Generator<Doc> {
  for (const host of raw) {
    const heartbeat = typeof host.heartbeat === 'string' ? new Date(host.heartbeat) : null;
    yield stamped({ ...host, heartbeat }, now);
  }
}

async function main(): Promise<void> {
  const file = process.env.HOSTS_JSON;
  if (file === undefined || file === '') throw new Error('HOSTS_JSON is not set');
  const raw = JSON.parse(readFileSync(file, 'utf8')) as RawHost[];
  const dir = mkdtempSync(join(tmpdir(), 'fleet-anchors-'));
  const path = join(dir, 'fleet.db');
  const loaded = await withEngine(path, secretKey(undefined, dir), (runtime) => createAll(runtime, 'hosts', asStored(raw, new Date()), { size: 5000 }));
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

main().catch((err: unknown) => {
  process.stderr.write(`load-hosts-json failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
