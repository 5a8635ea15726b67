/**
 * `npx tsx packages/server/bench/health-attack.ts [seconds] [viewers]`: the attack row of `pnpm
 * bench` on its own (attack.ts): `/api/health` while `viewers` (default 16) viewers send the worst
 * accepted reads for `seconds` (default 60) to the seeded fleet (10,000 hosts, 1,000,000 actions),
 * once in one process and once with WORKERS=2, each a fresh `fleet serve` child, unpinned.
 */
import { attackLine, attackServer } from './attack';
import { ensureDataset } from './dataset';

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 60);
  const viewers = Number(process.argv[3] ?? 16);
  const dataset = await ensureDataset({ hosts: 10_000, actions: 1_000_000, seed: 1 }, (line) =>
    process.stderr.write(`${line}\n`),
  );
  for (const cluster of [false, true]) {
    const figures = await attackServer(dataset.path, { seconds, viewers, cluster });
    process.stdout.write(`${cluster ? 'WORKERS=2' : 'one process'}: ${attackLine(figures)}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `health-attack failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
