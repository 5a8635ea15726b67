/**
 * Logs a person can read. JSON lines by default; `LOG_FORMAT=pretty` writes readable lines
 * (pino-pretty) from `fleet serve`, the bin as an operator starts it. The retries of one failure
 * (same level, message, component and error, whatever the attempt number or delay) are one line,
 * then one line with their count at the end of the window; other warnings and info lines pass.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '../../packages/server/src/config';
import { createLogger } from '../../packages/server/src/logger';
import { until } from '../helpers/until';

type Logger = ReturnType<typeof createLogger>;

const BIN = join(__dirname, '..', '..', 'packages', 'server', 'bin', 'fleet.cjs');

/** The service's logger over a window of `windowMs`, its lines kept. */
function folded(windowMs: number): { log: Logger; lines: () => Record<string, unknown>[] } {
  const raw: string[] = [];
  const log = createLogger(
    'info',
    { write: (line: string) => void raw.push(line) },
    {},
    { foldWindowMs: windowMs },
  );
  return {
    log: log.child({ component: 'events' }),
    lines: () => raw.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

it('folds the retries of one failure into one line, then one line with their count', async () => {
  const { log, lines } = folded(200);
  for (let attempt = 1; attempt <= 5; attempt++)
    log.warn(
      { err: 'connect ECONNREFUSED', retryInMs: 500 * attempt },
      'salt event stream could not be opened',
    );
  log.info({ path: '/api/hosts' }, 'request');
  log.info({ path: '/api/hosts' }, 'request');
  log.warn({ err: 'another failure' }, 'salt event stream could not be opened');
  expect(lines().map((l) => [l['msg'], l['err'] ?? l['path']])).toEqual([
    ['salt event stream could not be opened', 'connect ECONNREFUSED'],
    ['request', '/api/hosts'],
    ['request', '/api/hosts'],
    ['salt event stream could not be opened', 'another failure'],
  ]);
  await until(() => lines().length === 5, 'the count line');
  expect(lines()[4]).toMatchObject({
    msg: 'salt event stream could not be opened',
    err: 'connect ECONNREFUSED',
    retryInMs: 2500,
    repeated: 4,
    first: expect.any(String),
    last: expect.any(String),
  });
});

it('starts a new window after the count: the failure still going shows again', async () => {
  const { log, lines } = folded(100);
  log.error({ err: 'x' }, 'sync failed');
  log.error({ err: 'x' }, 'sync failed');
  await until(() => lines().length === 2, 'the count line');
  log.error({ err: 'x' }, 'sync failed');
  expect(lines().map((l) => l['repeated'] ?? 0)).toEqual([0, 1, 0]);
});

it('LOG_FORMAT accepts json and pretty, and names the variable otherwise', () => {
  expect(loadConfig({}).LOG_FORMAT).toBe('json');
  expect(loadConfig({ LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
  expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(
    'Invalid configuration: LOG_FORMAT must be json or pretty',
  );
});

it('fleet serve with LOG_FORMAT=pretty writes readable lines, not JSON', async () => {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      LOG_FORMAT: 'pretty',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'memory:',
      API_TOKENS: 'ops=pretty-log-token-0123456789:admin',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await until(() => out.includes('API docs:'), 'the server to listen');
    const line = out.split('\n').find((l) => l.includes('fleet-api listening')) ?? '';
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: fleet-api listening/);
    expect(line.startsWith('{')).toBe(false);
    expect(out).not.toContain('pretty-log-token-0123456789');
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});
