/**
 * Runs the simulator by hand:
 * `tsx packages/vpn-sim/src/cli.ts [--port 9700] [--seed 1] [--host 127.0.0.1] [--pritunl 1.34.4681.89]`
 * (`--pritunl`: the release to play, default the oldest the service supports).
 * Prints the URL and the credentials of a VPN manager to register
 * (`dashboard_address`, `username`, `password`).
 */
import { startVpnSim } from './index';

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
  const host = hostIndex >= 0 ? (process.argv[hostIndex + 1] ?? '127.0.0.1') : '127.0.0.1';
  const releaseIndex = process.argv.indexOf('--pritunl');
  const version = releaseIndex >= 0 ? process.argv[releaseIndex + 1] : undefined;
  const sim = await startVpnSim({ host, port: flag('port', 9700), seed: flag('seed', 1), version });
  const { username, password } = sim.credentials;
  const servers = [...sim.state.servers.values()].map((s) => `${s.name} (${s.id}, ${s.status})`).join(', ');
  process.stdout.write(
    `VPN server (Pritunl ${sim.version}) simulator listening on ${sim.url}\n` +
      `  VPN manager: dashboard_address=${sim.url} username=${username} password=${password}\n` +
      `  servers: ${servers}\n`,
  );
  const stop = (): void => {
    void sim.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
