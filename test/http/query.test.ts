/**
 * The six query parameters through HTTP: `where` (operators, dotted paths into grains,
 * dates, bounded `$regex`), `sort` (both syntaxes), `projection`, `embedded`, `page`,
 * `max_results` (clamped to PAGINATION_LIMIT) — and the 400 each one answers when it is wrong.
 */
import type { Doc } from '../../engine/src';
import {
  auth,
  expectEnvelope,
  expectEveError,
  insertAction,
  insertHosts,
  startTestServer,
  uniqueName,
  type TestServer,
} from '../helpers';

const PAGINATION_LIMIT = 40;
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { PAGINATION_LIMIT: String(PAGINATION_LIMIT) } });
});
afterAll(async () => {
  await s.close();
});

const viewer = auth('viewer');

/** Five hosts of one tag: cpus 1,2,4,8,16; status up except #1 and #3; heartbeats one hour apart. */
async function fleet(): Promise<{ tag: string; docs: Doc[] }> {
  return insertHosts(s.store, 5, {
    overrides: (i) => {
      const base = hostOverrides(i);
      return {
        ...base,
        grain: { ...base.grain, num_cpus: 2 ** i, osfullname: i % 2 === 0 ? 'Debian GNU/Linux' : 'Ubuntu' },
      };
    },
  });
}
function hostOverrides(i: number): { status: string; heartbeat: Date; grain: Record<string, unknown> } {
  return {
    status: i === 1 || i === 3 ? 'down' : 'up',
    heartbeat: new Date(Date.UTC(2026, 10, 25, 10 + i, 0, 0)),
    grain: { kernel: 'Linux', cpuarch: 'x86_64', tool: { last_stateapply: `2026-11-2${i} 04:00:00+00:00` } },
  };
}

/** GET /api/hosts with `where` = the tag AND `extra`, plus other raw parameters. */
async function hosts(tag: string, extra: Record<string, unknown> = {}, params: Record<string, string> = {}) {
  return s.request
    .get('/api/hosts')
    .query({ where: JSON.stringify({ identification_number: tag, ...extra }), ...params })
    .set(viewer);
}
const ids = (body: { _items: Record<string, unknown>[] }) => body._items.map((i) => i._id);
const nth = (docs: Doc[], ...idx: number[]) => idx.map((i) => docs[i]?._id);

