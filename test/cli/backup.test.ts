/**
 * `fleet backup` and `fleet restore` on the embedded store: a backup taken while a server runs
 * and writes holds every write acknowledged before it began (and the uploads), passes the
 * integrity check, and restores into a new directory; restore and rotate-key refuse while a
 * server holds the store; a damaged or foreign copy never replaces a store; a MongoDB store gets
 * the tools' line.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { SERVER_LEASES } from '../../packages/duties/src';
import { checkSqliteCopy, openSqliteStore } from '../../engine/src/store/sqlite';
import { runCli } from '../../packages/server/src/cli/main';
import { ConfigError } from '../../packages/server/src/config';
import { STORE_SCHEMA } from '../../packages/server/src/schema';
import { checkMigrations, SCHEMA_COLLECTION } from '../../engine/src';
import { auth, startTestServer, type TestServer } from '../helpers';
import { until } from '../helpers/until';

const BIN = join(__dirname, '..', '..', 'packages', 'server', 'bin', 'fleet.cjs');
const run = promisify(execFile);

/** Runs the bin; resolves its exit code and output (a failure is an answer here, not a throw). */
async function fleet(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const SECRET_KEY = 'backup-test-secret-key-0123456789';
const LATEST = checkMigrations(STORE_SCHEMA.migrations);
const UPLOAD = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 251));

/** Writes alerts through the API one after another until stopped; keeps when each was acknowledged. */
class Writer {
  readonly acked: { id: string; at: number }[] = [];
  private stopped = false;
  private readonly done: Promise<void>;

