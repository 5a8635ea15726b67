/**
 * WORKERS=2: `fleet serve` (the bin, as a user starts it) forks two workers serving one port on
 * one SQLite file. Both answer requests and write to the store; the master's event stream is read
 * once and the sync runs on the one worker holding its lease whichever worker `POST
 * /api/master/sync` lands on; an execution recorded by the worker that ran it and by the event
 * reader is one action; a worker killed is replaced; SIGTERM to the primary stops every process
 * with status 0. A start that
 * cannot work (a busy port, a per-process memory store) is one line and status 1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSaltSim, type SaltSim } from '@fleet/salt-sim';

const BIN = join(__dirname, '..', '..', 'packages', 'server', 'bin', 'fleet.cjs');
const TOKEN = 'cluster-admin-token-0123456789abcdef';

interface Cluster {
  readonly child: ChildProcess;
  readonly out: () => string;
  readonly exited: Promise<number | null>;
}

/** Starts `fleet serve` with `env`; stdout and stderr gathered into one text. */
function serve(env: NodeJS.ProcessEnv): Cluster {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => text, exited };
}

/** Polls until `probe` is true; fails after 30 s naming `what` and showing the output. */
async function until(probe: () => boolean, what: string, c: Cluster): Promise<void> {
  const end = Date.now() + 30_000;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}:\n${c.out().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The JSON log lines of the output. */
function logLines(c: Cluster): Array<Record<string, unknown>> {
  return c
    .out()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line): unknown => JSON.parse(line))
    .filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null);
}