describe('where', () => {
  test('equality on a field', async () => {
    const { tag, docs } = await fleet();
    const body = expectEnvelope(await hosts(tag, { status: 'down' }), { page: 1, maxResults: 25, total: 2 });
    expect(ids(body)).toEqual(nth(docs, 1, 3));
  });

  test.each([
    ['$in', { status: { $in: ['down'] } }, [1, 3]],
    ['$nin', { status: { $nin: ['down'] } }, [0, 2, 4]],
    ['$ne', { status: { $ne: 'up' } }, [1, 3]],
    ['$gt / $lte on a dotted grain path', { 'grain.num_cpus': { $gt: 1, $lte: 8 } }, [1, 2, 3]],
    ['$or', { $or: [{ 'grain.num_cpus': 1 }, { 'grain.num_cpus': 16 }] }, [0, 4]],
    ['$and with $not', { $and: [{ status: 'up' }, { 'grain.num_cpus': { $not: { $gte: 4 } } }] }, [0]],
    [
      '$exists on an undeclared grain key',
      { 'grain.tool.last_stateapply': { $exists: true }, 'grain.osfullname': 'Ubuntu' },
      [1, 3],
    ],
  ] as const)('operator %s', async (_name, extra, expected) => {
    const { tag, docs } = await fleet();
    const body = expectEnvelope(await hosts(tag, extra), { page: 1, maxResults: 25, total: expected.length });
    expect(ids(body)).toEqual(nth(docs, ...expected));
  });

  test('dotted paths reach into the grain object', async () => {
    const { tag, docs } = await fleet();
    const body = expectEnvelope(await hosts(tag, { 'grain.osfullname': 'Ubuntu' }), {
      page: 1,
      maxResults: 25,
      total: 2,
    });
    expect(ids(body)).toEqual(nth(docs, 1, 3));
  });

  test('a datetime value may be RFC 1123 or ISO 8601, with the same result', async () => {
    const { tag, docs } = await fleet();
    // heartbeats are 10:00 .. 14:00 UTC on 25 Nov 2026
    const rfc = expectEnvelope(await hosts(tag, { heartbeat: { $gte: 'Wed, 25 Nov 2026 12:00:00 GMT' } }), {
      page: 1,
      maxResults: 25,
      total: 3,
    });
    const iso = expectEnvelope(await hosts(tag, { heartbeat: { $gte: '2026-11-25T12:00:00Z' } }), {
      page: 1,
      maxResults: 25,
      total: 3,
    });
    const offset = expectEnvelope(await hosts(tag, { heartbeat: { $lt: '2026-11-25T13:00:00+02:00' } }), {
      page: 1,
      maxResults: 25,
      total: 1,
    });
    expect(ids(rfc)).toEqual(nth(docs, 2, 3, 4));
    expect(ids(iso)).toEqual(ids(rfc));
    expect(ids(offset)).toEqual(nth(docs, 0));
  });

  test('an exact datetime equality matches the stored instant', async () => {
    const { tag, docs } = await fleet();
    const body = expectEnvelope(await hosts(tag, { heartbeat: 'Wed, 25 Nov 2026 11:00:00 GMT' }), {
      page: 1,
      maxResults: 25,
      total: 1,
    });
    expect(ids(body)).toEqual(nth(docs, 1));
  });

  test('$regex with a safe pattern (and $options) filters', async () => {
    const prefix = uniqueName('rx');
    const { tag, docs } = await insertHosts(s.store, 4, { prefix });
    const body = expectEnvelope(await hosts(tag, { _id: { $regex: `^${prefix}-0[13]\\.` } }), {
      page: 1,
      maxResults: 25,
      total: 2,
    });
    expect(ids(body)).toEqual(nth(docs, 1, 3));
    const insensitive = expectEnvelope(
      await hosts(tag, { _id: { $regex: `^${prefix.toUpperCase()}-00`, $options: 'i' } }),
      {
        page: 1,
        maxResults: 25,
        total: 1,
      },
    );
    expect(ids(insensitive)).toEqual(nth(docs, 0));
  });

  test('the soft-delete flag may be queried', async () => {
    const { tag, docs } = await insertHosts(s.store, 2, { overrides: (i) => ({ _soft_deleted: i === 1 }) });
    const body = expectEnvelope(await hosts(tag, { _soft_deleted: true }), {
      page: 1,
      maxResults: 25,
      total: 1,
    });
    expect(ids(body)).toEqual(nth(docs, 1));
  });

  test.each([
    ['bad JSON', '{"status": "up"', /where.*JSON/i],
    ['not an object', '["status"]', /where.*object/i],
    ['an unknown field', '{"colour": "red"}', /unknown field "colour"/],
    [
      'an unknown path into a closed sub-document',
      '{"fingerprint_history.nope": 1}',
      /unknown field "fingerprint_history.nope"/,
    ],
    ['$where', '{"$where": "this.status == \'up\'"}', /\$where/],
    [
      '$function',
      '{"status": {"$function": {"body": "function() { return true }", "args": [], "lang": "js"}}}',
      /\$function/,
    ],
    ['$expr', '{"$expr": {"$eq": ["$status", "up"]}}', /\$expr/],
    ['$accumulator', '{"status": {"$accumulator": {}}}', /\$accumulator/],
    ['an unknown operator', '{"status": {"$like": "u%"}}', /unknown or unsupported operator \$like/],
    ['an unknown top-level operator', '{"$xor": [{"status": "up"}]}', /\$xor/],
    ['a ReDoS pattern', '{"_id": {"$regex": "(a+)+$"}}', /nested quantifier/],
    ['an alternation under a quantifier', '{"_id": {"$regex": "^(a|aa)*$"}}', /nested quantifier/],
    ['a back-reference', '{"_id": {"$regex": "(a)\\\\1"}}', /back-reference/],
    ['an overlong pattern', JSON.stringify({ _id: { $regex: 'a'.repeat(300) } }), /longer than/],
    ['an invalid pattern', '{"_id": {"$regex": "(unclosed"}}', /not a valid regular expression/],
    ['a bad date', '{"heartbeat": {"$gt": "yesterday"}}', /expects a date/],
    ['$in without an array', '{"status": {"$in": "up"}}', /expects an array/],
    ['$or without filters', '{"$or": []}', /\$or/],
  ])('400 for %s', async (_name, where, message) => {
    const res = await s.request.get('/api/hosts').query({ where }).set(viewer);
    const body = expectEveError(res, 400);
    expect(body._error.message).toMatch(message);
  });

  test('a ReDoS pattern is refused before it runs, instead of stalling the server', async () => {
    const res = await s.request
      .get('/api/hosts')
      .query({ where: JSON.stringify({ _id: { $regex: '^(a+)+$' } }) })
      .set(viewer);
    // The 400 is the proof: the pattern was checked, not run (how fast lives in the benchmarks).
    expect(expectEveError(res, 400)._error.message).toMatch(/\$regex on "_id" refused/);
  });
});

