/**
 * Dates on the wire (Eve 2.3.1's `DATE_FORMAT`): every date is rendered RFC 1123
 * (`Wed, 25 Nov 2026 21:08:02 GMT`) — meta fields, datetime fields, nested ones — and accepted in
 * bodies and `where` as RFC 1123 or ISO 8601 (a zone-less value is UTC).
 */
import {
  auth,
  expectEnvelope,
  expectEveError,
  insertHost,
  RFC1123,
  startTestServer,
  uniqueName,
  vpnManagerBody,
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
const operator = auth('operator');

/** Whole seconds around now, as the API renders them. */
function secondsBetween(before: number, value: string, after: number): void {
  expect(value).toMatch(RFC1123);
  const t = Date.parse(value);
  expect(t).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  expect(t).toBeLessThanOrEqual(after);
}

function taskBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: uniqueName('task'),
    fun: 'test.ping',
    tgt: ['web-01.fleet.test'],
    start: '2030-01-01 04:30',
    interval: 3600,
    status: 'paused',
    ...overrides,
  };
}

describe('meta fields', () => {
  test('_created and _updated are RFC 1123 in write responses, items and lists, and are the time of the write', async () => {
    const before = Date.now();
    const created = await s.request.post('/api/vpn_managers').set(auth('admin')).send(vpnManagerBody());
    const after = Date.now();
    secondsBetween(before, created.body._created, after);
    expect(created.body._updated).toBe(created.body._created);
    const item = await s.request.get(`/api/vpn_managers/${String(created.body._id)}`).set(viewer);
    expect(item.body._created).toBe(created.body._created);
    expect(item.body._updated).toBe(created.body._updated);
    const list = await s.request.get('/api/vpn_managers').set(viewer);
    for (const i of list.body._items as Record<string, string>[]) {
      expect(i._created).toMatch(RFC1123);
      expect(i._updated).toMatch(RFC1123);
    }
  });

  test('a PATCH moves _updated and keeps _created', async () => {
    const id = `${uniqueName('old')}.fleet.test`;
    await insertHost(s.store, id, {}, { created: new Date('2026-11-01T09:05:07Z') });
    const before = Date.now();
    const res = await s.request
      .patch(`/api/hosts/${id}`)
      .set(auth('admin'))
      .send({ identification_number: 'INV-1' });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.body._created).toBe('Sun, 01 Nov 2026 09:05:07 GMT');
    secondsBetween(before, res.body._updated, after);
  });

  test('a value the API rendered finds the item again in where', async () => {
    const created = await s.request.post('/api/tasks').set(operator).send(taskBody());
    expect(created.status).toBe(201);
    const rendered = String(created.body._created);
    for (const cond of [rendered, { $lte: rendered }, { $gte: rendered }, { $in: [rendered] }]) {
      const res = await s.request
        .get('/api/tasks')
        .query({ where: JSON.stringify({ _id: created.body._id, _created: cond }) })
        .set(viewer);
      expect(expectEnvelope(res, { page: 1, maxResults: 25, total: 1 })._items[0]?._id).toBe(
        created.body._id,
      );
    }
  });
});

describe('datetime fields', () => {
  test('stored instants render exactly, with two-digit days and milliseconds dropped', async () => {
    const id = `${uniqueName('dt')}.fleet.test`;
    await insertHost(s.store, id, {
      heartbeat: new Date('2026-11-25T21:08:02Z'),
      last_stateapply: new Date('2026-11-01T09:05:07.999Z'),
      last_distupgrade: null,
    });
    const item = await s.request.get(`/api/hosts/${id}`).set(viewer);
    expect(item.body.heartbeat).toBe('Wed, 25 Nov 2026 21:08:02 GMT');
    expect(item.body.last_stateapply).toBe('Sun, 01 Nov 2026 09:05:07 GMT');
    expect(item.body.last_distupgrade).toBeNull();
  });

  test('datetimes nested in arrays of objects are rendered too', async () => {
    const id = `${uniqueName('fp')}.fleet.test`;
    await insertHost(s.store, id, {
      fingerprint_history: [
        { added: new Date('2026-03-07T00:00:00Z'), fingerprint: 'aa:bb' },
        { added: new Date('2026-11-25T21:08:02Z'), fingerprint: 'cc:dd' },
      ],
    });
    const item = await s.request.get(`/api/hosts/${id}`).set(viewer);
    expect(item.body.fingerprint_history).toEqual([
      { added: 'Sat, 07 Mar 2026 00:00:00 GMT', fingerprint: 'aa:bb' },
      { added: 'Wed, 25 Nov 2026 21:08:02 GMT', fingerprint: 'cc:dd' },
    ]);
  });

  test('date-like strings of open objects (grain) are left as the minion reported them', async () => {
    const id = `${uniqueName('gr')}.fleet.test`;
    await insertHost(s.store, id);
    const item = await s.request.get(`/api/hosts/${id}`).set(viewer);
    expect(item.body.grain.tool).toEqual({
      last_distupgrade: '2026-11-20 04:00:00+00:00',
      last_stateapply: '2026-11-24 04:00:00+00:00',
    });
  });

  test('in lists every datetime field is RFC 1123', async () => {
    const id = `${uniqueName('ls')}.fleet.test`;
    await insertHost(s.store, id, { identification_number: id });
    const list = await s.request
      .get('/api/hosts')
      .query({ where: JSON.stringify({ identification_number: id }) })
      .set(viewer);
    const [item] = expectEnvelope(list, { page: 1, maxResults: 25, total: 1 })._items;
    for (const field of ['heartbeat', 'last_stateapply', 'last_distupgrade', '_created', '_updated'])
      expect(item?.[field]).toMatch(RFC1123);
  });
});

