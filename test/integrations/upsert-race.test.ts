/**
 * `upsertMany` is create-or-merge whoever writes first: a job return recorded at once by the
 * execution request, the event stream and the job cache (three paths, possibly three processes)
 * must end as one item, never a 409 "duplicate value for '_id'". The race is made deterministic
 * by a definition whose `prepare` hook stores the same id through the store (another writer)
 * between the upsert's read and its write; two servers on one SQLite file race for real.
 */
import { defineResource, f, systemContext } from '../../engine/src';
import { allResources } from '../../resources';
import { startTestServer, type TestServer } from '../helpers';

/** Ids whose creation the hook still pre-empts with a write of its own. */
const preempt = new Set<string>();

const records = defineResource({
  name: 'race_records',
  description: 'Throwaway resource of this test: its prepare hook creates the item it prepares.',
  id: 'natural',
  fields: { user: f.string({ nullable: true }), note: f.string({ nullable: true }) },
  methods: { list: 'viewer', get: 'viewer' },
  hooks: {
    async prepare({ op, fields, ctx }) {
      const given: Record<string, unknown> = fields;
      const id = typeof given['_id'] === 'string' ? given['_id'] : '';
      if (op === 'create' && preempt.delete(id)) {
        // Another writer (the event reader of another process) stores the same record first.
        await ctx.runtime.resources
          .get('race_records')
          .createMany([{ _id: id, user: 'operator', note: null }], systemContext(ctx.runtime));
      }
      return fields;
    },
  },
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ definitions: [...allResources, records] });
});
afterAll(() => server.close());

const api = () => server.engine.runtime.resources.get('race_records');
const ctx = () => systemContext(server.engine.runtime);

test('an upsert whose insert loses to another writer merges into the item that writer created', async () => {
  preempt.add('job-1host-a');
  const result = await api().upsertMany([{ _id: 'job-1host-a', note: 'from the event stream' }], ctx());
  expect(result).toEqual({ created: [], updated: ['job-1host-a'] });
  const [item] = await api().find({ where: { _id: 'job-1host-a' } }, ctx());
  // The other writer's field is kept, this write's field merged in: one item, nothing lost.
  expect(item).toMatchObject({ _id: 'job-1host-a', user: 'operator', note: 'from the event stream' });
});

test('in a batch, only the pre-empted item turns into a merge; the others are created', async () => {
  preempt.add('job-2host-b');
  const result = await api().upsertMany(
    [
      { _id: 'job-2host-a', note: 'a' },
      { _id: 'job-2host-b', note: 'b' },
    ],
    ctx(),
  );
  expect(result.created).toEqual(['job-2host-a']);
  expect(result.updated).toEqual(['job-2host-b']);
  expect(await api().count({ _id: { $in: ['job-2host-a', 'job-2host-b'] } }, ctx())).toBe(2);
});

test('a plain create of an existing id is still a 409: only upserts merge', async () => {
  await api().createMany([{ _id: 'job-3host-a', note: 'x' }], ctx());
  await expect(api().createMany([{ _id: 'job-3host-a', note: 'y' }], ctx())).rejects.toMatchObject({
    status: 409,
  });
});

test('two servers on one SQLite file upserting the same ids at once end with one item each', async () => {
  const second = await startTestServer({
    definitions: [...allResources, records],
    env: { DATABASE_URL: `sqlite:${server.dbPath}` },
  });
  try {
    const ids = Array.from({ length: 40 }, (_, i) => `job-4host-${String(i).padStart(2, '0')}`);
    const writes = ids.flatMap((id) => [
      api().upsertMany([{ _id: id, user: 'operator' }], ctx()),
      second.engine.runtime.resources
        .get('race_records')
        .upsertMany([{ _id: id, note: 'event' }], systemContext(second.engine.runtime)),
    ]);
    const results = await Promise.allSettled(writes);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const stored = await api().find({ where: { _id: { $in: ids } } }, ctx());
    expect(stored).toHaveLength(ids.length);
    for (const item of stored) expect(item).toMatchObject({ user: 'operator', note: 'event' });
  } finally {
    await second.close();
  }
});
