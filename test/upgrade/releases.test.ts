/**
 * Upgrades from every earlier release: a store each release wrote (test/upgrade/fixtures, made by
 * that release's own code) is opened by this one. The pending migrations run at start, one log
 * line each; the store records the newest schema; every read answers what the release answered
 * (the statistics to the number); writes work and survive a restart, which migrates nothing
 * more. A store at a newer schema than this release knows is refused in one line, untouched.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  readSchemaRecord,
  SCHEMA_COLLECTION,
  SchemaTooNew,
  type SchemaRecord,
} from '../../engine/src/migrations';
import { openSqliteStore } from '../../engine/src/store/sqlite';
import { allMigrations } from '../../resources';
import { version as VERSION } from '../../package.json';
import { releaseFixtures, restoreFixture } from './fixtures';
import {
  dirOf,
  expectSameAnswers,
  get,
  migrationLines,
  NEWEST,
  patchFirstHost,
  serve,
  wholeSnapshots,
} from './support';

const BIN = join(__dirname, '..', '..', 'packages', 'server', 'bin', 'fleet.cjs');

async function storedRecord(dbPath: string): Promise<SchemaRecord | undefined> {
  const store = openSqliteStore({ path: dbPath, readOffload: { workers: 0 } });
  try {
    return await readSchemaRecord(store);
  } finally {
    await store.close();
  }
}

describe.each(releaseFixtures().map((f) => [f.name, f] as const))(
  'a store written by %s',
  (_name, fixture) => {
    let dbPath: string;
    const url = () => `sqlite:${dbPath}`;
    beforeAll(() => {
      dbPath = join(mkdtempSync(join(tmpdir(), 'fleet-upgrade-')), 'fleet.db');
      restoreFixture(fixture, dbPath);
    });
    afterAll(() => rmSync(dirOf(dbPath), { recursive: true, force: true }));

    it('is migrated at start (a line per migration), answers as its release did, and takes writes', async () => {
      const whole = wholeSnapshots(dbPath);
      const { server, lines } = await serve(fixture, url(), dirOf(dbPath));
      try {
        // Every migration ran once, in order, each with its one line; whole snapshots were converted.
        const done = migrationLines(lines());
        expect(done.map((l) => l.split(':')[0])).toEqual(allMigrations.map((m) => m.name));
        expect(done[0]).toMatch(
          whole > 0 ? `converted ${whole} whole host-list snapshot(s)` : 'no whole snapshot to convert',
        );
        expect(wholeSnapshots(dbPath)).toBe(0);
        await expectSameAnswers(server, fixture);
        expect(await patchFirstHost(server, fixture.token, { identification_number: 'after-upgrade' })).toBe(
          200,
        );
      } finally {
        await server.close();
      }
      const record = await storedRecord(dbPath);
      expect(record).toMatchObject({ version: NEWEST, release: VERSION, since: { version: 0 } });
      expect(record?.migrations.map((m) => [m.version, m.name, m.release])).toEqual(
        allMigrations.map((m) => [m.version, m.name, VERSION]),
      );
    });

    it('starts again on the migrated store with no migration, its writes kept', async () => {
      const { server, lines } = await serve(fixture, url(), dirOf(dbPath));
      try {
        expect(migrationLines(lines())).toEqual([]);
        const hosts = (await get(server, fixture.token, '/api/hosts?sort=_id&max_results=1')) as {
          _items: { identification_number: string }[];
        };
        expect(hosts._items[0]?.identification_number).toBe('after-upgrade');
      } finally {
        await server.close();
      }
    });
  },
);

describe('a store at a newer schema than this release knows', () => {
  const keys = { secretKey: 'newer-schema-secret-key-0123456789', token: 'newer-schema-token-0123456789' };
  let dbPath: string;
  beforeAll(async () => {
    dbPath = join(mkdtempSync(join(tmpdir(), 'fleet-newer-')), 'fleet.db');
    const { server } = await serve(keys, `sqlite:${dbPath}`, dirOf(dbPath));
    await server.close();
    // As a later release would leave it: a schema past this release's newest.
    const store = openSqliteStore({ path: dbPath, readOffload: { workers: 0 } });
    await store.update(
      SCHEMA_COLLECTION,
      { _id: 'schema' },
      { $set: { version: NEWEST + 1, release: '99.0.0' } },
    );
    await store.close();
  });
  afterAll(() => rmSync(dirOf(dbPath), { recursive: true, force: true }));

  it('is refused, naming both schemas and releases, and the record is left as it was', async () => {
    const refused = serve(keys, `sqlite:${dbPath}`, dirOf(dbPath));
    await expect(refused).rejects.toThrow(SchemaTooNew);
    await expect(refused).rejects.toThrow(
      `This store is at schema ${NEWEST + 1} (written by Fleet API 99.0.0), newer than Fleet API ${VERSION} knows (schema ${NEWEST})`,
    );
    expect(await storedRecord(dbPath)).toMatchObject({ version: NEWEST + 1, release: '99.0.0' });
  });

  it('stops `fleet serve` with one line on stderr and status 1', async () => {
    const run = promisify(execFile);
    const env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: `sqlite:${dbPath}`,
      SECRET_KEY: keys.secretKey,
      API_TOKENS: `t=${keys.token}:admin`,
      PORT: '0',
    };
    const failed = await run(process.execPath, [BIN, 'serve'], { env }).then(
      () => undefined,
      (err: { code?: number; stderr?: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(
      /^fleet-api failed to start: This store is at schema \d+ \(written by Fleet API 99\.0\.0\)[^\n]*\n$/,
    );
  });
});
