/**
 * The work budget of the embedded store (docs/limits.md): a read that no index serves is refused
 * once it would visit more rows than the budget, with a 400 naming `where`, `sort` or `page` and
 * the indexed fields; indexed reads, index-only counts and small collections answer as before.
 * The store-level part lowers the budget (500 rows in SQL, 100 in memory) to reach it with 1,000
 * rows; the HTTP part uses the real budget on 20,100 actions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BadRequest } from '../../engine/src/errors';
import type { CollectionSpec, Doc, Store } from '../../engine/src/store/port';
import { openSqliteStore } from '../../engine/src/store/sqlite';
import { auth, expectEveError, startTestServer, type TestServer } from '../helpers';

const ACTIONS: CollectionSpec = {
  name: 'actions',
  scalarPaths: { jid: 'string', action: 'string', host: 'string', user: 'string', _created: 'datetime' },
  datetimePaths: ['_created'],
  indexes: [
    {
      fields: [
        ['host', 1],
        ['_created', -1],
      ],
    },
    { fields: [['_created', -1]] },
    { fields: [['jid', 1]] },
  ],
};
const SMALL: CollectionSpec = { ...ACTIONS, name: 'small', indexes: [] };
const T0 = Date.UTC(2026, 0, 1);

function action(i: number): Doc {
  const jid = String(20260101000000000000n + BigInt(i));
  return {
    _id: `${jid}h${i % 100}`,
    jid,
    action: i % 2 === 0 ? 'cmd.run' : 'test.ping',
    host: `h${i % 100}`,
    user: 'admin',
    args: [{ x: i }],
    _created: new Date(T0 + i * 1000),
  };
}

describe('the row budget of the embedded store', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fleet-budget-'));
    store = openSqliteStore({ path: join(dir, 'fleet.db'), rowBudget: { sqlRows: 500, memoryRows: 100 } });
    await store.ensureCollection(ACTIONS);
    await store.ensureCollection(SMALL);
    await store.insert(
      'actions',
      Array.from({ length: 1000 }, (_, i) => action(i)),
    );
    await store.insert(
      'small',
      Array.from({ length: 90 }, (_, i) => action(i)),
    );
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const indexed = '(_id, host, _created, jid)';
  const newest = { sort: [['_created', -1]] as [string, -1][], limit: 25 };

  test.each([
    [
      'a filter on an unindexed field',
      { user: 'nobody' },
      { limit: 1 },
      `where: actions is too large to search by this filter without an index; include a condition on an indexed field ${indexed} that narrows it`,
    ],
    [
      'a pattern on an unindexed field',
      { action: { $regex: 'nothing$' } },
      newest,
      'where: actions is too large to search',
    ],
    [
      'a filter only mingo can run',
      { 'args.x': { $gte: 5000 } },
      newest,
      'where: actions is too large to search',
    ],
    [
      'a sort on an unindexed field',
      {},
      { sort: [['user', 1]] as [string, 1][], limit: 1 },
      `sort: actions is too large to sort by "user" without an index; sort by an indexed field ${indexed}, or filter on one first`,
    ],
    [
      'a sort on an array field (in memory)',
      {},
      { sort: [['args', 1]] as [string, 1][], limit: 1 },
      'sort: actions is too large to sort by "args" without an index',
    ],
    [
      'a deep page of an unindexed filter',
      { user: 'admin' },
      { ...newest, skip: 600 },
      `page: actions is too large to skip that many items; filter on an indexed field ${indexed} to narrow the list instead`,
    ],
  ])('find: %s is refused', async (_name, filter, options, message) => {
    const rejection = store.find('actions', filter, options);
    await expect(rejection).rejects.toBeInstanceOf(BadRequest);
    await expect(rejection).rejects.toThrow(message);
  });

  test.each([
    ['an unindexed filter', { user: 'nobody' }],
    ['a pushed-down pattern', { action: { $regex: 'ping$' } }],
    ['a filter only mingo can run', { 'args.x': { $gte: 5000 } }],
  ])('count: %s is refused', async (_name, filter) => {
    await expect(store.count('actions', filter)).rejects.toThrow(
      /^where: actions is too large to search by this filter without an index/,
    );
  });

  test('a delete by an unindexed filter is refused before it deletes', async () => {
    await expect(store.delete('actions', { 'args.x': { $gte: 0 } })).rejects.toThrow(/^where: /);
    expect(await store.count('actions', {})).toBe(1000);
  });

  test('updates select what they change without the budget (no client shapes them)', async () => {
    await expect(
      store.update('small', { user: 'admin' }, { $set: { state: 'seen' } }, { multi: true }),
    ).resolves.toMatchObject({ matched: 90 });
    await expect(
      store.update(
        'actions',
        { user: 'admin', 'args.x': { $gte: 999 } },
        { $set: { state: 'seen' } },
        { multi: true },
      ),
    ).resolves.toMatchObject({
      matched: 1,
    });
  });

  test('indexed reads answer as before', async () => {
    const page = await store.find('actions', { host: 'h7' }, newest);
    expect(page.map((d) => d._id)).toEqual(Array.from({ length: 10 }, (_, k) => action(907 - k * 100)._id));
    expect((await store.find('actions', {}, newest)).map((d) => d._id)).toEqual(
      Array.from({ length: 25 }, (_, k) => action(999 - k)._id),
    );
    expect(await store.find('actions', { host: 'h7', user: 'nobody' }, newest)).toEqual([]);
    // Deep pages an index orders skip cheaply, past the budget, as before.
    expect((await store.find('actions', {}, { ...newest, skip: 990 })).map((d) => d._id)).toEqual(
      Array.from({ length: 10 }, (_, k) => action(9 - k)._id),
    );
    expect(
      (
        await store.find(
          'actions',
          { _created: { $lt: new Date(T0 + 1000 * 1000) } },
          { ...newest, skip: 980 },
        )
      ).map((d) => d._id),
    ).toHaveLength(20);
    expect(
      (await store.find('actions', { host: 'h7' }, { sort: [['args', 1]], limit: 2 })).map((d) => d._id),
    ).toEqual([action(7)._id, action(107)._id]);
    expect(
      (await store.find('actions', { _id: { $regex: '^2026010100000000099' } }, {})).map((d) => d._id),
    ).toEqual(Array.from({ length: 10 }, (_, k) => action(990 + k)._id));
  });

  test('counts an index answers alone are not limited by the budget', async () => {
    expect(await store.count('actions', {})).toBe(1000);
    expect(await store.count('actions', { _created: { $gte: new Date(T0) } })).toBe(1000);
    expect(await store.count('actions', { host: 'h3' })).toBe(10);
  });

  test('a collection smaller than the budget keeps every sort and filter', async () => {
    expect(await store.count('small', { user: 'admin', 'args.x': { $lt: 45 } })).toBe(45);
    expect(
      (await store.find('small', { action: { $regex: 'ping$' } }, { sort: [['args', -1]], limit: 1 })).map(
        (d) => d._id,
      ),
    ).toEqual([action(89)._id]);
  });
});

describe('the budget over HTTP, at its real size', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await s.store.insert(
      'actions',
      Array.from({ length: 20_100 }, (_, i) => ({
        ...action(i),
        _updated: new Date(T0 + i * 1000),
        _etag: `e${i}`,
      })),
    );
  });
  afterAll(async () => {
    await s.close();
  });

  test('a viewer sorting 20,100 actions by args is a 400 naming sort and the indexed fields', async () => {
    const body = expectEveError(
      await s.request.get('/api/actions').query({ sort: 'args', max_results: '1' }).set(auth('viewer')),
      400,
    );
    expect(body._error.message).toMatch(
      /^sort: actions is too large to sort by "args" without an index; sort by an indexed field \(_id, .*host.*_created.*jid.*\)/,
    );
  });

  test('a filter only the in-memory matcher can run over them is a 400 naming where', async () => {
    const where = JSON.stringify({ 'args.x': { $gte: 1_000_000 } });
    const body = expectEveError(
      await s.request.get('/api/actions').query({ where, max_results: '1' }).set(auth('viewer')),
      400,
    );
    expect(body._error.message).toMatch(
      /^where: actions is too large to search by this filter without an index/,
    );
  });

  test('the same sort within one host, and the newest page, answer', async () => {
    const host = await s.request
      .get('/api/actions')
      .query({ where: JSON.stringify({ host: 'h5' }), sort: 'args', max_results: '2' })
      .set(auth('viewer'));
    expect(host.status).toBe(200);
    expect(host.body._meta.total).toBe(201);
    const newest = await s.request.get('/api/actions').query({ max_results: '1' }).set(auth('viewer'));
    expect(newest.status).toBe(200);
    expect(newest.body._items[0]._id).toBe(action(20_099)._id);
  });
});
