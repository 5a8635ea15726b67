/**
 * `fleet token create|list|revoke` against the store of two running API instances (one SQLite
 * file): a created token is printed once and stored as its SHA-256 digest only; both instances
 * accept it within TOKEN_REFRESH_S with no restart, with its role; `list` names configured and
 * stored tokens and never shows a token or digest; a revoked token is refused by both. The
 * resource has no HTTP door.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import supertest from 'supertest';
import { systemContext, Unprocessable } from '../../engine/src';
import { api_tokens } from '../../resources';
import { startServer, type RunningServer } from '../../packages/server/src/boot';
import { tokenCommand } from '../../packages/server/src/cli/token';
import { ConfigError, loadConfig } from '../../packages/server/src/config';
import { createLogger } from '../../packages/server/src/logger';
import { auth, expectEveError, startTestServer, TOKENS, type TestServer } from '../helpers';

let a: TestServer;
let b: RunningServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  a = await startTestServer({ env: { TOKEN_REFRESH_S: '0.1' } });
  // The CLI's environment, and a second instance on the same store: tokens made anywhere count there too.
  env = {
    DATABASE_URL: `sqlite:${a.dbPath}`,
    API_TOKENS: `admin=${TOKENS.admin}:admin,operator=${TOKENS.operator}:operator,viewer=${TOKENS.viewer}:viewer`,
    TOKEN_REFRESH_S: '0.1',
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
  };
  b = await startServer(loadConfig(env), { log: createLogger('silent'), cwd: a.dir });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

/** Asks both instances until each answers `status` for the token (a refresh is 0.1 s), at most 5 s. */
async function bothAnswer(token: string, status: number): Promise<number[]> {
  const servers = [a.url, b.url];
  const deadline = Date.now() + 5000;
  let seen: number[] = [];
  do {
    seen = await Promise.all(
      servers.map(
        async (url) =>
          (await supertest(url).get('/api/hosts').set('Authorization', `Bearer ${token}`)).status,
      ),
    );
    if (seen.every((s) => s === status)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  } while (Date.now() < deadline);
  return seen;
}

describe('a stored token', () => {
  let token = '';

  it('is printed once, on stdout, and only its digest is stored', async () => {
    const out = await tokenCommand(['create', 'ci-bot', '--role', 'operator'], env);
    expect(out.stdout).toMatch(/^flt_[A-Za-z0-9_-]{43}\n$/);
    expect(out.stderr).toContain('Created the operator token "ci-bot"');
    token = out.stdout.trim();
    const [doc] = await a.engine.runtime.resources
      .of(api_tokens)
      .find({ where: { name: 'ci-bot' } }, systemContext(a.engine.runtime));
    expect(doc).toMatchObject({
      name: 'ci-bot',
      role: 'operator',
      revoked: null,
      digest: createHash('sha256').update(token).digest('hex'),
    });
    expect(JSON.stringify(doc)).not.toContain(token);
    for (const file of [a.dbPath, `${a.dbPath}-wal`]) expect(readFileSync(file).includes(token)).toBe(false);
  });

  it('is accepted by every instance within a refresh, with its role', async () => {
    expect(await bothAnswer(token, 200)).toEqual([200, 200]);
    const bearer = { Authorization: `Bearer ${token}` };
    const forbidden = expectEveError(
      await supertest(b.url).post('/api/groups').set(bearer).send({ name: 'racks' }),
      403,
    );
    expect(forbidden._error.message).toBe('POST /groups needs the admin role; this token has operator');
  });

  it('is listed by name, role and dates beside the configured tokens, never by its value', async () => {
    const out = await tokenCommand(['list'], env);
    const lines = out.stdout.trim().split('\n');
    expect(lines[0]?.split(/\s+/)).toEqual(['NAME', 'ROLE', 'SOURCE', 'CREATED', 'REVOKED']);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 3))).toEqual([
      ['admin', 'admin', 'API_TOKENS'],
      ['operator', 'operator', 'API_TOKENS'],
      ['viewer', 'viewer', 'API_TOKENS'],
      ['ci-bot', 'operator', 'store'],
    ]);
    expect(out.stdout).not.toContain(token);
    expect(out.stdout).not.toContain(createHash('sha256').update(token).digest('hex'));
  });

  it('is refused by every instance once revoked, and stays in the list as revoked', async () => {
    expect((await tokenCommand(['revoke', 'ci-bot'], env)).stdout).toContain('Revoked the token "ci-bot"');
    expect(await bothAnswer(token, 401)).toEqual([401, 401]);
    const refused = await supertest(a.url).get('/api/hosts').set('Authorization', `Bearer ${token}`);
    expect(expectEveError(refused, 401)._error.message).toBe('Unknown or revoked token');
    expect((await tokenCommand(['list'], env)).stdout).toMatch(
      /ci-bot\s+operator\s+store\s+\w{3}, .+ GMT\s+\w{3}, .+ GMT/,
    );
    expect((await tokenCommand(['revoke', 'ci-bot'], env)).stdout).toContain('already revoked');
  });
});

