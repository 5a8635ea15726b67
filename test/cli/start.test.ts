/**
 * The README's `pnpm start`, as a terminal runs it: pnpm (the version package.json pins), then
 * the compiled server in one node process (no tsx, no shell between them); Ctrl-C (SIGINT to the
 * whole process group) stops it cleanly: status 0, and no complaint from pnpm.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageManager } from '../../package.json';
import { childrenOf } from '../helpers/processes';

const ROOT = join(__dirname, '..', '..');

/** The pinned pnpm's own script, fetched by npx (as the README's `npx -y pnpm@10` does). */
function pinnedPnpm(): string {
  const version = packageManager.replace(/^pnpm@/, '');
  execFileSync('npx', ['--yes', packageManager, '--version'], { cwd: ROOT, stdio: 'ignore' });
  const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  for (const dir of readdirSync(join(cache, '_npx'))) {
    const pkg = join(cache, '_npx', dir, 'node_modules', 'pnpm');
    const manifest = join(pkg, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version === version
    )
      return join(pkg, 'bin', 'pnpm.cjs');
  }
  throw new Error(`npx fetched ${packageManager}, but it is not in ${cache}/_npx`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-start-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('serves in one node process under pnpm, and Ctrl-C ends it with status 0', async () => {
  const port = await freePort();
  const pnpm = spawn(process.execPath, [pinnedPnpm(), 'start'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  pnpm.stdout.on('data', (d: Buffer) => (output += d.toString()));
  pnpm.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => pnpm.on('exit', (code) => resolve(code)));
  try {
    for (;;) {
      if (pnpm.exitCode !== null) throw new Error(`pnpm start exited ${pnpm.exitCode}: ${output}`);
      const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
      if (res?.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [server, ...others] = childrenOf(pnpm.pid ?? 0);
    expect(others).toEqual([]);
    expect(cmdline(server ?? 0)).toMatch(/^\S*node packages\/server\/bin\/fleet\.cjs serve$/);
    expect(childrenOf(server ?? 0)).toEqual([]);
  } finally {
    process.kill(-(pnpm.pid ?? 0), 'SIGINT');
  }
  expect(await exited).toBe(0);
  expect(output).not.toContain('ELIFECYCLE');
  expect(output).toContain('"msg":"fleet-api stopped"');
}, 120_000);
