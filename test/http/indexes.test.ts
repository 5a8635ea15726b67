/**
 * The list queries the API builds are served by indexes on the embedded store: the soft-delete
 * scope of hosts is an index equality, so a filtered, sorted page and its count read no document.
 */
import { scoped } from '../../engine/src/ops/scope';
import type { SqliteStore } from '../../engine/src/store/sqlite';
import { auth, startTestServer, type TestServer } from '../helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

/** The plan of the query `GET /api/<name>` runs for `filter` (scope included) and `sort`. */
async function plan(
  name: string,
  filter: Record<string, unknown>,
  sort: [string, 1 | -1][],
): Promise<string> {
  return (s.store as SqliteStore).explain(name, scoped(s.engine.registry.get(name), filter), {
    sort,
    limit: 25,
  });
}

describe('index use of the API list queries', () => {
  test.each([
    ['hosts by status, newest first', 'hosts', { status: 'up' }, [['_updated', -1]]],
    ['hosts by status, by id', 'hosts', { status: 'up' }, [['_id', 1]]],
    ['every host by id', 'hosts', {}, [['_id', 1]]],
    ["one host's actions, newest first", 'actions', { host: 'web-01' }, [['_created', -1]]],
    ['unread alerts, newest first', 'alerts', { read: false }, [['_created', -1]]],
  ] as const)(
    '%s: pushed down to SQL, searched by an index, no sort pass',
    async (_label, name, filter, sort) => {
      const text = await plan(
        name,
        filter,
        sort.map(([f, d]) => [f, d]),
      );
      expect(text).toMatch(/^mode: sql/);
      expect(text).toMatch(/SEARCH .* USING (COVERING )?INDEX/);
      expect(text).not.toMatch(/SCAN c_|USE TEMP B-TREE/);
      // The soft-delete scope is one of the index's equalities, not a test on every row read.
      const equalities = (text.match(/=\?/g) ?? []).length;
      expect(equalities).toBe(Object.keys(filter).length + (name === 'hosts' ? 1 : 0));
      if (name === 'hosts') expect(text).toMatch(/INDEX ix_hosts__soft_deleted/);
    },
  );
});

describe('the soft-delete flag of items written without it', () => {
  test('is backfilled as false at start, so the scoped reads still show them', async () => {
    const now = new Date();
    await s.store.insert('hosts', [
      { _id: 'legacy-01.fleet.test', status: 'up', _created: now, _updated: now, _etag: 'e1' },
    ]);
    await s.engine.ensureCollections();
    const res = await s.request.get('/api/hosts?where={"_id":"legacy-01.fleet.test"}').set(auth('viewer'));
    expect(res.status).toBe(200);
    expect((res.body as { _items: { _id: string; _soft_deleted: boolean }[] })._items).toEqual([
      expect.objectContaining({ _id: 'legacy-01.fleet.test', _soft_deleted: false }),
    ]);
  });
});