describe('what token refuses', () => {
  it.each([
    [['create', 'ci-bot'], 'a token named "ci-bot" exists (revoked)'],
    [['create', 'viewer'], '"viewer" names a configured token'],
    [['create', 'x', '--role', 'root'], '--role must be viewer, operator or admin'],
    [['revoke', 'operator'], 'is configured, not stored'],
    [['revoke', 'nobody'], 'there is no stored token named "nobody"'],
    [['frobnicate'], 'say create, list or revoke'],
    [['create'], 'name the token'],
    [['list', '--role', 'admin'], '--role is for create'],
  ])('token %j', async (argv, message) => {
    const attempt = tokenCommand(argv, env);
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toThrow(message);
  });

  it.each([
    [
      'two words',
      'a token name is 1 to 64 characters: lowercase letters, digits, "_", "." and "-", starting with a letter or digit (got "two words")',
    ],
    ['ADMIN', '(got "ADMIN")'],
    ['.dot', '(got ".dot")'],
    [
      'a'.repeat(65),
      'a token name is 1 to 64 characters: lowercase letters, digits, "_", "." and "-", starting with a letter or digit (got 65 characters)',
    ],
    [
      'system',
      '"system" is reserved: the service records its own actions (the scheduler, the sync) under it',
    ],
    ['constructor', '"constructor" is reserved: it names a property of every JavaScript object'],
    ['__proto__', '"__proto__" is reserved'],
    ['prototype', '"prototype" is reserved'],
    [
      'token-0a1b2c3d',
      '"token-0a1b2c3d" is reserved: API_TOKENS without a name are named token-<8 hex digits>',
    ],
  ])(
    'token create %j: refused by the name rule, before the store is opened, and by the resource',
    async (name, message) => {
      const attempt = tokenCommand(['create', name], env);
      await expect(attempt).rejects.toBeInstanceOf(ConfigError);
      await expect(attempt).rejects.toThrow(`token create: `);
      await expect(attempt).rejects.toThrow(message);
      // The resource holds the same rule for any other writer, with the same sentence.
      const tokens = a.engine.runtime.resources.of(api_tokens);
      const direct = tokens.create(
        { name, role: 'viewer', digest: 'a'.repeat(64) },
        systemContext(a.engine.runtime),
      );
      await expect(direct).rejects.toBeInstanceOf(Unprocessable);
      await expect(direct).rejects.toThrow(message);
      expect(await tokens.find({ where: { name } }, systemContext(a.engine.runtime))).toEqual([]);
    },
  );

  it('a name of 64 characters, lowercase, digits and _.- is taken', async () => {
    const name = `ci_bot.v2-${'x'.repeat(54)}`;
    expect(name).toHaveLength(64);
    expect((await tokenCommand(['create', name], env)).stderr).toContain(
      `Created the viewer token "${name}"`,
    );
  });

  it('has no HTTP door: /api/api_tokens answers 405 and the document has no path for it', async () => {
    expectEveError(await a.request.get('/api/api_tokens').set(auth('admin')), 405);
    const doc = (await a.request.get('/api/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.includes('api_tokens'))).toEqual([]);
  });
});
