/**
 * Live, when `MONGO_URL` is set (any topology): `fleet import` from a running database of the
 * original application into a MongoDB store. The original's documents (test/mongo/helpers/
 * eve-fixture.ts: ObjectId ids and references, dates, Eve's `_etag`, a soft-deleted host, a GridFS
 * file in bucket `fs`) are inserted as they are into one throwaway database, imported over the
 * driver into another, and read back through the local API; a second run adds nothing; a
 * `mongodump` directory of the same data imports the same way. Without a server:
 * test/mongo/eve-import.test.ts (into SQLite).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { systemContext } from '../../engine/src/engine';
import { withEngine } from '../../packages/server/src/cli/engine';
import { importCommand } from '../../packages/server/src/cli/import';
import { eveCollections, FILE_BYTES, IDS, writeDump } from '../mongo/helpers/eve-fixture';
import { liveSuite, MONGO_URL, throwawayName, withDatabase } from './mongo-live';

/** Drops the databases a test made. */
async function drop(urls: readonly string[]): Promise<void> {
  for (const url of urls) {
    const client = new mongoose.mongo.MongoClient(url);
    await client
      .db()
      .dropDatabase()
      .catch(() => undefined);
    await client.close();
  }
}

/** The CLI's environment for a MongoDB store at `url`. */
const envFor = (url: string): NodeJS.ProcessEnv => ({
  DATABASE_URL: url,
  LOG_LEVEL: 'silent',
  SECRET_KEY: 'k'.repeat(64),
});

/** The hosts, the file's bytes and the groups, read back through the local API. */
async function readBack(url: string) {
  return withEngine(envFor(url), async ({ engine }) => {
    const ctx = systemContext(engine.runtime);
    const hosts = await engine.runtime.resources.get('hosts').find({ showDeleted: true }, ctx);
    const visible = (await engine.runtime.resources.get('hosts').find({}, ctx)).map((h) => h._id);
    const groups = await engine.runtime.resources.get('groups').find({}, ctx);
    const [file] = await engine.runtime.resources.get('files').find({}, ctx);
    const media = typeof file?.data === 'string' ? await engine.runtime.media.open(file.data) : null;
    const chunks: Buffer[] = [];
    if (media) for await (const chunk of media.stream) chunks.push(chunk as Buffer);
    return { hosts, visible, groups, bytes: Buffer.concat(chunks), type: media?.info.contentType };
  });
}

liveSuite('fleet import into MongoDB', 'any MongoDB 4.4+; creates and drops two databases', () => {
  const made: string[] = [];
  afterAll(async () => {
    await drop(made);
  });

  test('from the live original database: ids, references, dates, the file, the hidden host; twice is once', async () => {
    const source = withDatabase(MONGO_URL, throwawayName());
    const target = withDatabase(MONGO_URL, throwawayName());
    made.push(source, target);
    const client = new mongoose.mongo.MongoClient(source);
    try {
      for (const [name, docs] of Object.entries(eveCollections()))
        await client.db().collection(name).insertMany(docs);
    } finally {
      await client.close();
    }

    const first = await importCommand(['--from', source], envFor(target));
    expect(first.stdout).toMatch(/^ {2}hosts +2 +2 +0 +0 +1 +0 +0$/m);
    const back = await readBack(target);
    expect(back.visible).toEqual(['web1.example.net']);
    expect(back.hosts.find((h) => h._id === 'web1.example.net')).toMatchObject({
      groups: [IDS.childGroup],
      vpn_organization: IDS.organization,
      _created: new Date('2021-01-10T08:00:00Z'),
    });
    expect(back.groups.map((g) => g._id).sort()).toEqual([IDS.parentGroup, IDS.childGroup]);
    expect(back.bytes.equals(FILE_BYTES)).toBe(true);
    expect(back.type).toBe('text/csv');

    const again = await importCommand(['--from', source], envFor(target));
    expect(again.stdout).toMatch(/^ {2}hosts +2 +0 +2 +0 +0 +0 +0$/m);
    expect((await readBack(target)).hosts).toHaveLength(2);
  }, 120_000);

  test('from a mongodump directory into MongoDB', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleet-import-live-'));
    const target = withDatabase(MONGO_URL, throwawayName());
    made.push(target);
    try {
      writeDump(join(dir, 'eve'));
      const out = await importCommand(['--from', join(dir, 'eve')], envFor(target));
      expect(out.stdout).toMatch(/^ {2}files +1 +1 +0 +0 +0 +1 +0$/m);
      expect((await readBack(target)).bytes.equals(FILE_BYTES)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
