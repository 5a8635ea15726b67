/**
 * The `fleet` command line: the bin runs under Node (tsx's hook), `--help` lists every command
 * and each command's `--help` prints its usage without running it (so `seed --help` seeds
 * nothing); an unknown command is one line and exit 1; `openapi` writes the very document the
 * server serves, to stdout or a file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { COMMAND_HELP } from '../../packages/server/src/cli/help';
import { runCli } from '../../packages/server/src/cli/main';
import { openapiCommand } from '../../packages/server/src/cli/openapi';
import { ConfigError } from '../../packages/server/src/config';
import { startTestServer, type TestServer } from '../helpers';

const BIN = join(__dirname, '..', '..', 'packages', 'server', 'bin', 'fleet.cjs');
const run = promisify(execFile);

/** Runs the bin; resolves its exit code and output (a failure is an answer here, not a throw). */
async function fleet(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const COMMANDS = [
  'serve',
  'seed',
  'openapi',
  'new-resource',
  'token',
  'rotate-key',
  'import',
  'backup',
  'restore',
];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('the bin', () => {
  it('lists every command with --help', async () => {
    const res = await fleet(['--help']);
    expect(res.code).toBe(0);
    for (const name of COMMANDS) expect(res.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
  }, 20_000);

  it('refuses an unknown command in one line, exit 1', async () => {
    const res = await fleet(['frobnicate']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`Unknown command "frobnicate": use ${COMMANDS.join(', ')} (fleet --help)\n`);
    expect(res.stdout).toBe('');
  }, 20_000);

  it('writes the document the server serves, on stdout', async () => {
    const res = await fleet(['openapi']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual((await t.request.get('/api/openapi.json')).body);
  }, 20_000);
});

describe('--help on each command', () => {
  it.each(COMMANDS)('%s --help prints its usage and runs nothing', async (name) => {
    const help = COMMAND_HELP[name];
    expect(help).toBeDefined();
    expect(await runCli([name, '--help'])).toEqual({ stdout: `${help?.usage ?? ''}\n` });
    expect(await runCli(['help', name])).toEqual({ stdout: `${help?.usage ?? ''}\n` });
    expect(help?.usage).toMatch(new RegExp(`^usage: fleet ${name}\\b`));
  });

  it('the overview for fleet --help, -h and help', async () => {
    const overview = await runCli(['--help']);
    expect(await runCli(['-h'])).toEqual(overview);
    expect(await runCli(['help'])).toEqual(overview);
  });
});

describe('fleet openapi --out', () => {
  it('writes the document to the file, and says where on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleet-openapi-'));
    try {
      const out = await openapiCommand(['--out', 'doc.json'], dir);
      expect(out).toEqual({ stdout: '', stderr: `Wrote the OpenAPI document to ${join(dir, 'doc.json')}\n` });
      expect(JSON.parse(readFileSync(join(dir, 'doc.json'), 'utf8'))).toEqual(
        (await t.request.get('/api/openapi.json')).body,
      );
      await expect(openapiCommand(['--format', 'yaml'])).rejects.toBeInstanceOf(ConfigError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
