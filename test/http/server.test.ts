/**
 * The server process (packages/server): a bad configuration stops `serve` with exit code 1 and one
 * line naming the variable; SIGTERM lets an in-flight request finish and exits 0; /api/health needs
 * no token; without API_TOKENS an admin token is generated, kept with mode 0600 and printed.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Agent, get as httpGet, request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auth, expectEveError, startTestServer, TOKENS } from '../helpers';
import { until } from '../helpers/until';
import { spawnCli, startChildServer, stopChild, type ChildServer } from './resources/_support';
import { version as VERSION } from '../../package.json';

let dir: string;
const running: ChildServer[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-server-'));
});
afterEach(async () => {
  for (const server of running.splice(0)) await stopChild(server);
  rmSync(dir, { recursive: true, force: true });
});

const dbEnv = () => ({ DATABASE_URL: `sqlite:${join(dir, 'data', 'fleet.db')}` });

async function start(env: Record<string, string>): Promise<ChildServer> {
  const server = await startChildServer({ env, cwd: dir });
  running.push(server);
  // The banner follows the "listening" line; on a busy machine it may come a moment later.
  await until(() => server.stdout().includes('API docs:'), 'the start banner');
  return server;
}

describe('configuration', () => {
  const BAD: [string, string][] = [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PAGINATION_LIMIT', '0'],
    ['MAX_UPLOAD_BYTES', '-5'],
    ['API_TOKENS', 'short:admin'],
    ['DATABASE_URL', 'postgres://db/fleet'],
    ['LOG_LEVEL', 'loud'],
  ];
  const results = new Map<
    string,
    { exit: { code: number | null; signal: NodeJS.Signals | null }; stdout: string; stderr: string }
  >();
  let configDir: string;

  // The processes start in parallel (each takes a second or two to load); the cases check one each.
  beforeAll(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'fleet-config-'));
    await Promise.all(
      BAD.map(async ([name, value]) => {
        const env = {
          DATABASE_URL: `sqlite:${join(configDir, 'fleet.db')}`,
          API_TOKENS: `${TOKENS.admin}:admin`,
          [name]: value,
        };
        const { out, exited } = spawnCli({ env, cwd: configDir });
        const exit = await exited;
        results.set(`${name}=${value}`, { exit, stdout: out.stdout, stderr: out.stderr });
      }),
    );
  });
  afterAll(() => rmSync(configDir, { recursive: true, force: true }));

  it.each(BAD)('a bad %s (%s) stops serve with exit code 1 and one stderr line naming it', (name, value) => {
    const result = results.get(`${name}=${value}`);
    expect(result?.exit).toEqual({ code: 1, signal: null });
    const lines = (result?.stderr ?? '').split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(result?.stdout).not.toContain('listening');
  });
});

describe('graceful shutdown', () => {
  it('SIGTERM lets an in-flight request finish, refuses new connections, and exits 0', async () => {
    const server = await start({ ...dbEnv(), API_TOKENS: `${TOKENS.admin}:admin` });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const body = JSON.stringify({ name: 'written-during-shutdown', type: 0 });
    const half = Math.floor(body.length / 2);
    const { port } = new URL(server.url);
    // A keep-alive request whose body arrives in two halves, the signal in between. Each step waits
    // on what the server has done, never on a time: `Expect: 100-continue` makes the server say
    // when it holds the request (its headers parsed, the handler called), and the "shutting down"
    // line says when it has stopped listening.
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          agent,
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/groups',
          headers: {
            ...auth('admin'),
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            Expect: '100-continue',
          },
        },
        (res: IncomingMessage) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.on('continue', () => {
        req.write(body.slice(0, half));
        server.child.kill('SIGTERM');
        void (async () => {
          await until(() => server.stdout().includes('shutting down'), 'the shutdown to begin');
          // The listener is closed: a new connection is refused while the request is still open.
          await until(
            () =>
              fetch(`${server.url}/api/health`).then(
                () => false,
                () => true,
              ),
            'new connections to be refused',
          );
          expect(server.child.exitCode).toBeNull();
          req.end(body.slice(half));
        })().catch(reject);
      });
      req.flushHeaders();
    });
    const answered = await response;
    expect(answered.status).toBe(201);
    expect(JSON.parse(answered.text)).toMatchObject({ _status: 'OK' });

    // The client keeps using its kept-alive connection, back to back: that must not hold the exit
    // off until the 10 s force exit, which would end the process with code 1.
    const ping = () =>
      new Promise<number>((resolve, reject) => {
        httpGet(`${server.url}/api/health`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        }).on('error', reject);
      });
    let exited = false;
    void server.exited.then(() => (exited = true));
    while (!exited && (await ping().catch(() => 0)) === 200);
    agent.destroy();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stdout()).toContain('fleet-api stopped');

    const again = await start({ ...dbEnv(), API_TOKENS: `${TOKENS.admin}:admin` });
    const id = (JSON.parse(answered.text) as { _id: string })._id;
    const got = await fetch(`${again.url}/api/groups/${id}`, { headers: auth('admin') });
    expect(got.status).toBe(200);
  });

  it('an idle server exits 0 on SIGTERM', async () => {
    const server = await start({ ...dbEnv(), API_TOKENS: `${TOKENS.admin}:admin` });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});

describe('/api/health', () => {
  it('answers without a token, while the API itself needs one', async () => {
    const t = await startTestServer();
    try {
      const res = await t.request.get('/api/health');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok', store: 'sqlite', version: VERSION });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expectEveError(await t.request.get('/api/hosts'), 401);
    } finally {
      await t.close();
    }
  });
});

describe('the admin token when API_TOKENS is unset', () => {
  it('is generated into the data dir with mode 0600, printed, and accepted; a restart keeps it', async () => {
    const first = await start(dbEnv());
    const path = join(dir, 'data', 'admin-token');
    const token = readFileSync(path, 'utf8').trim();
    expect(token.length).toBeGreaterThanOrEqual(24);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(first.stdout()).toContain(`Authorization: Bearer ${token}`);
    expect(first.stdout().match(/Generated an admin token/g)).toHaveLength(1);
    expect(
      (await fetch(`${first.url}/api/hosts`, { headers: { Authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    expect((await fetch(`${first.url}/api/hosts`)).status).toBe(401);
    await stopChild(first);

    const second = await start(dbEnv());
    expect(readFileSync(path, 'utf8').trim()).toBe(token);
    expect(second.stdout()).not.toContain('Generated an admin token');
    expect(second.stdout()).not.toContain(token);
    expect(
      (await fetch(`${second.url}/api/hosts`, { headers: { Authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
  });

  it('is not created when API_TOKENS is set', async () => {
    const server = await start({ ...dbEnv(), API_TOKENS: `${TOKENS.viewer}:viewer` });
    expect(() => statSync(join(dir, 'data', 'admin-token'))).toThrow();
    expect(server.stdout()).not.toContain('Generated an admin token');
  });
});
