/**
 * The benchmark's peers run from the repository (packages/server/bench/peers): run.sh starts the
 * node:http ceiling, the hand-written Express + SQLite server and the Feathers service over the
 * same generated hosts, measures each (one round of one second here, on 200 hosts), and prints the
 * table `pnpm bench` reads, every server answering 2xx only. No figure is asserted.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const RUN_SH = join(__dirname, '..', '..', 'packages', 'server', 'bench', 'peers', 'run.sh');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-bench-peers-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('measures every peer on the same hosts and prints their medians', async () => {
  const env = { ...process.env, BENCH_WORK: dir, HOSTS: '200', DUR: '1', ROUNDS: '1', CONN: '2' };
  const { stdout } = await run('bash', [RUN_SH], { env, maxBuffer: 4 * 1024 * 1024 });
  const rows = stdout.trim().split('\n');
  expect(rows[0]).toBe('server\treq/s(median)\tp50 ms\tp99 ms\tnon-2xx\tRSS MB');
  for (const peer of ['raw', 'sqlite-ref', 'feathers']) {
    const row = rows.find((line) => line.startsWith(`${peer}\t`))?.split('\t');
    expect({ peer, answered: Number(row?.[1]) > 0, bad: row?.[4] }).toEqual({
      peer,
      answered: true,
      bad: '0',
    });
  }
}, 120_000);
