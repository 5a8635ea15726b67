/**
 * What the shared rate limits cost: `npx tsx packages/server/bench/rate-cost.ts`. The decision a
 * request waits for (one bucket update in memory, counts per process and counts shared through the
 * store alike), timed over RATE_TAKES (default 1,000,000) requests of RATE_TOKENS (100) tokens;
 * then the exchange with the store each instance makes once a second (its counts written, the
 * others' read), timed over RATE_EXCHANGES (20) exchanges, on a SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../src/logger';
import { localBuckets, sharedBuckets, type Buckets } from '../src/rate-counts';
import { withEngine } from './engine';

const say = (line: string) => process.stdout.write(`${line}\n`);

function envInt(name: string, dflt: number): number {
  const n = Number(process.env[name] ?? dflt);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
}

/** Nanoseconds per `take` over `n` requests spread over `tokens` keys (a limit none reaches). */
function perTake(buckets: Buckets, n: number, tokens: number): number {
  const keys = Array.from({ length: tokens }, (_, i) => `writes\u0000token-${i}`);
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) buckets.take(keys[i % tokens] ?? '', 1_000_000_000, Date.now());
  return Number(process.hrtime.bigint() - started) / n;
}

async function main(): Promise<void> {
  const n = envInt('RATE_TAKES', 1_000_000);
  const tokens = envInt('RATE_TOKENS', 100);
  say(`per request, counts in this process: ${perTake(localBuckets(), n, tokens).toFixed(0)} ns`);
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bench-rate-'));
  try {
    await withEngine(join(dir, 'fleet.db'), 'bench-rate-secret-key-0123456789', async (runtime) => {
      const log = createLogger('warn');
      // A long sync period: the exchanges below are the ones this bench times.
      const others = Array.from({ length: 2 }, (_, i) =>
        sharedBuckets({ runtime, log, holder: `other-${i}`, syncMs: 3_600_000 }),
      );
      for (const o of others) perTake(o, tokens * 10, tokens);
      await Promise.all(others.map((o) => o.stop()));
      const mine = sharedBuckets({ runtime, log, holder: 'this', syncMs: 3_600_000 });
      say(`per request, counts shared through the store: ${perTake(mine, n, tokens).toFixed(0)} ns`);
      const rounds = envInt('RATE_EXCHANGES', 20);
      const times: number[] = [];
      for (let r = 0; r < rounds; r++) {
        perTake(mine, tokens, tokens);
        const started = process.hrtime.bigint();
        await mine.stop();
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      times.sort((a, b) => a - b);
      say(
        `one exchange (${tokens} tokens written, 2 other instances' counts read): ` +
          `median ${times[Math.floor(times.length / 2)]?.toFixed(1)} ms, worst ${times[times.length - 1]?.toFixed(1)} ms`,
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
