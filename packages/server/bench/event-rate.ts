/**
 * How many salt events per second the deployment's one event reader records:
 * `npx tsx packages/server/bench/event-rate.ts`. salt-sim (a process of its own) with EVENT_HOSTS
 * minions (default 2,000) runs `test.echo` on all of them through `local_async`; the reader
 * (`startEventConsumer`, as the lease holder runs it) records each return as an action in a SQLite
 * file. Prints the time from the publish to the last action stored, and the rate. EVENT_ROUNDS
 * (default 3) jobs in a row.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemContext } from '@fleet/engine';
import { createSaltClient, startEventConsumer } from '@fleet/salt';
import { REPO } from './child';
import { createLogger } from '../src/logger';
import { withEngine } from './engine';

/** salt-sim's command line in a child process; resolves its URL once it listens. */
async function startSim(hosts: number): Promise<{ url: string; child: ChildProcess }> {
  const cli = join(REPO, 'packages', 'salt-sim', 'src', 'cli.ts');
  const child = spawn(
    join(REPO, 'node_modules', '.bin', 'tsx'),
    [cli, '--port', '0', '--hosts', String(hosts)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  for (;;) {
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    if (url !== undefined) return { url, child };
    if (child.exitCode !== null) throw new Error(`salt-sim exited: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const say = (line: string) => process.stdout.write(`${line}\n`);

function envInt(name: string, dflt: number): number {
  const n = Number(process.env[name] ?? dflt);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
}

async function main(): Promise<void> {
  const hosts = envInt('EVENT_HOSTS', 2_000);
  const sim = await startSim(hosts);
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bench-events-'));
  const client = createSaltClient({ url: sim.url, username: 'saltdev', password: 'saltdev' });
  try {
    await withEngine(join(dir, 'fleet.db'), 'bench-events-secret-key-0123456789', async (runtime) => {
      const consumer = startEventConsumer({ client, runtime, log: createLogger('warn'), toolKey: 'tool' });
      try {
        while (!consumer.connected()) await new Promise((r) => setTimeout(r, 20));
        const pinged = await client.local('*', 'test.ping');
        const up = Object.values(pinged.minions).filter((m) => m.status === 'returned').length;
        say(
          `event reader: ${up} minions answer, load average ${loadavg()
            .map((l) => l.toFixed(2))
            .join(' ')}`,
        );
        for (let round = 1; round <= envInt('EVENT_ROUNDS', 3); round++) {
          const started = Date.now();
          // Not a bare `test.ping` to `*`: that one is the sync's liveness ping, not recorded.
          const job = await client.localAsync('*', 'test.echo', { arg: [`round ${round}`] });
          const where = { jid: job.jid ?? '' };
          const actions = runtime.resources.get('actions');
          while ((await actions.count(where, systemContext(runtime))) < up)
            await new Promise((r) => setTimeout(r, 50));
          const ms = Date.now() - started;
          say(
            `round ${round}: ${up} returns recorded in ${ms} ms: ${((up * 1000) / ms).toFixed(0)} events/s`,
          );
        }
      } finally {
        await consumer.stop();
      }
    });
  } finally {
    client.close();
    sim.child.kill('SIGTERM');
    await once(sim.child, 'exit');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
