/**
 * The image, built without Docker: the Dockerfile's stages are replayed (replay.ts) from a clean
 * copy of the checkout into a temporary directory, with pnpm's metadata cache empty as in a fresh
 * image (so the offline install and deploy read nothing but the lockfile and the store). What
 * the runtime stage copies is then started as the image runs it: its CMD through `fleet` on the
 * PATH, its ENV, from its WORKDIR, as a user without privileges, with plain node. The test checks
 * that the layout holds production dependencies only, that the server is one node process and
 * healthy (the image's own HEALTHCHECK), that the image's `fleet` makes a token and the server
 * takes a write with it, that SIGTERM ends it with status 0, and that it starts again on the same
 * data and finds the write.
 *
 * About a minute on a warm pnpm store (most of it installing and deploying); part of `pnpm test`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { version as VERSION } from '../../package.json';
import { replayDockerfile, type Runtime } from './replay';
import { childrenOf } from '../helpers/processes';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

/** The image's user (`node`) stands as `nobody` here, when the test runs as root; else as itself. */
const asRoot = process.getuid?.() === 0;
const USER = asRoot ? { name: 'nobody', uid: 65534, gid: 65534 } : undefined;

let work: string;
let image: Runtime;
let app: string;
let port: number;

/** The environment of a process in the container: the image's ENV, its PATH, a port of our own. */
function containerEnv(): NodeJS.ProcessEnv {
  return {
    ...image.env,
    PORT: String(port),
    PATH: `${join(image.root, 'usr', 'local', 'bin')}:/usr/bin:/bin`,
    LOG_LEVEL: 'info',
  };
}

const as = USER ? { uid: USER.uid, gid: USER.gid } : {};

/** `docker run <image> <argv>`: from the WORKDIR, as the image's user. */
function container(argv: readonly string[]): ChildProcess {
  const [command = '', ...args] = argv;
  return spawn(command, args, {
    cwd: image.workdir,
    env: containerEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...as,
  });
}

/** `docker exec <container> <argv>`: a command beside the running server. */
async function exec(argv: readonly string[]): Promise<string> {
  const [command = '', ...args] = argv;
  const { stdout } = await run(command, args, { cwd: image.workdir, env: containerEnv(), ...as });
  return stdout;
}

