/**
 * `$regex` over real HTTP: the patterns that froze the server for 42 s on JavaScript's
 * backtracking engine now answer with the right items, patterns RE2 cannot run are a 400 naming
 * `where` and the field, and `/api/health` answers while four viewers run the worst accepted one.
 */
import type { Doc } from '../../engine/src';
import {
  auth,
  expectEnvelope,
  expectEveError,
  insertHosts,
  startTestServer,
  uniqueName,
  type TestServer,
} from '../helpers';

let s: TestServer;
let tag: string;
let hosts: Doc[];
/** The one host whose id holds `=`: what `.*.*.*.*.*.*.*=` must find. */
let withEquals: string;

beforeAll(async () => {
  s = await startTestServer();
  // Long ids: on a backtracking engine `.*` x7 costs ~n^7/7! steps per id, minutes for these 40.
  const prefix = `${uniqueName('redos')}-${'long-segment-'.repeat(4)}`;
  ({ tag, docs: hosts } = await insertHosts(s.store, 40, {
    prefix,
    overrides: (i) => ({ grain: { osfullname: `${'debian-'.repeat(6)}${i}` } }),
  }));
  await insertHosts(s.store, 1, { prefix: `${prefix}-key=value`, tag });
  withEquals = `${prefix}-key=value-00.fleet.test`;
});
afterAll(async () => {
  await s.close();
});

const viewer = auth('viewer');

function list(where: Record<string, unknown>) {
  return s.request
    .get('/api/hosts')
    .query({ where: JSON.stringify({ identification_number: tag, ...where }), max_results: '100' })
    .set(viewer);
}
const ids = (body: { _items: Record<string, unknown>[] }) => body._items.map((i) => i._id);

describe('patterns that stalled a backtracking engine answer with the right items', () => {
  test('.*.*.*.*.*.*.*= on _id finds exactly the id holding "="', async () => {
    const body = expectEnvelope(await list({ _id: { $regex: '.*.*.*.*.*.*.*=' } }), {
      page: 1,
      maxResults: 100,
      total: 1,
    });
    expect(ids(body)).toEqual([withEquals]);
  });

  test('[a-z0-9.-]* seven times then "=" finds the same id', async () => {
    const body = expectEnvelope(await list({ _id: { $regex: `${'[a-z0-9.-]*'.repeat(7)}=` } }), {
      page: 1,
      maxResults: 100,
      total: 1,
    });
    expect(ids(body)).toEqual([withEquals]);
  });

  test('seven stars before an anchor that every id meets match them all', async () => {
    const body = expectEnvelope(await list({ _id: { $regex: `${'[a-z0-9.=-]*'.repeat(7)}\\.test$` } }), {
      page: 1,
      maxResults: 100,
      total: 41,
    });
    expect(ids(body)).toHaveLength(41);
  });

  test('in memory too: a grain path under $not (no push-down) runs on the same engine', async () => {
    const body = expectEnvelope(
      await list({ 'grain.osfullname': { $not: { $regex: `${'.*'.repeat(10)}=` } } }),
      { page: 1, maxResults: 100, total: 41 },
    );
    expect(ids(body)).toEqual(expect.arrayContaining(hosts.map((h) => h._id)));
  });

  test('RE2 syntax MongoDB also accepts: an inline flag and \\z', async () => {
    const body = expectEnvelope(await list({ _id: { $regex: '(?i)KEY=VALUE-00\\.FLEET\\.TEST\\z' } }), {
      page: 1,
      maxResults: 100,
      total: 1,
    });
    expect(ids(body)).toEqual([withEquals]);
  });

  test('the m and s flags', async () => {
    const body = expectEnvelope(await list({ _id: { $regex: '^.*=.*$', $options: 'ms' } }), {
      page: 1,
      maxResults: 100,
      total: 1,
    });
    expect(ids(body)).toEqual([withEquals]);
  });
});

describe('patterns RE2 cannot run are a 400 naming where and the field', () => {
  test.each([
    [
      'a back-reference',
      { _id: { $regex: '(a)\\1' } },
      /^where: \$regex on "_id" refused: .*back-references/,
    ],
    [
      'a named back-reference',
      { _id: { $regex: '(?<n>a)\\k<n>' } },
      /^where: \$regex on "_id" refused: .*back-references/,
    ],
    [
      'a look-ahead',
      { _id: { $regex: 'web(?=-01)' } },
      /^where: \$regex on "_id" refused: .*look-ahead and look-behind/,
    ],
    [
      'a look-behind',
      { 'grain.osfullname': { $regex: '(?<!x)debian' } },
      /^where: \$regex on "grain.osfullname" refused: .*look-ahead and look-behind/,
    ],
    ['an atomic group', { _id: { $regex: '(?>a+)b' } }, /^where: \$regex on "_id" refused: .*atomic groups/],
    [
      'a possessive quantifier',
      { _id: { $regex: 'a++b' } },
      /^where: \$regex on "_id" refused: .*quantifier follows another/,
    ],
    [
      'a JavaScript escape RE2 lacks',
      { _id: { $regex: '\\u0041' } },
      /^where: \$regex on "_id" refused: .*escape RE2 does not know/,
    ],
    [
      'a counted repetition past the bound',
      { _id: { $regex: '.{0,999}.{0,999}' } },
      /^where: \$regex on "_id" refused: .*repeat counts/,
    ],
    [
      'an unclosed group',
      { _id: { $regex: '(web' } },
      /^where: \$regex on "_id" refused: not a valid regular expression: a \( is not closed/,
    ],
  ])('%s', async (_name, where, message) => {
    const body = expectEveError(await list(where), 400);
    expect(body._error.message).toMatch(message);
  });

  test.each([
    ['x (extended syntax)', 'x', /^where: \$options on "_id" accepts only the flags i, m and s, got "x"$/],
    ['u', 'iu', /^where: \$options on "_id" accepts only the flags i, m and s, got "iu"$/],
    ['a number', 1, /^where: \$options on "_id" expects a string of flags$/],
  ])('$options %s', async (_name, options, message) => {
    const body = expectEveError(await list({ _id: { $regex: '^web', $options: options } }), 400);
    expect(body._error.message).toMatch(message);
  });

  test('$options without $regex', async () => {
    const body = expectEveError(await list({ _id: { $options: 'i' } }), 400);
    expect(body._error.message).toBe('where: $options on "_id" needs a $regex beside it');
  });
});

describe('the server stays available', () => {
  /** The worst pattern the API accepts: 21 stars (232 characters). */
  const worst = { _id: { $regex: `${'[a-z0-9.-]*'.repeat(21)}=` } };

  test('/api/health answers 200 while four viewers run the worst accepted pattern, and each of them gets its item', async () => {
    const slow = Array.from({ length: 4 }, () => list(worst).then((res) => res));
    // Asked after the four: it is answered, and healthy, while they run (the bench's health-attack
    // says how fast; a test only says that it is).
    const health = await s.request.get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok' });
    for (const res of await Promise.all(slow))
      expect(ids(expectEnvelope(res, { page: 1, maxResults: 100, total: 1 }))).toEqual([withEquals]);
  });
});
