/**
 * `range` as clients send it: the spec's `range[]` twice, `range[0]` and `range[1]` (what qs and
 * most query-string libraries send for an array; the server's parser, Express 'simple', passes
 * them as two keys), `range` twice, or one `range` with both bounds separated by a comma. Each
 * form selects the same snapshots; one bound alone is a 400.
 */
import { auth, expectEveError, startTestServer, type TestServer } from '../helpers';

let s: TestServer;
const T0 = Date.UTC(2026, 6, 1, 12);
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const host = (id: string, status: string) => ({
  _id: id,
  status,
  version: '3006.9',
  nodegroups: [],
  _created: at(-600),
  _updated: at(-1),
  _soft_deleted: false,
});

beforeAll(async () => {
  s = await startTestServer();
  await s.store.insert(
    'hosts_statistic',
    [0, 5, 10, 15].map((m, i) => ({
      _id: `range-${i}`,
      index: i,
      timestamp: at(m),
      hosts: [host('a', 'up'), host('b', m >= 10 ? 'up' : 'down')],
      _created: at(m),
      _updated: at(m),
      _etag: `r${i}`,
    })),
  );
});
afterAll(() => s.close());

const online = async (q: string) => {
  const res = await s.request.get(`/api/hosts/statistics/online?${q}`).set(auth('viewer'));
  return { status: res.status, body: res.body as unknown };
};
const iso = (minutes: number) => encodeURIComponent(at(minutes).toISOString());
const rfc = (minutes: number) => encodeURIComponent(at(minutes).toUTCString());

test('range[]=..&range[]=.., range[0]=..&range[1]=.., range=..&range=.. and range=a,b select the same snapshots', async () => {
  const spec = await online(`range[]=${iso(4)}&range[]=${rfc(11)}`);
  expect(spec.status).toBe(200);
  expect(spec.body).toEqual([
    { timestamp: at(5).toUTCString(), _id: null, hostnames: { up: 1, down: 1 } },
    { timestamp: at(10).toUTCString(), _id: null, hostnames: { up: 2, down: 0 } },
  ]);
  expect(await online(`range[0]=${iso(4)}&range[1]=${rfc(11)}`)).toEqual(spec);
  expect(await online(`range[1]=${rfc(11)}&range[0]=${iso(4)}`)).toEqual(spec);
  expect(await online(`range=${iso(4)}&range=${iso(11)}`)).toEqual(spec);
  expect(await online(`range=${iso(4)},${iso(11)}`)).toEqual(spec);
});

test('one bound alone, or three, is a 400 naming range', async () => {
  expectEveError(
    await s.request.get(`/api/hosts/statistics/online?range[0]=${iso(4)}`).set(auth('viewer')),
    400,
  );
  expectEveError(
    await s.request.get(`/api/hosts/statistics/unique_online?range[1]=${iso(4)}`).set(auth('viewer')),
    400,
  );
  const three = await s.request
    .get(`/api/hosts/statistics/online?range[]=${iso(1)}&range[]=${iso(2)}&range[]=${iso(3)}`)
    .set(auth('viewer'));
  expectEveError(three, 400);
  expect(JSON.stringify(three.body)).toMatch(/range/);
});