describe('dates in bodies', () => {
  test.each([
    ['"YYYY-MM-DD HH:MM" as UTC', '2030-01-01 04:30'],
    ['ISO 8601 with Z', '2030-01-01T04:30:00Z'],
    ['ISO 8601 with an offset', '2030-01-01T06:30:00+02:00'],
    ['RFC 1123', 'Tue, 01 Jan 2030 04:30:00 GMT'],
  ])('a task start given as %s reads back as the same instant in RFC 1123', async (_name, start) => {
    const created = await s.request.post('/api/tasks').set(operator).send(taskBody({ start }));
    expect(created.status).toBe(201);
    const item = await s.request.get(`/api/tasks/${String(created.body._id)}`).set(viewer);
    expect(item.body.start).toBe('Tue, 01 Jan 2030 04:30:00 GMT');
    expect(item.body.next).toBe('Tue, 01 Jan 2030 04:30:00 GMT');
  });

  test.each([['tomorrow'], ['2030-02-31 10:00'], ['2030-13-01 10:00'], ['01/01/2030 04:30']])(
    'a task start of "%s" is a 422 naming the field',
    async (start) => {
      expectEveError(await s.request.post('/api/tasks').set(operator).send(taskBody({ start })), 422, {
        issues: ['start'],
      });
    },
  );

  test('the task status route renders its dates RFC 1123', async () => {
    const created = await s.request
      .post('/api/tasks')
      .set(operator)
      .send(taskBody({ start: '2030-01-01 04:30' }));
    const res = await s.request.patch(`/api/tasks/${String(created.body._id)}/scheduled`).set(operator);
    expect(res.status).toBe(200);
    expect(res.body._updated).toMatch(RFC1123);
    expect(res.body._created).toMatch(RFC1123);
    expect((await s.request.get(`/api/tasks/${String(created.body._id)}`).set(viewer)).body.next).toBe(
      'Tue, 01 Jan 2030 04:30:00 GMT',
    );
  });
});

describe('dates in where', () => {
  test('RFC 1123, ISO 8601 and zone-less ISO (UTC) select the same items', async () => {
    const tag = uniqueName('when');
    for (const [i, hour] of [9, 10, 11].entries()) {
      await insertHost(s.store, `${tag}-${i}.fleet.test`, {
        identification_number: tag,
        heartbeat: new Date(Date.UTC(2026, 10, 25, hour, 0, 0)),
      });
    }
    const forms = [
      'Wed, 25 Nov 2026 10:00:00 GMT',
      '2026-11-25T10:00:00Z',
      '2026-11-25T10:00:00',
      '2026-11-25 10:00',
      '2026-11-25T11:00:00+01:00',
    ];
    for (const value of forms) {
      const res = await s.request
        .get('/api/hosts')
        .query({ where: JSON.stringify({ identification_number: tag, heartbeat: { $gte: value } }) })
        .set(viewer);
      expect(expectEnvelope(res, { page: 1, maxResults: 25, total: 2 })._items.map((i) => i._id)).toEqual([
        `${tag}-1.fleet.test`,
        `${tag}-2.fleet.test`,
      ]);
    }
  });

  test('$in with dates, and a date that is not one is a 400', async () => {
    const tag = uniqueName('in');
    await insertHost(s.store, `${tag}.fleet.test`, {
      identification_number: tag,
      heartbeat: new Date('2026-11-25T21:08:02Z'),
    });
    const res = await s.request
      .get('/api/hosts')
      .query({
        where: JSON.stringify({
          identification_number: tag,
          heartbeat: { $in: ['Wed, 25 Nov 2026 21:08:02 GMT', '2020-01-01'] },
        }),
      })
      .set(viewer);
    expectEnvelope(res, { page: 1, maxResults: 25, total: 1 });
    expectEveError(
      await s.request
        .get('/api/hosts')
        .query({ where: '{"heartbeat": {"$lt": "Wed, 32 Nov 2026 25:00:00 GMT"}}' })
        .set(viewer),
      400,
    );
    expectEveError(
      await s.request.get('/api/hosts').query({ where: '{"_created": "last week"}' }).set(viewer),
      400,
    );
  });
});