/** One request on a connection of its own (so the primary hands each to the next worker). */
function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      `${url}${path}`,
      {
        method,
        agent: false,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      },
      (res) => {
        let data = '';
        res.on('data', (chunk: Buffer) => (data += chunk.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: data === '' ? null : JSON.parse(data) }),
        );
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const workerPids = (c: Cluster, n: number): number[] =>
  logLines(c)
    .filter((l) => l['msg'] === 'worker listening' && l['worker'] === n)
    .map((l) => Number(l['pid']));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('WORKERS=2', () => {
  let sim: SaltSim;
  let dir: string;
  let c: Cluster;
  let url: string;

  beforeAll(async () => {
    sim = await startSaltSim({ hosts: 5, seed: 3, returnDelayMs: 2, noReturnWaitMs: 10 });
    dir = mkdtempSync(join(tmpdir(), 'fleet-cluster-'));
    c = serve({
      WORKERS: '2',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}`,
      API_TOKENS: `root=${TOKEN}:admin`,
      SALT_API_URL: sim.url,
      SALT_API_USER: sim.credentials.username,
      SALT_API_PASSWORD: sim.credentials.password,
      SYNC_INTERVAL_S: '3600',
    });
    await until(() => /API docs: (\S+)\/api\/docs/.test(c.out()), 'the cluster to listen', c);
    url = /API docs: (\S+)\/api\/docs/.exec(c.out())?.[1] ?? '';
  }, 60_000);

  afterAll(async () => {
    if (c.child.exitCode === null) c.child.kill('SIGKILL');
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts two workers, each its own process, announced once', () => {
    expect(workerPids(c, 1)).toHaveLength(1);
    expect(workerPids(c, 2)).toHaveLength(1);
    expect(workerPids(c, 1)[0]).not.toBe(workerPids(c, 2)[0]);
    expect(c.out().match(/API docs:/g)).toHaveLength(1);
  });

  it('serves requests from both workers, and both write to the one store', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `cluster-group-${i}`);
    const created = await Promise.all(names.map((name) => call(url, 'POST', '/api/groups', { name })));
    expect(created.map((r) => r.status)).toEqual(names.map(() => 201));
    const list = await call(
      url,
      'GET',
      `/api/groups?where=${encodeURIComponent(JSON.stringify({ name: { $in: names } }))}`,
    );
    expect((list.json as { _items: unknown[] })._items).toHaveLength(names.length);
    const servedBy = new Set(
      logLines(c)
        .filter((l) => l['msg'] === 'request' && l['path'] === '/api/groups')
        .map((l) => l['worker']),
    );
    expect([...servedBy].sort()).toEqual([1, 2]);
  });

  it('reads the event stream once, and runs every sync on one worker whichever worker is asked', async () => {
    await until(() => sim.controls.openEventStreams() >= 1, 'the event stream', c);
    expect(sim.controls.openEventStreams()).toBe(1);
    const before = sim.controls.stats.byFun['runner:manage.status'] ?? 0;
    for (let i = 0; i < 6; i++) {
      const res = await call(url, 'POST', '/api/master/sync');
      expect(res.status).toBe(200);
    }
    expect((sim.controls.stats.byFun['runner:manage.status'] ?? 0) - before).toBe(6);
    const askedOf = new Set(
      logLines(c)
        .filter((l) => l['msg'] === 'request' && l['path'] === '/api/master/sync')
        .map((l) => l['worker']),
    );
    expect([...askedOf].sort()).toEqual([1, 2]);
    const syncers = new Set(
      logLines(c)
        .filter((l) => l['component'] === 'sync')
        .map((l) => l['worker']),
    );
    expect(syncers.size).toBe(1);
    const hosts = await call(url, 'GET', '/api/hosts');
    expect((hosts.json as { _items: unknown[] })._items.length).toBeGreaterThan(0);
  }, 30_000);

  it('runs executions on a host and on a group: 200 each time, one action per host and jid, outcome and user right', async () => {
    await until(() => sim.controls.openEventStreams() >= 1, 'the event stream', c);
    await call(url, 'POST', '/api/master/sync');
    const up = [...sim.fleet.minions.values()].filter((m) => m.key === 'accepted' && m.up);
    const failing = up.find((m) => m.failingStates) ?? up[0];
    const members = up.slice(0, 3).map((m) => m.id);
    const group = await call(url, 'POST', '/api/groups', { name: 'cluster-exec', hosts: members });
    expect(group.status).toBe(201);
    const groupId = (group.json as { _id: string })._id;
    const runs: Array<{ path: string; body: Record<string, unknown>; hosts: string[] }> = [];
    for (let i = 0; i < 4; i++) {
      runs.push({
        path: `/api/hosts/${failing?.id ?? ''}`,
        body: { exec_client: 'local', fun: 'state.apply', arg: ['common'] },
        hosts: [failing?.id ?? ''],
      });
      runs.push({
        path: `/api/groups/${groupId}`,
        body: { exec_client: 'local', fun: 'test.ping' },
        hosts: members,
      });
    }
    // Each on a connection of its own: the two workers take turns, one of them reads the events.
    const answers = await Promise.all(runs.map((r) => call(url, 'POST', r.path, r.body)));
    expect(answers.map((a) => a.status)).toEqual(runs.map(() => 200));
    const jids = answers.map((a) => (a.json as { task_id: string }).task_id);
    // Let the reader handle the return events of every run (they are handled in order): a marker last.
    sim.controls.minionEvent(members[0] ?? '', 'vnc/connect', {
      hostname: 'cluster-marker',
      status: 'connected',
    });
    const markerSeen = async (): Promise<boolean> => {
      const res = await call(
        url,
        'GET',
        `/api/alerts?where=${encodeURIComponent(JSON.stringify({ 'payload.hostname': 'cluster-marker' }))}`,
      );
      return (res.json as { _items: unknown[] })._items.length > 0;
    };
    const end = Date.now() + 30_000;
    while (!(await markerSeen())) {
      if (Date.now() > end) throw new Error('the marker event was not handled');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const [i, run] of runs.entries()) {
      const res = await call(
        url,
        'GET',
        `/api/actions?where=${encodeURIComponent(JSON.stringify({ jid: jids[i] }))}`,
      );
      const items = (res.json as { _items: Array<Record<string, unknown>> })._items;
      expect(items.map((a) => a['host']).sort()).toEqual([...run.hosts].sort());
      for (const a of items) {
        expect(a['user']).toBe('root');
        expect(a['success']).toBe(run.body['fun'] === 'test.ping' ? true : failing?.failingStates !== true);
      }
    }
    expect(
      logLines(c).filter((l) => l['msg'] === 'salt event could not be recorded (the next sync repairs it)'),
    ).toEqual([]);
  }, 60_000);

  it('replaces a worker that dies, and keeps serving', async () => {
    const [pid] = workerPids(c, 2);
    process.kill(pid ?? 0, 'SIGKILL');
    await until(() => workerPids(c, 2).length === 2, 'a new worker 2', c);
    expect(logLines(c).some((l) => l['msg'] === 'worker exited; starting another' && l['worker'] === 2)).toBe(
      true,
    );
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(url, 'GET', '/api/hosts?max_results=1')),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
  }, 40_000);

  it('stops every process on SIGTERM to the primary, status 0', async () => {
    const pids = [...workerPids(c, 1), ...workerPids(c, 2)].filter(alive);
    expect(pids).toHaveLength(2);
    c.child.kill('SIGTERM');
    expect(await c.exited).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
  }, 30_000);
});

describe('WORKERS=2 that cannot start', () => {
  let dir: string;
  let busy: Server;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fleet-cluster-bad-'));
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => busy.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('says the port is in use, in one line, status 1', async () => {
    const address = busy.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const c = serve({
      WORKERS: '2',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}`,
      API_TOKENS: `root=${TOKEN}:admin`,
    });
    expect(await c.exited).toBe(1);
    expect(c.out()).toContain(`Port ${port} on 127.0.0.1 is already in use`);
  }, 40_000);

  it('refuses a memory store, which would be one per worker', async () => {
    const c = serve({ WORKERS: '2', PORT: '0', DATABASE_URL: 'memory:' });
    expect(await c.exited).toBe(1);
    expect(c.out()).toMatch(/WORKERS > 1 needs a shared store/);
  }, 40_000);
});