/** A free port, found by listening on port 0. */
async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Resolves once `ok()` holds, asking again every 50 ms. */
async function until(ok: () => Promise<boolean>): Promise<void> {
  while (!(await ok())) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function healthy(child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited ${child.exitCode}`);
    const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
    if (res?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const exited = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((r) => child.on('exit', (code) => r(code)));

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'fleet-image-'));
  // The image's user reads the code as any user may (the layout stays owned by root).
  chmodSync(work, 0o755);
  port = 0;
  image = replayDockerfile({
    repo: ROOT,
    work,
    users: USER ? { node: USER.name } : {},
    // An empty metadata cache, as in a fresh image: installs and the deploy must do with the lockfile.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_cache_dir: join(work, 'pnpm-cache') },
  });
  app = image.workdir;
  // What the base image brings: node in /usr/local/bin (this test's own, the one the build used).
  copyFileSync(process.execPath, join(image.root, 'usr', 'local', 'bin', 'node'));
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the image, replayed from the Dockerfile', () => {
  it('runs one script of scripts/image/ per stage, and no compiler in the runtime stage', () => {
    expect(Object.keys(image.ran)).toEqual(['fetch', 'build', 'runtime']);
    expect(image.ran.fetch).toEqual(['scripts/image/fetch.sh /src']);
    expect(image.ran.build).toEqual(['scripts/image/build.sh /src /prod']);
    expect(image.ran.runtime).toEqual(['/usr/local/lib/fleet/runtime.sh /app /usr/local/bin node']);
    expect(image.stage).toBe('runtime');
    expect(image.user).toBe('node');
    expect(image.cmd).toEqual(['fleet', 'serve']);
  });

  it('lays out the compiled server and production dependencies only', () => {
    expect(readdirSync(app).sort()).toEqual([
      'bin',
      'data',
      'dist',
      'node_modules',
      'package.json',
      'pnpm-lock.yaml',
    ]);
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(
      readdirSync(join(app, 'node_modules'))
        .filter((n) => !n.startsWith('.'))
        .sort(),
    ).toEqual(Object.keys(manifest.dependencies).sort());
    const installed = readdirSync(join(app, 'node_modules', '.pnpm'));
    for (const tool of ['tsx@', 'typescript@', 'esbuild@', 'jest@', 'ts-jest@', '@fleet+'])
      expect(installed.filter((n) => n.startsWith(tool))).toEqual([]);
    expect(existsSync(join(app, 'src'))).toBe(false);
  });

  it('puts fleet on the PATH, answering with the release', async () => {
    expect((await exec(['fleet', '--version'])).trim()).toBe(VERSION);
  });

  it("seeds with the image's fleet (2,500 actions: enough for reads on worker threads)", async () => {
    const said = await exec(['fleet', 'seed', '--hosts', '20', '--actions', '2500']);
    expect(said).toMatch(/20 hosts, 2500 actions/);
  });

  it('serves as one node process, takes a write, stops on SIGTERM with 0, and keeps the write', async () => {
    port = await freePort();
    const first = container(image.cmd);
    let output = '';
    first.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    first.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    try {
      await healthy(first);
      const pid = first.pid ?? 0;
      // node itself (the shebang's env execs it), running the bin: no wrapper, no TypeScript loader.
      expect(basename(readlinkSync(`/proc/${pid}/exe`))).toBe('node');
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      expect(argv.slice(1)).toEqual([join(image.root, 'usr', 'local', 'bin', 'fleet'), 'serve']);
      expect(childrenOf(pid)).toEqual([]);
      if (USER)
        expect(readFileSync(`/proc/${pid}/status`, 'utf8')).toMatch(
          new RegExp(`^Uid:\\s+${USER.uid}\\b`, 'm'),
        );
      expect(output).toContain(`"version":"${VERSION}"`);
      // The image's own health check.
      await exec(image.healthcheck);
      // A read no index serves, on 2,500 actions: it runs on a read worker thread (dist/read-worker.js).
      const admin = readFileSync(join(app, 'data', 'admin-token'), 'utf8').trim();
      const heavy = await fetch(
        `http://127.0.0.1:${port}/api/actions?where={"return":{"$regex":"no such output"}}`,
        {
          headers: { authorization: `Bearer ${admin}` },
        },
      );
      expect({ status: heavy.status, total: heavy.headers.get('x-total-count') }).toEqual({
        status: 200,
        total: '0',
      });
      const token = (await exec(['fleet', 'token', 'create', 'image-test', '--role', 'operator'])).trim();
      // The server reads the stored tokens every TOKEN_REFRESH_S: the new one counts once it has.
      await until(
        async () =>
          (
            await fetch(`http://127.0.0.1:${port}/api/tasks`, {
              headers: { authorization: `Bearer ${token}` },
            })
          ).status === 200,
      );
      const res = await fetch(`http://127.0.0.1:${port}/api/tasks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'from the image',
          fun: 'test.ping',
          tgt: ['*'],
          start: '2030-01-01T00:00:00Z',
        }),
      });
      expect(res.status).toBe(201);
    } finally {
      first.kill('SIGTERM');
    }
    expect(await exited(first)).toBe(0);

    const second = container(image.cmd);
    try {
      await healthy(second);
      const admin = readFileSync(join(app, 'data', 'admin-token'), 'utf8').trim();
      const res = await fetch(`http://127.0.0.1:${port}/api/tasks?where={"name":"from the image"}`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(((await res.json()) as { _items: unknown[] })._items).toHaveLength(1);
    } finally {
      second.kill('SIGTERM');
    }
    expect(await exited(second)).toBe(0);
  });
});
