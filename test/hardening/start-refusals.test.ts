/**
 * Starts that must not happen, each refused by the real CLI with one line saying what to do
 *: a port already in use, an empty or short key file, a missing key file while the store
 * holds sealed secrets (a new key would make them unreadable), a damaged database file. And the
 * starts that must still happen: a fresh data dir makes its key.
 */
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { insertHosts, startTestServer, TOKENS } from '../helpers';
import { killGroup, spawnCli } from '../http/resources/_support';

const TOKEN_ENV = `admin=${TOKENS.admin}:admin`;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-refusal-'));
  dirs.push(dir);
  return dir;
}

/** Runs the CLI to its exit; a refused start exits 1 with one line on stderr. */
async function refusedStart(env: Record<string, string>): Promise<string> {
  const { child, out, exited } = spawnCli({
    env: { PORT: '0', HOST: '127.0.0.1', API_TOKENS: TOKEN_ENV, LOG_LEVEL: 'error', ...env },
  });
  // A start that is not refused would run on: stop it, and let the assertions below say so.
  const stop = setTimeout(() => killGroup(child, 'SIGKILL'), 15_000);
  const { code } = await exited;
  clearTimeout(stop);
  expect({ code, stdout: out.stdout }).toEqual({ code: 1, stdout: '' });
  expect(out.stderr.endsWith('\n')).toBe(true);
  expect(out.stderr.trimEnd().split('\n')).toHaveLength(1);
  return out.stderr.trimEnd();
}

/** A data dir whose store was written by a server (with a host whose OTP secret is sealed when `sealed`). */
async function usedStore(sealed: boolean): Promise<{ dir: string; db: string }> {
  const s = await startTestServer();
  dirs.push(s.dir);
  if (sealed)
    await insertHosts(s.store, 1, {
      overrides: () => ({
        vpnsrv_representation: { name: 'h', otp_secret: s.secrets.seal('JBSWY3DPEHPK3PXP') },
      }),
    });
  else await insertHosts(s.store, 1);
  // The server alone: its data dir stays for the next start (removed in afterAll).
  await s.server.close();
  return { dir: s.dir, db: s.dbPath };
}

describe('the CLI refuses to start, in one line', () => {
  test('on a port already in use, naming it', async () => {
    const holder = await startTestServer();
    try {
      const port = new URL(holder.url).port;
      const line = await refusedStart({ DATABASE_URL: `sqlite:${join(tempDir(), 'b.db')}`, PORT: port });
      expect(line).toBe(
        `Port ${port} on 127.0.0.1 is already in use: stop the process holding it, or set PORT to a free port`,
      );
    } finally {
      await holder.close();
    }
  });

  test('on an empty, blank or short key file', async () => {
    const cases: [string, RegExp][] = [
      ['', /^The secret key file .*secret-key is empty: restore it from a backup \(or set SECRET_KEY\)/],
      ['   \n', /^The secret key file .*secret-key is empty/],
      ['abc123\n', /^The secret key file .*secret-key is shorter than 16 characters/],
    ];
    const lines = await Promise.all(
      cases.map(([content]) => {
        const dir = tempDir();
        writeFileSync(join(dir, 'secret-key'), content, { mode: 0o600 });
        return refusedStart({ DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}` });
      }),
    );
    lines.forEach((line, i) => expect(line).toMatch(cases[i]?.[1] ?? /never/));
  });

  test('on a missing key file while the store holds sealed secrets, and keeps the store as it was', async () => {
    const { dir, db } = await usedStore(true);
    unlinkSync(join(dir, 'secret-key'));
    const line = await refusedStart({ DATABASE_URL: `sqlite:${db}` });
    expect(line).toBe(
      `The store holds encrypted secrets but the key file ${join(dir, 'secret-key')} is missing: restore it from a backup, or set SECRET_KEY to that key; a new key would make every stored secret unreadable (docs/secrets.md)`,
    );
    expect(existsSync(join(dir, 'secret-key'))).toBe(false);
  });

  test('on a file that is not a database', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'fleet.db'),
      'this is not an SQLite file, but it is long enough to have a header of 100 bytes.'.repeat(4),
    );
    expect(await refusedStart({ DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}` })).toMatch(
      /^fleet-api failed to start: cannot open the database .*fleet\.db: the database file is damaged \(not an SQLite database\): restore it from a backup$/,
    );
  });

  test('on a database whose pages fail PRAGMA quick_check', async () => {
    const { db } = await usedStore(false);
    // The root pages of the collection tables (never the schema's): the file opens, these trees do not.
    const peek = new Database(db, { readonly: true });
    const roots = peek
      .prepare("SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND sql LIKE '%doc TEXT%'")
      .pluck()
      .all() as number[];
    peek.close();
    expect(roots.length).toBeGreaterThan(5);
    const fd = openSync(db, 'r+');
    for (const page of roots) writeSync(fd, Buffer.alloc(16, 0xff), 0, 16, (page - 1) * 4096);
    closeSync(fd);
    expect(await refusedStart({ DATABASE_URL: `sqlite:${db}` })).toMatch(
      /^fleet-api failed to start: the database .*fleet\.db is damaged \(PRAGMA quick_check: .*page \d+.*\): restore it from a backup, or move it aside to start on an empty store$/,
    );
  });
});

describe('starts that still happen', () => {
  test('a missing key file with no sealed secret in the store: a new key is made (mode 0600)', async () => {
    const { dir, db } = await usedStore(false);
    unlinkSync(join(dir, 'secret-key'));
    const server = await startTestServer({ env: { DATABASE_URL: `sqlite:${db}` } });
    await server.close();
    const key = join(dir, 'secret-key');
    expect(readFileSync(key, 'utf8').trim().length).toBeGreaterThanOrEqual(32);
    expect(statSync(key).mode & 0o777).toBe(0o600);
  });
});
