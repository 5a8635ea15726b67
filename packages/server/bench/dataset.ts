/**
 * The benchmark's seeded SQLite file, cached in the temp dir: seeding a million actions takes a
 * while, so a file seeded with the same parameters is reused (and the run says so).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secretKey } from '../src/secrets';
import { withEngine } from './engine';
import { BULK_COLLECTIONS, seedFleet, type SeedResult } from '../src/seed';
import { bulkActions } from './bulk-actions';

/** Bumped when the seeded content changes (2: through the local API, no VPN data), so cached files are reseeded. */
const SEED_FORMAT = 2;

/** What the cached file was seeded with. */
export interface DatasetParams {
  readonly hosts: number;
  readonly actions: number;
  readonly seed: number;
}

/** A ready seeded file. */
export interface Dataset {
  readonly path: string;
  readonly dir: string;
  readonly reused: boolean;
  /** Time the seed took (when reused: the time it took when the file was made). */
  readonly seedMs: number;
  readonly counts: SeedResult['counts'];
  readonly seededAt: string;
}

interface Meta extends DatasetParams {
  readonly format: number;
  readonly seedMs: number;
  readonly counts: SeedResult['counts'];
  readonly seededAt: string;
}

function same(meta: Meta, params: DatasetParams): boolean {
  return (
    meta.format === SEED_FORMAT &&
    meta.hosts === params.hosts &&
    meta.actions === params.actions &&
    meta.seed === params.seed
  );
}

function readMeta(path: string): Meta | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Meta;
  } catch {
    return undefined;
  }
}

/** The seeded file for `params` under `<tmp>/fleet-api-bench`, seeding it when missing or stale. */
export async function ensureDataset(params: DatasetParams, log: (line: string) => void): Promise<Dataset> {
  const dir = join(
    process.env.BENCH_DIR ?? join(tmpdir(), 'fleet-api-bench'),
    `h${params.hosts}-a${params.actions}-s${params.seed}`,
  );
  const path = join(dir, 'fleet.db');
  const metaPath = join(dir, 'seed.json');
  const meta = readMeta(metaPath);
  if (meta && same(meta, params) && existsSync(path)) {
    log(
      `reusing the seeded file ${path} (seeded ${meta.seededAt} in ${(meta.seedMs / 1000).toFixed(1)} s; delete ${dir} to reseed)`,
    );
    return { path, dir, reused: true, seedMs: meta.seedMs, counts: meta.counts, seededAt: meta.seededAt };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`seeding ${params.hosts} hosts and ${params.actions} actions into ${path} ...`);
  try {
    const started = Date.now();
    const result = await withEngine(
      path,
      secretKey(undefined, dir),
      (runtime) =>
        seedFleet(runtime, {
          hosts: params.hosts,
          actions: params.actions,
          seed: params.seed,
          writeActions: bulkActions(path),
        }),
      { bulk: BULK_COLLECTIONS },
    );
    // The indexes built after the load are part of the seed's time.
    const seedMs = Date.now() - started;
    const seededAt = new Date().toISOString();
    const written: Meta = {
      format: SEED_FORMAT,
      ...params,
      seedMs,
      counts: result.counts,
      seededAt,
    };
    writeFileSync(metaPath, `${JSON.stringify(written, null, 2)}\n`);
    log(
      `seeded in ${(seedMs / 1000).toFixed(1)} s (actions ${(result.timings.actions / 1000).toFixed(1)} s, indexes built after the load ${((seedMs - result.ms) / 1000).toFixed(1)} s)`,
    );
    return { path, dir, reused: false, seedMs, counts: result.counts, seededAt };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
