/**
 * Upgrades from every earlier release on MongoDB, whenever `MONGO_URL` names one: each fixture's
 * documents and files are copied, as the release stored them, into a throwaway database
 * (`fleet_upgrade_<random>`, dropped afterwards); this release then starts on it, migrates it
 * (one line per migration), answers what the release answered, and takes a write. Without
 * `MONGO_URL` the suite is skipped with one printed line saying so.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry, readSchemaRecord, type Doc, type Store } from '../../engine/src';
import { openMongoStore, type MongoStore } from '../../engine/src/store/mongo';
import { openSqliteStore } from '../../engine/src/store/sqlite';
import { allMigrations, allResources, allRouteGroups } from '../../resources';
import { releaseFixtures, restoreFixture, type ReleaseFixture } from './fixtures';
import { expectSameAnswers, migrationLines, NEWEST, patchFirstHost, serve } from './support';

const MONGO_URL = process.env.MONGO_URL;

/** The URL with its database path replaced (hosts, credentials and options kept). */
function withDatabase(url: string, database: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/.exec(url);
  if (match === null) throw new Error('MONGO_URL must be a mongodb:// or mongodb+srv:// URL');
  return `${match[1] ?? ''}/${database}${match[2] ?? ''}`;
}

/** Every document of `name`, a page at a time by `_id` (as the release stored it: dates revived by the spec). */
async function allDocs(store: Store, name: string): Promise<Doc[]> {
  const docs: Doc[] = [];
  for (let after = ''; ;) {
    const page = await store.find(name, { _id: { $gt: after } }, { sort: [['_id', 1]], limit: 500 });
    docs.push(...page);
    const last = page[page.length - 1];
    if (last === undefined || page.length < 500) return docs;
    after = last._id;
  }
}

/** Copies the fixture's documents and files into `target`; media ids are the target's own. */
async function copyInto(fixture: ReleaseFixture, target: MongoStore, dir: string): Promise<void> {
  const path = join(dir, 'source.db');
  restoreFixture(fixture, path);
  const source = openSqliteStore({ path, readOffload: { workers: 0 } });
  try {
    for (const res of createRegistry(allResources, allRouteGroups).resources.values()) {
      await source.ensureCollection(res.collection);
      await target.ensureCollection(res.collection);
      const docs = await allDocs(source, res.name);
      for (const doc of docs)
        for (const field of res.mediaFields) {
          const id = doc[field];
          const found = typeof id === 'string' ? await source.media.open(id) : null;
          if (found === null) continue;
          const copied = await target.media.put(found.stream, {
            filename: found.info.filename,
            contentType: found.info.contentType,
          });
          doc[field] = copied.id;
        }
      if (docs.length > 0) await target.insert(res.name, docs);
    }
  } finally {
    await source.close();
  }
}

if (MONGO_URL === undefined || MONGO_URL === '') {
  process.stdout.write('MongoDB upgrade suite skipped: MONGO_URL is not set\n');
  describe.skip('upgrades on MongoDB (skipped: MONGO_URL is not set)', () => {
    test('migrates each release fixture copied into the MongoDB named by MONGO_URL', () => undefined);
  });
} else {
  describe.each(releaseFixtures().map((f) => [f.name, f] as const))(
    'a MongoDB store written by %s',
    (_n, fixture) => {
      const url = withDatabase(MONGO_URL, `fleet_upgrade_${randomBytes(6).toString('hex')}`);
      let dir: string;
      let mongo: MongoStore;
      beforeAll(async () => {
        dir = mkdtempSync(join(tmpdir(), 'fleet-upgrade-mongo-'));
        mongo = await openMongoStore({ url, serverSelectionTimeoutMS: 10_000 });
        await copyInto(fixture, mongo, dir);
      });
      afterAll(async () => {
        await mongo.dropDatabase().catch(() => undefined);
        await mongo.close();
        rmSync(dir, { recursive: true, force: true });
      });

      it('is migrated at start, answers as its release did, and takes a write', async () => {
        const { server, lines } = await serve(fixture, url, dir);
        try {
          expect(migrationLines(lines()).map((l) => l.split(':')[0])).toEqual(
            allMigrations.map((m) => m.name),
          );
          await expectSameAnswers(server, fixture);
          expect(
            await patchFirstHost(server, fixture.token, { identification_number: 'after-upgrade' }),
          ).toBe(200);
        } finally {
          await server.close();
        }
        expect(await readSchemaRecord(mongo)).toMatchObject({ version: NEWEST, since: { version: 0 } });
      });
    },
  );
}
