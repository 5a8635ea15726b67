/**
 * `pnpm build`'s output (jest's global set-up builds it): three bundles beside each other in
 * packages/server/dist, the command line and its two worker threads' scripts, with their source
 * maps; the bundle holds our code and requires npm packages from node_modules (the MongoDB
 * driver only in mongo mode); the seed's action writer runs as a thread from its bundle.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

const DIST = join(__dirname, '..', '..', 'packages', 'server', 'dist');

it('writes the command line and both worker scripts, each with its source map', () => {
  for (const name of ['fleet', 'read-worker', 'actions-worker']) {
    const js = readFileSync(join(DIST, `${name}.js`), 'utf8');
    expect(js).toContain(`//# sourceMappingURL=${name}.js.map`);
    expect(JSON.parse(readFileSync(join(DIST, `${name}.js.map`), 'utf8'))).toMatchObject({ version: 3 });
  }
});

it('bundles our packages and requires npm packages where they are installed', () => {
  const js = readFileSync(join(DIST, 'fleet.js'), 'utf8');
  expect(js).not.toMatch(/require\("@fleet\//);
  for (const pkg of ['express', 'better-sqlite3', 'zod', 'mingo', 'pino'])
    expect(js).toContain(`require("${pkg}")`);
  // Loaded lazily, in mongo mode only: required inside the adapter's module, not at the top.
  expect(js).toMatch(/init_\w+ = __esm\(\{[^]*?require\("mongoose"\)/);
});

it('runs the seed action writer as a worker thread from its bundle', async () => {
  const worker = new Worker(join(DIST, 'actions-worker.js'), {
    workerData: {
      targets: [
        { index: 0, id: 'web-0001.example.net' },
        { index: 1, id: 'web-0002.example.net' },
      ],
      options: { seed: 1, now: Date.UTC(2026, 10, 26), total: 50, spanDays: 2, batch: 20 },
    },
  });
  const rows = await new Promise<number>((resolve, reject) => {
    let n = 0;
    worker.on('message', (m: { kind: string; columns?: Record<string, unknown[]> }) => {
      if (m.kind === 'done') resolve(n);
      else {
        n += Object.values(m.columns ?? {})[0]?.length ?? 0;
        worker.postMessage('more');
      }
    });
    worker.on('error', reject);
  });
  await worker.terminate();
  expect(rows).toBe(50);
});
