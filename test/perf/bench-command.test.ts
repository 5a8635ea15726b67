/**
 * The README's `pnpm bench` runs: the command itself (the root script, tsx, child servers pinned
 * with taskset, autocannon in its own process) on a tiny seeded store in a temporary BENCH_DIR,
 * one quick round of S4 and S7 plus the seeded store's RSS and start-up rows, and prints the table
 * with a verdict on each row. No figure is asserted: speed lives in the bench itself.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-bench-command-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('prints the table of the chosen scenarios, each with its target verdict', async () => {
  const env = {
    ...process.env,
    BENCH_DIR: dir,
    BENCH_HOSTS: '40',
    BENCH_ACTIONS: '200',
    BENCH_ONLY: 'S4,S7,RSS',
    BENCH_QUICK: '1',
    BENCH_SECONDS: '1',
  };
  const { stdout } = await run('npx', ['-y', 'pnpm@10', '-s', 'bench'], {
    cwd: ROOT,
    env,
    maxBuffer: 8 * 1024 * 1024,
  });
  const rows = stdout.split('\n');
  const header = rows.findIndex((line) => /^id +scenario +req\/s +p50 ms +p99 ms/.test(line));
  expect(header).toBeGreaterThan(-1);
  const table = rows.slice(header + 2);
  for (const id of ['S4', 'S7a', 'S7b', 'RSS', 'START']) {
    const row = table.find((line) => line.startsWith(`${id} `));
    expect(row).toMatch(/ (PASS|FAIL)$/);
  }
  expect(table.some((line) => /^S4 .* 0 +0 \(0\)/.test(line))).toBe(true);
}, 180_000);
