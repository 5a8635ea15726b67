/**
 * Live, when `MONGO_URL` is set (any topology): what the server refuses reaches clients in the
 * error shape, naming the parameter, and `$regex` answers as on the embedded store. Projection
 * path collisions (4.4+) are a 400 naming `projection` (ours before the call, and the server's own
 * code translated when one gets through); a document over 16 MB is a 413 and nothing is stored;
 * patterns match the same values as on SQLite (`$`, `\s`, `\v` included), and a backtracking
 * shape is a 400 naming `where`. Without a server: test/mongo/errors.test.ts, patterns.test.ts.
 */
import mongoose from 'mongoose';
import { openSqliteStore } from '../../engine/src/store/sqlite';
import { translateMongoError, type MongoStore } from '../../engine/src/store/mongo';
import type { Doc, Filter, Store } from '../../engine/src/store/port';
import { liveSuite, openThrowaway } from './mongo-live';

const SEVENTEEN_MB = 17 * 1024 * 1024;

/** Values where PCRE's and RE2's readings of `$`, `\s` and `\v` differ. */
const NAMES: Doc[] = [
  { _id: 'n1', name: 'abc' },
  { _id: 'n2', name: 'abc\n' },
  { _id: 'n3', name: 'a\u000bb' },
  { _id: 'n4', name: 'a b' },
  { _id: 'n5', name: 'a\nb' },
  { _id: 'n6', name: 'web01.example.net' },
];

const PATTERNS: readonly [string, Filter][] = [
  ['$ is the end of the value, not before a final line break', { name: { $regex: 'c$' } }],
  ['\\s is [\\t\\n\\f\\r ], without the vertical tab', { name: { $regex: '^a\\sb$' } }],
  ['\\S', { name: { $regex: '^a\\Sb$' } }],
  ['\\v is the vertical tab only', { name: { $regex: '\\v' } }],
  ['m: $ at each line end', { name: { $regex: 'c$', $options: 'm' } }],
  ['three open-ended repetitions (the most accepted)', { name: { $regex: '^w.*0.*\\..*t$' } }],
  ['a RegExp value', { name: /^A/i }],
];

liveSuite('server limits and patterns', 'any MongoDB 4.4+; creates and drops one database', () => {
  let store: Store;
  let mongo: MongoStore;
  let url: string;

  beforeEach(async () => {
    ({ store, mongo, url } = await openThrowaway());
  });
  afterEach(async () => {
    await store.close();
  });

  test("overlapping projected paths are a 400 naming projection, ours and the server's", async () => {
    await store.insert('hosts', [{ _id: 'h1', os: { family: 'debian', version: '12' } }]);
    await expect(store.find('hosts', {}, { projection: { os: 1, 'os.family': 1 } })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^projection: "os" and "os.family" overlap/),
    });
    // The same projection sent past the adapter: the server refuses it (4.4+), we name the parameter.
    const client = new mongoose.mongo.MongoClient(url);
    try {
      const raw = client
        .db()
        .collection('hosts')
        .find({}, { projection: { os: 1, 'os.family': 1 } })
        .toArray();
      const error: unknown = await raw.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(translateMongoError(error)).toMatchObject({
        status: 400,
        message: expect.stringMatching(/^projection: /),
      });
    } finally {
      await client.close();
    }
  });

  test('a 17 MB document is a 413, and nothing is stored or changed', async () => {
    const big = 'x'.repeat(SEVENTEEN_MB);
    await expect(store.insert('blobs', [{ _id: 'b1', blob: big }])).rejects.toMatchObject({ status: 413 });
    expect(await store.count('blobs', {})).toBe(0);
    await store.insert('blobs', [{ _id: 'b2', blob: 'small', _etag: 'e1' }]);
    await expect(
      store.write([
        { op: 'replace', collection: 'blobs', doc: { _id: 'b2', blob: big, _etag: 'e2' }, ifEtag: 'e1' },
      ]),
    ).rejects.toMatchObject({ status: 413 });
    await expect(store.update('blobs', { _id: 'b2' }, { $set: { blob: big } })).rejects.toMatchObject({
      status: 413,
    });
    expect(await store.find('blobs', {})).toEqual([{ _id: 'b2', blob: 'small', _etag: 'e1' }]);
  });

  describe('patterns answer as on the embedded store', () => {
    test.each(PATTERNS)('%s', async (_label, filter) => {
      const sqlite = openSqliteStore({ path: ':memory:' });
      try {
        await store.insert('names', NAMES);
        await sqlite.insert('names', NAMES);
        const ids = async (s: Store) =>
          (await s.find('names', filter, { sort: [['_id', 1]] })).map((d) => d._id);
        expect(await ids(store)).toEqual(await ids(sqlite));
      } finally {
        await sqlite.close();
      }
    });

    test('a pattern that could backtrack without bound is a 400 naming where, on MongoDB only', async () => {
      await store.insert('names', NAMES);
      await expect(store.find('names', { name: { $regex: '.*.*.*.*.*.*.*e$' } })).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/^where: the pattern on "name" has 7 open-ended repetitions/),
      });
    });
  });

  test('what the server runs is the rewritten pattern (checked with the driver, past the adapter)', async () => {
    await mongo.insert('names', NAMES);
    const client = new mongoose.mongo.MongoClient(url);
    try {
      const raw = await client
        .db()
        .collection('names')
        .find({ name: { $regex: 'c$' } })
        .toArray();
      // PCRE's own `$` also takes "abc\n": the reason the adapter sends `\z`.
      expect(raw.map((d) => d._id).sort()).toEqual(['n1', 'n2']);
    } finally {
      await client.close();
    }
  });
});