describe('sort', () => {
  test('"a,-b": ascending then descending', async () => {
    const { tag, docs } = await fleet();
    const body = expectEnvelope(await hosts(tag, {}, { sort: 'status,-_id' }), {
      page: 1,
      maxResults: 25,
      total: 5,
    });
    expect(ids(body)).toEqual(nth(docs, 3, 1, 4, 2, 0));
  });

  test('Eve\'s [("a", -1)] form, on a dotted grain path', async () => {
    const { tag, docs } = await fleet();
    const body = expectEnvelope(await hosts(tag, {}, { sort: '[("grain.num_cpus", -1)]' }), {
      page: 1,
      maxResults: 25,
      total: 5,
    });
    expect(ids(body)).toEqual(nth(docs, 4, 3, 2, 1, 0));
    const two = expectEnvelope(await hosts(tag, {}, { sort: '[("status", 1), ("heartbeat", -1)]' }), {
      page: 1,
      maxResults: 25,
      total: 5,
    });
    expect(ids(two)).toEqual(nth(docs, 3, 1, 4, 2, 0));
  });

  test('sort applies before paging', async () => {
    const { tag, docs } = await fleet();
    const body = expectEnvelope(await hosts(tag, {}, { sort: '-heartbeat', max_results: '2', page: '2' }), {
      page: 2,
      maxResults: 2,
      total: 5,
    });
    expect(ids(body)).toEqual(nth(docs, 2, 1));
  });

  test.each([
    ['an unknown field', 'colour', /unknown field "colour"/],
    ['an unknown field in Eve syntax', '[("colour", 1)]', /unknown field "colour"/],
    ['a malformed Eve list', '[("status":1)]', /sort/],
    ['an empty name', 'status,,-_id', /empty field name/],
  ])('400 for %s', async (_name, sort, message) => {
    const body = expectEveError(await s.request.get('/api/hosts').query({ sort }).set(viewer), 400);
    expect(body._error.message).toMatch(message);
  });
});

