/**
 * A write without If-Match asks for last-write-wins: when another writer (the fleet sync, a second
 * request) changes the item between our read and our write, the write is redone on the fresh item
 * — the other writer's change is kept, nothing fails. With If-Match the same race is a 412.
 * The race is made deterministic by a definition whose `prepare` hook writes to the item itself,
 * through the store, the first time it runs.
 */
import { defineResource, f, systemContext } from '../../engine/src';
import { allResources } from '../../resources';
import { auth, expectEveError, startTestServer, type TestServer } from '../helpers';

/** How many racing writes the hook still makes. */
let racesLeft = 0;
/** Set while the hook's own racing write runs (its prepare must not race again). */
let racing = false;

const racy = defineResource({
  name: 'racy_items',
  description: 'Throwaway resource of this test: its prepare hook races the write it prepares.',
  fields: { note: f.string(), counter: f.integer({ readonly: true, default: 0 }) },
  methods: { list: 'viewer', get: 'viewer', create: 'operator', patch: 'operator', replace: 'operator' },
  hooks: {
    async prepare({ fields, original, ctx }) {
      if (original && racesLeft > 0 && !racing) {
        racesLeft -= 1;
        racing = true;
        try {
          // Another writer (the service itself) changes the item between this write's read and its write.
          await ctx.runtime.resources.get('racy_items').patch(original._id, { counter: original.counter + 1 }, systemContext(ctx.runtime));
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
  test.each(['patch', 'put'] as const)('without If-Match (%s) is redone on the fresh item; the other write is kept', async (method) => {
    const { id } = await newItem();
    racesLeft = 1;
    const res = await server.request[method](`/api/racy_items/${id}`).set(auth('operator')).send({ note: 'second' });
    expect(res.status).toBe(200);
    const item = (await server.request.get(`/api/racy_items/${id}`).set(auth('viewer'))).body as { note: string; counter: number };
    expect(item).toMatchObject({ note: 'second', counter: 1 });
  });

  test('without If-Match, a writer that keeps losing gets a 412 after a few attempts, nothing half-written', async () => {
    const { id } = await newItem();
    racesLeft = 10;
    const res = await server.request.patch(`/api/racy_items/${id}`).set(auth('operator')).send({ note: 'never' });
    expectEveError(res, 412);
    racesLeft = 0;
    const item = (await server.request.get(`/api/racy_items/${id}`).set(auth('viewer'))).body as { note: string; counter: number };
    expect(item.note).toBe('first');
    expect(item.counter).toBe(3);
  });

  test('with If-Match, the race is the 412 the client asked for', async () => {
    const { id, etag } = await newItem();
    racesLeft = 1;
    const res = await server.request.patch(`/api/racy_items/${id}`).set(auth('operator')).set('If-Match', `"${etag}"`).send({ note: 'second' });
    expectEveError(res, 412);
    racesLeft = 0;
    const item = (await server.request.get(`/api/racy_items/${id}`).set(auth('viewer'))).body as { note: string; counter: number };
    expect(item).toMatchObject({ note: 'first', counter: 1 });
  });
});