  constructor(t: TestServer, tag: string) {
    this.done = (async () => {
      for (let n = 0; !this.stopped; n++) {
        const res = await t.request
          .post('/api/alerts')
          .set(auth('operator'))
          .send({ type: 'backup.test', payload: { status: `${tag}-${n}` } });
        if (res.status !== 201)
          throw new Error(`write ${tag}-${n}: ${res.status} ${JSON.stringify(res.body)}`);
        this.acked.push({ id: String((res.body as { _id: string })._id), at: Date.now() });
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }
}

/** Runs `fn` with `vars` set in the environment (the commands read it), then puts it back. */
async function withEnv<T>(vars: NodeJS.ProcessEnv, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

let t: TestServer;
let work: string;
const env = (): NodeJS.ProcessEnv => ({ DATABASE_URL: `sqlite:${t.dbPath}`, SECRET_KEY, LOG_LEVEL: 'warn' });

beforeAll(async () => {
  t = await startTestServer({ env: { SECRET_KEY } });
  work = mkdtempSync(join(tmpdir(), 'fleet-backup-'));
  // The server holds the store once its first duty lease is taken.
  await until(async () => (await t.store.leases.live(SERVER_LEASES)).length > 0, 'a duty lease');
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a backup under writes, restored into a new directory', () => {
  let copy: string;
  let before: string[];
  let during: number;
  let fileId: string;

  beforeAll(async () => {
    const upload = await t.request
      .post('/api/files')
      .set(auth('operator'))
      .field('name', 'firmware')
      .attach('data', UPLOAD, { filename: 'firmware.bin', contentType: 'application/octet-stream' });
    expect(upload.status).toBe(201);
    fileId = String((upload.body as { _id: string })._id);
    const writers = [new Writer(t, 'a'), new Writer(t, 'b')];
    const acked = (): number => writers.reduce((n, w) => n + w.acked.length, 0);
    await until(() => acked() >= 50, '50 acknowledged writes');
    copy = join(work, 'fleet-backup.db');
    const began = Date.now();
    const backup = await fleet(['backup', copy], env());
    const ended = Date.now();
    const writesBefore = acked();
    // Writes go on after the backup: the copy is of a store still being written.
    await until(() => acked() > writesBefore, 'a write after the backup');
    await Promise.all(writers.map((w) => w.stop()));
    expect(backup).toMatchObject({ code: 0, stderr: '' });
    expect(backup.stdout).toMatch(
      new RegExp(
        `^Backed up ${t.dbPath} into ${copy}: [\\d.]+ (KB|MB) in [\\d.]+ s \\(copy [\\d.]+ s, check [\\d.]+ s\\), integrity ok; the secret key \\(SECRET_KEY\\) is not in it: keep it apart\\n$`,
      ),
    );
    const all = writers.flatMap((w) => w.acked);
    before = all.filter((w) => w.at < began).map((w) => w.id);
    during = all.filter((w) => w.at >= began && w.at <= ended).length;
  }, 120_000);

  it('was taken while the server wrote', () => {
    expect(before.length).toBeGreaterThanOrEqual(50);
    expect(during).toBeGreaterThan(0);
  });

  it('is one file for its owner only, that passes the integrity check', () => {
    expect(readdirSync(work)).toEqual(['fleet-backup.db']);
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    expect(() => checkSqliteCopy(copy)).not.toThrow();
    const db = new Database(copy, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
      // The server's leases stay with the server: a store restored from the copy is held by nobody.
      expect(db.prepare('SELECT count(*) FROM leases').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('restore refuses while a server holds the store, in one line, and changes nothing', async () => {
    const res = await fleet(['restore', copy], env());
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /^fleet restore refused: a server holds the store \(lease "[a-z-]+" of [^)]+\); stop every server first \(a server that was killed lets go within \d+ s\)\n$/,
    );
    expect(readdirSync(t.dir).filter((f) => f.startsWith('replaced-') || f.includes('.restoring'))).toEqual(
      [],
    );
    expect((await t.request.get('/api/alerts?max_results=1').set(auth('viewer'))).status).toBe(200);
  }, 60_000);

  it('restores into a new directory with every write acknowledged before the backup and the uploads', async () => {
    const dir = join(work, 'restored');
    const restored = join(dir, 'fleet.db');
    const res = await fleet(['restore', copy], { DATABASE_URL: `sqlite:${restored}`, SECRET_KEY });
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout).toMatch(
      new RegExp(
        `^Restored ${copy} into ${restored} \\([\\d.]+ (KB|MB), integrity ok, schema ${LATEST}\\); there was no store to replace\\n$`,
      ),
    );
    expect(() => checkSqliteCopy(restored)).not.toThrow();
    const store = openSqliteStore({ path: restored });
    try {
      const found = await store.find('alerts', { _id: { $in: before } }, { projection: { _id: 1 } });
      expect(new Set(found.map((d) => d._id))).toEqual(new Set(before));
      const [file] = await store.find('files', { _id: fileId });
      const media = await store.media.open(String(file?.data));
      const chunks: Buffer[] = [];
      for await (const chunk of media?.stream ?? []) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(UPLOAD)).toBe(true);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('restoring over a store no server holds keeps the replaced one aside', async () => {
    const restored = join(work, 'restored', 'fleet.db');
    const res = await fleet(['restore', copy], { DATABASE_URL: `sqlite:${restored}`, SECRET_KEY });
    expect(res.code).toBe(0);
    const aside = /the replaced store is in (\S+)\n$/.exec(res.stdout)?.[1];
    expect(aside).toMatch(/\/restored\/replaced-\d{4}-\d\d-\d\dT[\d-]+Z$/);
    expect(readdirSync(aside ?? '')).toContain('fleet.db');
    expect(() => checkSqliteCopy(join(aside ?? '', 'fleet.db'))).not.toThrow();
  }, 60_000);
});

describe('copies that never replace a store', () => {
  const target = (): { dir: string; db: string } => {
    const dir = mkdtempSync(join(work, 'target-'));
    const db = join(dir, 'fleet.db');
    writeFileSync(db, 'the store in place');
    return { dir, db };
  };

  it.each([
    [
      'a file that is no database',
      (): Buffer => Buffer.from('not a database at all, '.repeat(200)),
      /is not a readable store/,
    ],
    [
      'a SQLite database of something else',
      (): Buffer => {
        const other = join(work, 'other.db');
        const db = new Database(other);
        db.exec('CREATE TABLE notes (text TEXT)');
        db.close();
        return readFileSync(other);
      },
      /is a SQLite database but not a Fleet API store/,
    ],
  ])(
    '%s',
    async (_what, content, message) => {
      const bad = join(work, `bad-${Date.now()}.db`);
      writeFileSync(bad, content());
      const { dir, db } = target();
      const res = await fleet(['restore', bad], { DATABASE_URL: `sqlite:${db}`, SECRET_KEY });
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(new RegExp(`^fleet restore: ${bad} ${message.source}.*\\n$`));
      expect(readFileSync(db, 'utf8')).toBe('the store in place');
      expect(readdirSync(dir)).toEqual(['fleet.db']);
    },
    60_000,
  );

  it('a damaged copy fails the integrity check', async () => {
    const good = join(work, 'good.db');
    const made = await fleet(['backup', good], env());
    expect(made.code).toBe(0);
    const bytes = readFileSync(good);
    // Zeroes over the middle pages: the b-trees that point into them no longer hold together.
    bytes.fill(0, 8192, Math.max(16_384, bytes.length - 8192));
    const damaged = join(work, 'damaged.db');
    writeFileSync(damaged, bytes);
    const { db } = target();
    const res = await fleet(['restore', damaged], { DATABASE_URL: `sqlite:${db}`, SECRET_KEY });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      new RegExp(`^fleet restore: ${damaged} (fails the integrity check|is not a readable store)`),
    );
    expect(readFileSync(db, 'utf8')).toBe('the store in place');
  }, 60_000);

  it.each([
    ['newer than this release knows: refused', 1, /^$/],
    ['older: restored, the next start migrates it', -1, /^Restored /],
  ])(
    'a copy at a schema %s',
    async (_what, delta, stdout) => {
      const copy = join(work, `schema-${delta}.db`);
      expect((await fleet(['backup', copy], env())).code).toBe(0);
      const store = openSqliteStore({ path: copy, readOffload: { workers: 0 } });
      await store.update(
        SCHEMA_COLLECTION,
        { _id: 'schema' },
        { $set: { version: LATEST + delta, release: '9.9.9' } },
      );
      await store.close();
      const { db } = target();
      const res = await fleet(['restore', copy], { DATABASE_URL: `sqlite:${db}`, SECRET_KEY });
      expect(res.stdout).toMatch(stdout);
      if (delta > 0) {
        expect(res.code).toBe(1);
        expect(res.stderr).toBe(
          `fleet restore: ${copy} is at schema ${LATEST + 1} (written by Fleet API 9.9.9), newer than Fleet API ` +
            `${STORE_SCHEMA.release} knows (schema ${LATEST}): restore it with 9.9.9 or later\n`,
        );
        expect(readFileSync(db, 'utf8')).toBe('the store in place');
      } else {
        expect(res.code).toBe(0);
        expect(res.stdout).toContain(
          `, schema ${LATEST - 1}: the next start migrates it to ${LATEST}); the replaced store is in `,
        );
      }
    },
    60_000,
  );

  it('a good copy replaces a store that no longer opens (what a restore is for)', async () => {
    const good = join(work, 'over-damaged.db');
    expect((await fleet(['backup', good], env())).code).toBe(0);
    const { dir, db } = target();
    const res = await fleet(['restore', good], { DATABASE_URL: `sqlite:${db}`, SECRET_KEY });
    expect(res).toMatchObject({ code: 0, stderr: '' });
    const aside = /the replaced store is in (\S+)\n$/.exec(res.stdout)?.[1] ?? '';
    expect(aside.startsWith(join(dir, 'replaced-'))).toBe(true);
    expect(readFileSync(join(aside, 'fleet.db'), 'utf8')).toBe('the store in place');
    expect(() => checkSqliteCopy(db)).not.toThrow();
  }, 60_000);

  it('backup never writes over a file', async () => {
    const there = join(work, 'there.db');
    writeFileSync(there, 'keep me');
    const res = await fleet(['backup', there], env());
    expect(res).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `fleet backup: ${there} exists: name a new file\n`,
    });
    expect(readFileSync(there, 'utf8')).toBe('keep me');
  }, 60_000);
});

describe('commands that protect the store', () => {
  it('rotate-key refuses while a server holds the store and makes no key', async () => {
    const res = await fleet(['rotate-key'], { ...env(), NEW_SECRET_KEY: 'the-next-secret-key-0123456789' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /^fleet rotate-key refused: a server holds the store \(lease "[a-z-]+" of [^)]+\); stop every server first/,
    );
    expect(res.stderr.split('\n')).toHaveLength(2);
    expect(existsSync(join(t.dir, 'secret-key.next'))).toBe(false);
  }, 60_000);

  it.each(['backup', 'restore'])('%s on a MongoDB store names the tools in one line', async (command) => {
    const url = 'mongodb://backup:secret@127.0.0.1:1/fleet?replicaSet=rs0';
    const tool = command === 'backup' ? 'mongodump' : 'mongorestore';
    const err = await withEnv({ DATABASE_URL: url }, () =>
      runCli([command, join(work, 'mongo.archive')]),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    expect(message).toMatch(
      new RegExp(
        `^fleet ${command}: the store is MongoDB: use ${tool} --uri .* --gzip --archive=<file> \\(docs/backup.md\\)$`,
      ),
    );
    expect(message).not.toContain('secret');
  });

  it.each(['backup', 'restore'])('%s needs exactly one file name', async (command) => {
    for (const args of [[], ['a.db', 'b.db'], ['--force']]) {
      await expect(withEnv(env(), () => runCli([command, ...args]))).rejects.toThrow(
        new RegExp(`^fleet ${command}: expected one file name\\nusage: fleet ${command} <file>`),
      );
    }
  });
});
