/**
 * A write without If-Match asks for last-write-wins: when another writer (the fleet sync, a second
 * request) changes the item between our read and our write, the write is redone on the fresh item
 * — the other writer's change is kept, nothing fails, however many races it loses (two instances
 * once answered 24 of 500 PATCHes with a 412 when three attempts ran out). Only a write starved past
 * its budget of lost races is a 503 to retry. With If-Match the same race is a 412. Within one
 * process the writes of one item take turns (engine/src/ops/item-lines.ts): it never races itself.
 * The race is made deterministic by a definition whose `prepare` hook writes to the item itself,
 * through the store, the first time it runs; two servers on one SQLite file race for real.
 */
import { defineResource, f, systemContext } from '../../engine/src';
import { itemLinesOf } from '../../engine/src/ops/item-lines';
import { allResources } from '../../resources';
import { auth, expectEveError, startTestServer, TOKENS, type TestServer } from '../helpers';
import { startChildServer, stopChild, type ChildServer } from './resources/_support';

/** How many racing writes the hook still makes. */
let racesLeft = 0;
/** Set while the hook's own racing write runs (its prepare must not race again). */
let racing = false;
/** How many times the hook ran: once per attempt of a write. */
let prepareRuns = 0;

const racy = defineResource({
  name: 'racy_items',
  description: 'Throwaway resource of this test: its prepare hook races the write it prepares.',
  fields: {
    note: f.string(),
    counter: f.integer({ readonly: true, default: 0 }),
    labels: f.object({}, { open: true, default: () => ({}) }),
  },
  methods: { list: 'viewer', get: 'viewer', create: 'operator', patch: 'operator', replace: 'operator' },
  hooks: {
    async prepare({ fields, original, ctx }) {
      prepareRuns += 1;
      if (original && racesLeft > 0 && !racing) {
        racesLeft -= 1;
        racing = true;
        try {
          // Another writer (the service itself) changes the item between this write's read and its write.
          await ctx.runtime.resources
            .get('racy_items')
            .patch(original._id, { counter: original.counter + 1 }, systemContext(ctx.runtime));
        } finally {
          racing = false;
        }
      }
      return fields;
    },
  },
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ definitions: [...allResources, racy] });
});
afterAll(() => server.close());
async function newItem(): Promise<{ id: string; etag: string }> {
  const res = await server.request.post('/api/racy_items').set(auth('operator')).send({ note: 'first' });
  expect(res.status).toBe(201);
  const body = res.body as { _id: string; _etag: string };
  return { id: body._id, etag: body._etag };
}

describe('a write that loses a race', () => {
  test.each(['patch', 'put'] as const)(
    'without If-Match (%s) is redone on the fresh item; the other write is kept',
    async (method) => {
      const { id } = await newItem();
      racesLeft = 1;
      const res = await server.request[method](`/api/racy_items/${id}`)
        .set(auth('operator'))
        .send({ note: 'second' });
      expect(res.status).toBe(200);
      const item = (await server.request.get(`/api/racy_items/${id}`).set(auth('viewer'))).body as {
        note: string;
        counter: number;
      };
      expect(item).toMatchObject({ note: 'second', counter: 1 });
    },
  );

  test('without If-Match, a writer that loses ten races in a row still wins; every other write is kept', async () => {
    const { id } = await newItem();
    racesLeft = 10;
    const res = await server.request
      .patch(`/api/racy_items/${id}`)
      .set(auth('operator'))
      .send({ note: 'tenth time lucky' });
    expect(res.status).toBe(200);
    expect(racesLeft).toBe(0);
    const item = (await server.request.get(`/api/racy_items/${id}`).set(auth('viewer'))).body as {
      note: string;
      counter: number;
    };
    expect(item).toMatchObject({ note: 'tenth time lucky', counter: 10 });
  });

  test('without If-Match, a writer starved past its budget (100 races lost in a row) gets a 503 with Retry-After, never a 412; nothing half-written', async () => {
    const { id } = await newItem();
    racesLeft = Number.MAX_SAFE_INTEGER;
    const res = await server.request
      .patch(`/api/racy_items/${id}`)
      .set(auth('operator'))
      .send({ note: 'never' });
    const lost = Number.MAX_SAFE_INTEGER - racesLeft;
    racesLeft = 0;
    expect(expectEveError(res, 503)._error.message).toMatch(/kept changing under this write/);
    expect(res.headers['retry-after']).toBe('1');
    const item = (await server.request.get(`/api/racy_items/${id}`).set(auth('viewer'))).body as {
      note: string;
      counter: number;
    };
    expect(item.note).toBe('first');
    expect(item.counter).toBe(lost);
    expect(lost).toBe(100);
  });

  test('with If-Match, the race is the 412 the client asked for', async () => {
    const { id, etag } = await newItem();
    racesLeft = 1;
    const res = await server.request
      .patch(`/api/racy_items/${id}`)
      .set(auth('operator'))
      .set('If-Match', `"${etag}"`)
      .send({ note: 'second' });
    expectEveError(res, 412);
    racesLeft = 0;
    const item = (await server.request.get(`/api/racy_items/${id}`).set(auth('viewer'))).body as {
      note: string;
      counter: number;
    };
    expect(item).toMatchObject({ note: 'first', counter: 1 });
  });
});

