/**
 * `pnpm demo` with its VPN server: the CLI in a child process (free ports, a temp data dir) prints
 * the VPN simulator's URL, and the one VPN manager it wired works through the printed API:
 * an organization is created on the simulator, a host's account in it, and the manager's
 * password reads back masked. SIGTERM stops everything with exit code 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually } from './support';

const ROOT = resolve(__dirname, '../..');
let child: ChildProcess;
let out = '';
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-demo-vpn-'));
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  for (const name of ['API_TOKENS', 'DATABASE_URL', 'PORT', 'HOST', 'SALT_API_URL', 'SYNC_INTERVAL_S'])
    delete env[name];
  child = spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/devtools/src/cli.ts', 'demo', '--hosts', '5', '--port', '0', '--data', dir],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
});

afterAll(() => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

it('starts the VPN simulator with one manager wired; organizations and accounts work through it', async () => {
  const banner = await eventually(
    () => (/Ctrl-C stops/.test(out) ? out : undefined),
    20_000,
    `the demo banner (output so far: ${out})`,
  );
  const api = /API\s+(http:\/\/127\.0\.0\.1:\d+\/api)/.exec(banner)?.[1] ?? '';
  const vpnUrl = /VPN server\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
  const token = /admin token\s+(\S+)/.exec(banner)?.[1] ?? '';
  expect(vpnUrl).toEqual(expect.any(String));
  const call = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const managers = (await call('GET', '/vpn_managers')).body._items as Record<string, unknown>[];
  expect(managers).toEqual([
    expect.objectContaining({ name: 'vpn-sim', dashboard_address: vpnUrl, password: '********' }),
  ]);
  const org = await call('POST', '/vpn_organizations', {
    name: 'demo',
    vpn_manager: managers[0]?._id,
    cipher_type: 'rsa',
  });
  expect(org.status).toBe(201);
  const hosts = (await call('GET', '/hosts?max_results=1')).body._items as { _id: string }[];
  const linked = await call('PATCH', `/hosts/${hosts[0]?._id ?? ''}`, { vpn_organization: org.body._id });
  expect(linked.status).toBe(200);
  expect((await call('GET', `/hosts/${hosts[0]?._id ?? ''}`)).body.vpnsrv_representation).toMatchObject({
    name: hosts[0]?._id,
    otp_secret: '********',
  });

  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
}, 30_000);
