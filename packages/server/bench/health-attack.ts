/**
 * `npx tsx packages/server/bench/health-attack.ts [seconds]`: `/api/health` while four viewers
 * send, back to back, the worst reads the API accepts on the seeded fleet (10,000 hosts,
 * 1,000,000 actions; issue 8: health under 100 ms). The API is a `fleet serve` child pinned to
 * core 0; the viewers and the prober run here (`taskset -c 1 npx tsx ...` keeps them on core 1). It runs once with READ_WORKERS=0 (every
 * read on the event loop, as before) and once with the default (heavy reads on worker threads),
 * and prints the health checks' median, p99 and worst, and what the attacks answered.
 */
import { ensureDataset } from './dataset';
import { startApi, type ApiChild } from './child';

const TOKEN = 'bench-token-0123456789abcdef';
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** The heaviest reads a viewer may send that the API still answers 200 (docs/limits.md). */
const WORST = [
  // Every host decoded and sorted in memory (no index on a grain), 1,000 full hosts back.
  `/api/hosts?sort=-grain.osfullname,grain.num_cpus&max_results=1000`,
  // The longest pattern, on every host id (RE2 in SQL).
  `/api/hosts?where=${q({ _id: { $regex: `${'[a-z0-9.-]*'.repeat(21)}=` } })}`,
  // A pattern on an open sub-document: every host decoded and matched in memory.
  `/api/hosts?where=${q({ 'grain.osfullname': { $regex: `${'.*'.repeat(40)}=` } })}&max_results=1000`,
  // A deep page of the actions in index order (skips 1,000,000 entries of the index).
  `/api/actions?page=40000`,
];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

async function attack(api: ApiChild, seconds: number): Promise<string> {
  const statuses = new Map<number, number>();
  const headers = { authorization: `Bearer ${TOKEN}` };
  let attacking = true;
  const viewer = async (path: string): Promise<void> => {
    while (attacking) {
      const res = await fetch(`${api.url}${path}`, { headers });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  };
  const health: number[] = [];
  const prober = async (): Promise<void> => {
    const until = Date.now() + seconds * 1000;
    while (Date.now() < until) {
      const started = performance.now();
      const res = await fetch(`${api.url}/api/health`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`/api/health answered ${res.status}`);
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    attacking = false;
  };
  await Promise.all([...WORST.map(viewer), prober()]);
  health.sort((a, b) => a - b);
  const answered = [...statuses].map(([status, n]) => `${n} x ${status}`).join(', ');
  return `${health.length} checks: median ${percentile(health, 0.5).toFixed(1)} ms, p99 ${percentile(health, 0.99).toFixed(1)} ms, worst ${(health.at(-1) ?? Number.NaN).toFixed(1)} ms; attacks answered ${answered}`;
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 20);
  const dataset = await ensureDataset({ hosts: 10_000, actions: 1_000_000, seed: 1 }, (line) =>
    process.stderr.write(`${line}\n`),
  );
  for (const readWorkers of ['0', '2']) {
    const env = {
      DATABASE_URL: `sqlite:${dataset.path}`,
      API_TOKENS: `bench=${TOKEN}:admin`,
      LOG_LEVEL: 'warn',
      SNAPSHOT_INTERVAL_S: '86400',
      READ_WORKERS: readWorkers,
    };
    const api = await startApi(env, process.env.PIN === '0' ? 0 : undefined);
    try {
      // One pass first: the first heavy read starts its thread, the first reads warm the caches.
      for (const path of WORST)
        await (
          await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })
        ).arrayBuffer();
      process.stdout.write(`READ_WORKERS=${readWorkers}: ${await attack(api, seconds)}\n`);
    } finally {
      await api.stop();
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `health-attack failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