describe('one instance, many writes of one item at once', () => {
  test('200 concurrent PATCHes without If-Match, each adding its own key to an object: every one 200, every key kept, none redone', async () => {
    const { id } = await newItem();
    const runsBefore = prepareRuns;
    const patch = (i: number): Promise<number> =>
      fetch(`${server.url}/api/racy_items/${id}`, {
        method: 'PATCH',
        headers: { ...auth('operator'), 'Content-Type': 'application/json' },
        body: JSON.stringify({ labels: { [`key_${i}`]: String(i) } }),
      }).then(async (r) => (await r.arrayBuffer(), r.status));
    const statuses = await Promise.all(Array.from({ length: 200 }, (_, i) => patch(i)));
    expect(statuses.filter((st) => st !== 200)).toEqual([]);
    const final = (await server.request.get(`/api/racy_items/${id}`).set(auth('viewer'))).body as {
      labels: Record<string, string>;
    };
    // Each PATCH merged into the version the one before it wrote: no change was lost.
    expect(final.labels).toEqual(
      Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`key_${i}`, String(i)])),
    );
    // The process never raced itself: each write read, prepared and wrote once, none lost and redone.
    expect(prepareRuns - runsBefore).toBe(200);
    expect(itemLinesOf(server.store).size).toBe(0);
  });

  test('a write that lost a race is redone before the writes of the item asked after it: the last asked wins', async () => {
    const { id } = await newItem();
    racesLeft = 1;
    const api = server.engine.runtime.resources.get('racy_items');
    const ctx = systemContext(server.engine.runtime);
    // The first loses its race to the hook's write; the second, asked after it, must still come last.
    const writes = [api.patch(id, { note: 'asked first' }, ctx), api.patch(id, { note: 'asked last' }, ctx)];
    expect(itemLinesOf(server.store).size).toBe(1); // both in the line of this one item
    await Promise.all(writes);
    expect(racesLeft).toBe(0);
    const item = (await server.request.get(`/api/racy_items/${id}`).set(auth('viewer'))).body as {
      note: string;
      counter: number;
    };
    expect(item).toMatchObject({ note: 'asked last', counter: 1 });
  });
});

describe('two instances on one SQLite file', () => {
  let a: TestServer;
  let b: ChildServer;
  beforeAll(async () => {
    a = await startTestServer();
    // A second process: only across processes do two writers really run between each other's read and write.
    const tokens = `admin=${TOKENS.admin}:admin,operator=${TOKENS.operator}:operator,viewer=${TOKENS.viewer}:viewer`;
    b = await startChildServer({
      env: { DATABASE_URL: `sqlite:${a.dbPath}`, API_TOKENS: tokens, SNAPSHOT_INTERVAL_S: '86400' },
    });
  });
  afterAll(async () => {
    await stopChild(b);
    await a.close();
  });

  test('300 concurrent PATCHes of one item without If-Match, half to each: every one 200, not one 412', async () => {
    // A large item (a kwarg of 900 entries, within the 1,000 keys a body's object may have): each
    // write decodes, merges and hashes it, which widens the window between a write's read and its
    // commit, as a host's grains do.
    const kwarg = Object.fromEntries(
      Array.from({ length: 900 }, (_, i) => [`key_${i}`, `value ${i} `.repeat(12)]),
    );
    const created = await a.request
      .post('/api/tasks')
      .set(auth('operator'))
      .send({ name: 'raced', fun: 'test.ping', start: '2030-01-01 00:00', tgt: ['h1'], kwarg });
    expect(created.status).toBe(201);
    const id = (created.body as { _id: string })._id;
    const patch = (i: number): Promise<number> => {
      const body = JSON.stringify({ name: `write-${i}`, arg: [String(i)] });
      const init = {
        method: 'PATCH',
        headers: { ...auth('operator'), 'Content-Type': 'application/json' },
        body,
      };
      return fetch(`${i % 2 === 0 ? a.url : b.url}/api/tasks/${id}`, init).then(
        async (r) => (await r.arrayBuffer(), r.status),
      );
    };
    const statuses = await Promise.all(Array.from({ length: 300 }, (_, i) => patch(i)));
    expect(statuses.filter((st) => st !== 200)).toEqual([]);
    const final = (await a.request.get(`/api/tasks/${id}`).set(auth('viewer'))).body as {
      name: string;
      arg: string[];
    };
    // Last write wins whole: the name and the arg of one and the same request.
    expect(final.name).toBe(`write-${final.arg[0] ?? ''}`);
  });
});