describe('projection', () => {
  test('inclusive: only the named fields plus the meta fields and links', async () => {
    const { tag } = await fleet();
    const body = expectEnvelope(await hosts(tag, {}, { projection: '{"ip": 1, "status": 1}' }), {
      page: 1,
      maxResults: 25,
      total: 5,
    });
    for (const item of body._items)
      expect(Object.keys(item).sort()).toEqual([
        '_created',
        '_etag',
        '_id',
        '_links',
        '_updated',
        'ip',
        'status',
      ]);
  });

  test('exclusive: every field but the named ones (and grain stays hidden in lists)', async () => {
    const { tag } = await fleet();
    const body = expectEnvelope(await hosts(tag, {}, { projection: '{"ip": 0, "fingerprint": 0}' }), {
      page: 1,
      maxResults: 25,
      total: 5,
    });
    for (const item of body._items) {
      expect(item).not.toHaveProperty('ip');
      expect(item).not.toHaveProperty('fingerprint');
      expect(item).not.toHaveProperty('grain');
      expect(item).toHaveProperty('status');
      expect(item).toHaveProperty('version');
    }
  });

  test('grain is left out of lists and shown on the item GET', async () => {
    const { tag, docs } = await fleet();
    const body = expectEnvelope(await hosts(tag), { page: 1, maxResults: 25, total: 5 });
    for (const item of body._items) expect(item).not.toHaveProperty('grain');
    const item = await s.request.get(`/api/hosts/${String(docs[2]?._id)}`).set(viewer);
    expect(item.body.grain).toMatchObject({ num_cpus: 4, kernel: 'Linux' });
  });

  test('grain appears in a list when projected, whole or by a dotted path', async () => {
    const { tag } = await fleet();
    const whole = expectEnvelope(await hosts(tag, {}, { projection: '{"grain": 1}' }), {
      page: 1,
      maxResults: 25,
      total: 5,
    });
    expect(whole._items.map((i) => (i.grain as { num_cpus: number }).num_cpus)).toEqual([1, 2, 4, 8, 16]);
    expect(whole._items[0]).not.toHaveProperty('status');
    const part = expectEnvelope(await hosts(tag, {}, { projection: '{"grain.num_cpus": 1}' }), {
      page: 1,
      maxResults: 25,
      total: 5,
    });
    expect(part._items[0]?.grain).toEqual({ num_cpus: 1 });
  });

  test('projection on an item GET', async () => {
    const { docs } = await fleet();
    const res = await s.request
      .get(`/api/hosts/${String(docs[0]?._id)}`)
      .query({ projection: '{"grain": 0}' })
      .set(viewer);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('grain');
    expect(res.body.status).toBe('up');
  });

  test('meta fields cannot be projected away', async () => {
    const { tag } = await fleet();
    const body = expectEnvelope(await hosts(tag, {}, { projection: '{"_id": 0, "_etag": 0, "ip": 0}' }), {
      page: 1,
      maxResults: 25,
      total: 5,
    });
    for (const item of body._items)
      expect(item).toMatchObject({ _id: expect.any(String), _etag: expect.any(String) });
  });

  test.each([
    ['bad JSON', '{"ip": 1', /projection.*JSON/i],
    ['a mix of 1 and 0', '{"ip": 1, "status": 0}', /mix/],
    ['an unknown field', '{"colour": 1}', /unknown field "colour"/],
    ['a value other than 0 or 1', '{"ip": 2}', /0 or 1/],
    ['a JSON array', '["ip"]', /object/],
    [
      'an exclusion inside a field lists leave out (it was "an operator got a value of the wrong type")',
      '{"grain.cpu_model": 0}',
      /^projection: "grain\.cpu_model" lies in "grain", which lists leave out unless a projection asks for it, so it cannot be excluded there: name the fields of "grain" wanted instead \(\{"grain\.<field>": 1\}\), or read one item$/,
    ],
    [
      'a field and a path inside it',
      '{"grain": 1, "grain.os": 1}',
      /^projection: "grain" and "grain\.os" overlap \(one lies inside the other\): give one of them$/,
    ],
    [
      'a path and a path inside it, excluded',
      '{"ip": 0, "grain.a": 0, "grain.a.b": 0}',
      /^projection: "grain\.a" and "grain\.a\.b" overlap/,
    ],
  ])('400 for %s', async (_name, projection, message) => {
    const body = expectEveError(await s.request.get('/api/hosts').query({ projection }).set(viewer), 400);
    expect(body._error.message).toMatch(message);
  });

  test('an item shows grain: an exclusion inside it is met there', async () => {
    const { docs } = await fleet();
    const res = await s.request
      .get(`/api/hosts/${String(docs[0]?._id)}`)
      .query({ projection: '{"grain.num_cpus": 0}' })
      .set(viewer);
    expect(res.status).toBe(200);
    expect(res.body.grain).toMatchObject({ kernel: 'Linux' });
    expect(res.body.grain).not.toHaveProperty('num_cpus');
  });

  test('400 on an item GET too', async () => {
    const { docs } = await fleet();
    expectEveError(
      await s.request
        .get(`/api/hosts/${String(docs[0]?._id)}`)
        .query({ projection: '{"ip": 1, "status": 0}' })
        .set(viewer),
      400,
    );
  });
});

