/**
 * Runs the simulator by hand:
 * `tsx packages/salt-sim/src/cli.ts --port 8000 --hosts 50 [--seed 1] [--host 127.0.0.1] [--vnc-every 0]`.
 * Prints the URL and the credentials to put in SALT_API_URL / SALT_API_USER / SALT_API_PASSWORD.
 */
import { startSaltSim } from './index';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) {
    process.stderr.write(`--${name} must be a non-negative integer\n`);
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  const hostIndex = process.argv.indexOf('--host');
  const host = hostIndex >= 0 ? process.argv[hostIndex + 1] ?? '127.0.0.1' : '127.0.0.1';
  const sim = await startSaltSim({ host, port: flag('port', 8000), hosts: flag('hosts', 50), seed: flag('seed', 1), vncEveryMs: flag('vnc-every', 0) });
  const { username, password, eauth } = sim.credentials;
  const accepted = [...sim.fleet.minions.values()].filter((m) => m.key === 'accepted');
  process.stdout.write(
    `salt-api simulator listening on ${sim.url}\n`
      + `  SALT_API_URL=${sim.url} SALT_API_USER=${username} SALT_API_PASSWORD=${password} SALT_API_EAUTH=${eauth}\n`
      + `  ${accepted.length} accepted minions (${accepted.filter((m) => !m.up).length} down), `
      + `${sim.fleet.minions.size - accepted.length} other keys, ${Object.keys(sim.fleet.nodegroups).length} nodegroups\n`,
  );
  const stop = (): void => {
    void sim.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
