/**
 * Bounded query input over real HTTP: `where` nested past 32 levels or an `$in` nested
 * 7,000 deep (a stack overflow further on), lists and filters too large, `sort` with 2,001 terms
 * (SQLite's ORDER BY limit), oversized `projection`, a page past 2^53 and JavaScript's object
 * machinery in field paths: each a 400 in the error shape naming the parameter, never a 500 and
 * never a library's text.
 */
import {
  auth,
  expectEnvelope,
  expectEveError,
  insertHosts,
  startTestServer,
  type TestServer,
} from '../helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const viewer = auth('viewer');
/**
 * GET /api/hosts with the parameters barely encoded: a 7,000-deep `$in` must fit Node's 16 KB
 * request head to reach the API at all, and percent-encoding would triple it.
 */
function get(query: Record<string, string>) {
  const minimal = (v: string) => v.replace(/[%&#+ ]/g, (c) => encodeURIComponent(c));
  const search = Object.entries(query)
    .map(([k, v]) => `${k}=${minimal(v)}`)
    .join('&');
  return s.request.get(`/api/hosts?${search}`).set(viewer);
}

/** `{"$or":[{"$or":[ ... {"status":"up"} ... ]}]}`: `depth` objects and as many arrays. */
function nestedAnd(depth: number): string {
  let filter = '{"status":"up"}';
  for (let i = 0; i < depth; i++) filter = `{"$or":[${filter}]}`;
  return filter;
}

/** Texts that only a library writes: none may reach a client. */
const LIBRARY_TEXT =
  /Accessing __proto__|skip must be|SQLITE|SqliteError|Maximum call stack|MingoError|unknown query operator/i;

describe('where', () => {
  test.each([
    // 1,600 levels is what fits Node's 16 KB request head (2,500 is a 431 before the API sees it).
    ['nested 1,600 deep ($or)', nestedAnd(800), /^where: nested deeper than 32 levels$/],
    [
      '$in nested 7,000 deep',
      `{"_id":{"$in":${'['.repeat(7000)}${']'.repeat(7000)}}}`,
      /^where: nested deeper than 32 levels$/,
    ],
    [
      '33 levels of plain objects',
      `{"grain.a":${'{"b":'.repeat(32)}1${'}'.repeat(32)}}`,
      /^where: nested deeper than 32 levels$/,
    ],
    [
      'an $in of 1,001 values',
      JSON.stringify({ _id: { $in: Array.from({ length: 1001 }, (_, i) => `h${i}`) } }),
      /^where: a list has 1001 items, more than the 1000 allowed$/,
    ],
    [
      'an $or of 1,001 branches',
      JSON.stringify({ $or: Array.from({ length: 1001 }, () => ({ _id: 1 })) }),
      /^where: a list has 1001 items/,
    ],
    [
      'more than 5,000 values in all',
      JSON.stringify({
        $or: Array.from({ length: 6 }, () => ({ _id: { $in: Array.from({ length: 900 }, () => 0) } })),
      }),
      /^where: too large \(more than 5000 values in all\)$/,
    ],
    [
      'a __proto__ path into an open object',
      '{"grain.__proto__.polluted": 1}',
      /^where: field "grain.__proto__.polluted" is not allowed$/,
    ],
    ['a constructor path', '{"grain.constructor": 1}', /^where: field "grain.constructor" is not allowed$/],
    [
      '$type naming object machinery',
      '{"status": {"$type": "__proto__"}}',
      /^where: \$type on "status" expects a BSON type name or number/,
    ],
    [
      '$type unknown',
      '{"status": {"$type": "strin"}}',
      /^where: \$type on "status" expects a BSON type name or number/,
    ],
  ])('%s', async (_name, where, message) => {
    const body = expectEveError(await get({ where }), 400);
    expect(body._error.message).toMatch(message);
    expect(body._error.message).not.toMatch(LIBRARY_TEXT);
  });

  test('32 levels are still accepted', async () => {
    const res = await get({ where: nestedAnd(15) });
    expect(res.status).toBe(200);
  });

  test('an $in of 1,000 values is accepted and finds its hosts', async () => {
    const { docs } = await insertHosts(s.store, 2);
    const values = [...docs.map((d) => d._id), ...Array.from({ length: 998 }, (_, i) => `a${i}`)];
    const body = expectEnvelope(await get({ where: JSON.stringify({ _id: { $in: values } }) }), {
      page: 1,
      maxResults: 25,
      total: 2,
    });
    expect(body._items.map((i) => i._id)).toEqual(docs.map((d) => d._id));
  });

  test('$type with a known alias still filters', async () => {
    expect((await get({ where: '{"status": {"$type": "string"}}' })).status).toBe(200);
  });
});

describe('sort', () => {
  test.each([
    [
      '2,001 terms (SQLite ORDER BY limit)',
      Array.from({ length: 2001 }, () => '_id').join(','),
      /^sort: at most 32 fields, got 2001$/,
    ],
    [
      '33 terms',
      Array.from({ length: 33 }, (_, i) => (i % 2 === 0 ? 'status' : '-_updated')).join(','),
      /^sort: at most 32 fields, got 33$/,
    ],
    [
      '33 terms, Eve syntax',
      `[${Array.from({ length: 33 }, () => '("status", 1)').join(', ')}]`,
      /^sort: at most 32 fields, got 33$/,
    ],
    ['a __proto__ path', 'grain.__proto__', /^sort: field "grain.__proto__" is not allowed$/],
  ])('%s', async (_name, sort, message) => {
    const body = expectEveError(await get({ sort }), 400);
    expect(body._error.message).toMatch(message);
    expect(body._error.message).not.toMatch(LIBRARY_TEXT);
  });

  test('32 terms are accepted', async () => {
    expect((await get({ sort: Array.from({ length: 32 }, () => 'status').join(',') })).status).toBe(200);
  });
});

describe('projection, embedded and page', () => {
  test.each([
    [
      'projection with 201 keys',
      {
        projection: JSON.stringify(
          Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`grain.k${i}`, 1])),
        ),
      },
      /^projection: an object has 201 keys, more than the 200 allowed$/,
    ],
    [
      'projection nested',
      { projection: '{"grain": {"a": {"b": 1}}}' },
      /^projection: nested deeper than 2 levels$/,
    ],
    [
      'projection on __proto__',
      { projection: '{"grain.__proto__": 1}' },
      /^projection: field "grain.__proto__" is not allowed$/,
    ],
    ['embedded nested', { embedded: '{"host": {"a": {"b": 1}}}' }, /^embedded: nested deeper than 2 levels$/],
    [
      'page 2^53 - 1 (skip past 2^53)',
      { page: '9007199254740991', max_results: '1000' },
      /^page: too large for max_results=1000$/,
    ],
  ])('%s', async (_name, query, message) => {
    const body = expectEveError(await get(query), 400);
    expect(body._error.message).toMatch(message);
    expect(body._error.message).not.toMatch(LIBRARY_TEXT);
  });

  test('a large but exact page is an empty page, not an error', async () => {
    const res = await get({ page: '1000000', max_results: '1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _items: [], _meta: { page: 1000000, max_results: 1 } });
  });
});