describe('embedded', () => {
  test('replaces a reference by the referenced item, in lists and item GETs', async () => {
    const { docs } = await insertHosts(s.store, 1);
    const host = String(docs[0]?._id);
    const action = await insertAction(s.store, host);
    const list = await s.request
      .get('/api/actions')
      .query({ where: JSON.stringify({ host }), embedded: '{"host": 1}' })
      .set(viewer);
    const body = expectEnvelope(list, { page: 1, maxResults: 25, total: 1 });
    expect(body._items[0]?.host).toMatchObject({ _id: host, status: 'up', _etag: docs[0]?._etag });
    const item = await s.request
      .get(`/api/actions/${action._id}`)
      .query({ embedded: '{"host": 1}' })
      .set(viewer);
    expect(item.body.host).toMatchObject({ _id: host, ip: '10.0.0.10' });
    // Without `embedded` the field stays the id.
    const plain = await s.request.get(`/api/actions/${action._id}`).set(viewer);
    expect(plain.body.host).toBe(host);
  });

  test('a dangling single reference embeds as null (Eve)', async () => {
    const missing = `${uniqueName('gone')}.fleet.test`;
    const action = await insertAction(s.store, missing);
    const res = await s.request
      .get(`/api/actions/${action._id}`)
      .query({ embedded: '{"host": 1}' })
      .set(viewer);
    expect(res.status).toBe(200);
    expect(res.body.host).toBeNull();
  });

  test('a soft-deleted target is not embedded', async () => {
    const { docs } = await insertHosts(s.store, 1, { overrides: () => ({ _soft_deleted: true }) });
    const action = await insertAction(s.store, String(docs[0]?._id));
    const res = await s.request
      .get(`/api/actions/${action._id}`)
      .query({ embedded: '{"host": 1}' })
      .set(viewer);
    expect(res.body.host).toBeNull();
  });

  test('array references embed each item and drop dangling ids (Eve)', async () => {
    const admin = auth('admin');
    const child = await s.request
      .post('/api/groups')
      .set(admin)
      .send({ name: uniqueName('child'), type: 1, info: { regex: '^db' } });
    const gone = await s.request
      .post('/api/groups')
      .set(admin)
      .send({ name: uniqueName('gone'), type: 1 });
    const parent = await s.request
      .post('/api/groups')
      .set(admin)
      .send({ name: uniqueName('parent'), subgroups: [child.body._id, gone.body._id] });
    // The dangling id is written behind the API's back (the API itself cleans references up).
    await s.store.update(
      'groups',
      { _id: parent.body._id },
      { $set: { subgroups: [child.body._id, 'ffffffffffffffffffffffff'] } },
    );
    const res = await s.request
      .get(`/api/groups/${String(parent.body._id)}`)
      .query({ embedded: '{"subgroups": 1}' })
      .set(viewer);
    expect(res.status).toBe(200);
    expect(res.body.subgroups).toEqual([
      expect.objectContaining({ _id: child.body._id, type: 1, info: { regex: '^db' } }),
    ]);
  });

  test.each([
    ['a field that is not a relation', '{"status": 1}', /not a relation/],
    ['an unknown field', '{"colour": 1}', /not a relation/],
    ['bad JSON', '{"groups": ', /embedded.*JSON/i],
  ])('400 for %s', async (_name, embedded, message) => {
    const body = expectEveError(await s.request.get('/api/hosts').query({ embedded }).set(viewer), 400);
    expect(body._error.message).toMatch(message);
  });
});

describe('page and max_results', () => {
  test('page selects the slice', async () => {
    const { tag, docs } = await fleet();
    const body = expectEnvelope(await hosts(tag, {}, { max_results: '3', page: '2' }), {
      page: 2,
      maxResults: 3,
      total: 5,
    });
    expect(ids(body)).toEqual(nth(docs, 3, 4));
  });

  test('max_results above PAGINATION_LIMIT is clamped, and _meta and the links carry the effective value', async () => {
    const { tag } = await insertHosts(s.store, PAGINATION_LIMIT + 2);
    const body = expectEnvelope(await hosts(tag, {}, { max_results: '500' }), {
      page: 1,
      maxResults: PAGINATION_LIMIT,
      total: PAGINATION_LIMIT + 2,
    });
    expect(body._links.next?.href).toContain(`max_results=${PAGINATION_LIMIT}&`);
    expect(body._links.next?.href).toContain('page=2');
  });

  test.each([
    ['page', 'abc'],
    ['page', '1.5'],
    ['page', '0'],
    ['page', '-1'],
    ['page', ''],
    ['max_results', '0'],
    ['max_results', 'ten'],
    ['max_results', '-5'],
    ['max_results', '2.5'],
  ])('400 naming the parameter for %s=%s', async (name, value) => {
    const body = expectEveError(
      await s.request
        .get('/api/hosts')
        .query({ [name]: value })
        .set(viewer),
      400,
    );
    expect(body._error.message).toContain(name);
  });

  test('a parameter given twice is a 400', async () => {
    const body = expectEveError(await s.request.get('/api/hosts?page=1&page=2').set(viewer), 400);
    expect(body._error.message).toContain('page');
  });
});
