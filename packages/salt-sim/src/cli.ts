/**
 * Runs the simulator by hand:
 * `tsx packages/salt-sim/src/cli.ts --port 8000 --hosts 50 [--seed 1] [--host 127.0.0.1] [--vnc-every 0]
 *  [--master-version 2018.3.2] [--master-tz UTC] [--return-spacing 2]`.
 * `--return-spacing` is the time between two minions' returns of one job in ms (fractions
 * allowed; 0: every return at once).
 * Prints the URL and the credentials to put in SALT_API_URL / SALT_API_USER / SALT_API_PASSWORD.
 */
import { startSaltSim } from './index';

/** A non-negative number flag: a whole one unless `fractions`. */
function flag(name: string, fallback: number, fractions = false): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!(fractions ? Number.isFinite(value) : Number.isInteger(value)) || value < 0) {
    process.stderr.write(`--${name} must be a non-negative ${fractions ? 'number' : 'integer'}\n`);
    process.exit(2);
  }
  return value;
}

function text(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const host = text('host') ?? '127.0.0.1';
  const versions = { masterVersion: text('master-version'), masterTz: text('master-tz') };
  const defined = Object.fromEntries(Object.entries(versions).filter(([, v]) => v !== undefined)) as {
    masterVersion?: string;
    masterTz?: string;
  };
  const sim = await startSaltSim({
    host,
    port: flag('port', 8000),
    hosts: flag('hosts', 50),
    seed: flag('seed', 1),
    vncEveryMs: flag('vnc-every', 0),
    returnSpacingMs: flag('return-spacing', 2, true),
    ...defined,
  });
  const { username, password, eauth } = sim.credentials;
  const accepted = [...sim.fleet.minions.values()].filter((m) => m.key === 'accepted');
  process.stdout.write(
    `salt-api simulator (Salt ${sim.controls.settings.masterVersion}, master zone ${sim.controls.settings.masterTz}) listening on ${sim.url}\n` +
      `  SALT_API_URL=${sim.url} SALT_API_USER=${username} SALT_API_PASSWORD=${password} SALT_API_EAUTH=${eauth}\n` +
      `  ${accepted.length} accepted minions (${accepted.filter((m) => !m.up).length} down), ` +
      `${sim.fleet.minions.size - accepted.length} other keys, ${Object.keys(sim.fleet.nodegroups).length} nodegroups\n`,
  );
  const stop = (): void => {
    void sim.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
