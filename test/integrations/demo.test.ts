/**
 * `pnpm demo` as a newcomer runs it: the CLI in a child process (free ports, a temp data dir),
 * read its banner (the docs page linked), use the printed token on the printed URL, find the
 * statistics answering at once (the first snapshot taken at start), see a readable line for the
 * first sync and for the events of an execution, then SIGTERM and a clean exit. `--help` says
 * what it does and exits.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually } from './master-env';

const ROOT = resolve(__dirname, '../..');
let child: ChildProcess;
let out = '';
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-demo-'));
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  for (const name of ['API_TOKENS', 'DATABASE_URL', 'PORT', 'HOST', 'SALT_API_URL', 'SYNC_INTERVAL_S'])
    delete env[name];
  // `node --import tsx`: one process, so the demo's own signal handling decides the exit code.
  child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'packages/devtools/src/cli.ts',
      'demo',
      '--hosts',
      '20',
      '--port',
      '0',
      '--data',
      dir,
    ],
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

describe('pnpm demo', () => {
  it('prints the URLs and an admin token, serves the synced fleet, and stops on SIGTERM', async () => {
    const banner = await eventually(
      async () => (/Ctrl-C stops/.test(out) ? out : undefined),
      18_000,
      `the demo banner (output so far: ${out})`,
    );
    const api = /API\s+(http:\/\/127\.0\.0\.1:\d+\/api)/.exec(banner)?.[1];
    const sim = /salt-api\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
    const token = /admin token\s+(\S+)/.exec(banner)?.[1];
    expect({ api, sim, token }).toEqual({
      api: expect.any(String),
      sim: expect.any(String),
      token: expect.any(String),
    });
    expect(banner.match(/curl /g)).toHaveLength(2);
    expect(banner).toContain(`API docs     ${api ?? ''}/docs`);
    expect(banner).toMatch(
      /^\d\d:\d\d:\d\d sync {4}2\d hosts seen, \d+ changed, \d+ new, \d+ actions recorded/m,
    );
    expect(banner).not.toMatch(/^\{/m);
    const headers = { Authorization: `Bearer ${token ?? ''}` };
    const stats = await fetch(`${api ?? ''}/hosts_statistic?max_results=1`, { headers });
    expect(stats.status).toBe(200);
    expect(((await stats.json()) as { _meta: { total: number } })._meta.total).toBeGreaterThanOrEqual(1);
    const docs = await fetch(`${api ?? ''}/docs`);
    expect(docs.status).toBe(200);
    const list = (await (await fetch(`${api ?? ''}/hosts?where={"status":"up"}`, { headers })).json()) as {
      _items: Array<{ _id: string }>;
    };
    const upHost = list._items[0]?._id ?? '';
    const exec = await fetch(`${api ?? ''}/hosts/${upHost}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ exec_client: 'local', fun: 'test.ping' }),
    });
    expect(exec.status).toBe(200);
    await eventually(
      async () =>
        new RegExp(`^\\d\\d:\\d\\d:\\d\\d event {3}salt/job/\\d+/ret/${upHost}: action`, 'm').test(out)
          ? true
          : undefined,
      10_000,
      `the event line of the execution (output so far: ${out})`,
    );

    const hosts = await fetch(`${api ?? ''}/hosts?max_results=100`, { headers });
    expect(hosts.status).toBe(200);
    const body = (await hosts.json()) as {
      _items: Array<{ _id: string; status: string }>;
      _meta: { total: number };
    };
    expect(body._meta.total).toBeGreaterThanOrEqual(20);
    expect(body._items.some((h) => h.status === 'up')).toBe(true);
    expect((await fetch(`${sim ?? ''}/`)).status).toBe(200);

    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toMatch(/SIGTERM: stopping the demo/);
  }, 40_000);

  it('answers --help with what it does, and exits', () => {
    const help = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'packages/devtools/src/cli.ts', 'demo', '--help'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(help).toMatch(/^usage: demo \[--hosts N/);
    expect(help).toContain('first host-list snapshot');
    expect(help).toContain('--data DIR');
  });
});
