/**
 * GET /api/hosts/statistics/*: aggregations over host-list snapshots written through the store,
 * with `range[]`, `where` on the summary fields and `interval`.
 */
import type { Doc } from '../../engine/src';
import { auth, expectEveError, startTestServer, type TestServer } from '../helpers';

let s: TestServer;
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

function summary(
  id: string,
  status: 'up' | 'down',
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    _id: id,
    status,
    version: '3006.9',
    nodegroups: id.startsWith('web') ? ['web'] : ['db'],
    _created: at(-600),
    _updated: at(-1),
    _soft_deleted: false,
    ...extra,
  };
}

function snapshot(index: number, minutes: number, hosts: Record<string, unknown>[]): Doc {
  const t = at(minutes);
  return { _id: `snap-${index}`, index, timestamp: t, hosts, _created: t, _updated: t, _etag: `e${index}` };
}

beforeAll(async () => {
  s = await startTestServer();
  await s.store.insert('hosts_statistic', [
    snapshot(0, 0, [
      summary('web-1', 'up'),
      summary('web-2', 'down'),
      summary('db-1', 'up', { last_stateapply: at(1) }),
    ]),
    snapshot(1, 5, [
      summary('web-1', 'down'),
      summary('web-2', 'down'),
      summary('db-1', 'up'),
      summary('web-3', 'up', { _created: at(4), last_distupgrade: at(3) }),
    ]),
    snapshot(2, 10, [
      summary('web-1', 'up'),
      summary('web-2', 'down'),
      summary('db-1', 'down'),
      summary('gone', 'up', { _soft_deleted: true }),
    ]),
    snapshot(3, 60 * 24 * 3, [summary('later', 'up')]),
  ]);
});
afterAll(() => s.close());

const range = `range[]=${encodeURIComponent(at(-1).toUTCString())}&range[]=${encodeURIComponent(at(30).toISOString())}`;
const get = (path: string) => s.request.get(`/api/hosts/statistics/${path}`).set(auth('viewer'));

test('online: one point per snapshot in range, up and down counted, soft-deleted hosts left out', async () => {
  const res = await get(`online?${range}`);
  expect(res.status).toBe(200);
  expect(res.body).toEqual([
    { timestamp: at(0).toUTCString(), _id: null, hostnames: { up: 2, down: 1 } },
    { timestamp: at(5).toUTCString(), _id: null, hostnames: { up: 2, down: 2 } },
    { timestamp: at(10).toUTCString(), _id: null, hostnames: { up: 1, down: 2 } },
  ]);
});

test('online with interval keeps points at least that many seconds apart; where filters the summaries', async () => {
  const spaced = await get(`online?${range}&interval=400`);
  expect((spaced.body as { timestamp: string }[]).map((p) => p.timestamp)).toEqual([
    at(0).toUTCString(),
    at(10).toUTCString(),
  ]);
  const web = await get(`online?${range}&where=${encodeURIComponent('{"nodegroups":"web"}')}`);
  expect((web.body as { hostnames: { up: number; down: number } }[]).map((p) => p.hostnames)).toEqual([
    { up: 1, down: 1 },
    { up: 1, down: 2 },
    { up: 1, down: 1 },
  ]);
});

test('unique_online, unique_updated, unique_dist_upgraded and new_hosts', async () => {
  expect((await get(`unique_online?${range}`)).body).toEqual([
    { hostnames: { up: ['db-1', 'web-1', 'web-3'], all: ['db-1', 'web-1', 'web-2', 'web-3'] } },
  ]);
  expect((await get(`unique_updated?${range}`)).body).toEqual([
    { hostnames: { updated: ['db-1'], all: ['db-1', 'web-1', 'web-2', 'web-3'] } },
  ]);
  expect((await get(`unique_dist_upgraded?${range}`)).body).toEqual([
    { hostnames: { distUpgraded: ['web-3'], all: ['db-1', 'web-1', 'web-2', 'web-3'] } },
  ]);
  expect((await get(`new_hosts?${range}`)).body).toEqual([{ hostnames: { new: ['web-3'] } }]);
});

test('bad input: unknown statistic 404, bad range, bad where, bad interval 400; a token is needed', async () => {
  expectEveError(await get('nonsense'), 404);
  expectEveError(await get('online?range[]=yesterday&range[]=today'), 400);
  expectEveError(
    await get(
      `online?range[]=${encodeURIComponent(at(30).toISOString())}&range[]=${encodeURIComponent(at(0).toISOString())}`,
    ),
    400,
  );
  expectEveError(await get(`online?where=${encodeURIComponent('{"secret_field":1}')}`), 400);
  expectEveError(await get(`online?where=${encodeURIComponent('{"$where":"1"}')}`), 400);
  expectEveError(await get('online?interval=soon'), 400);
  expectEveError(await s.request.get('/api/hosts/statistics/online'), 401);
});
