/**
 * Two generic engine pieces, on a throwaway resource: `afterWriteBatch` runs once per stored batch
 * with every item written (a single write, a `createMany`, each 500-item batch of `upsertMany` and
 * `patchMany`, unchanged items left out), after `afterWrite`; `ids(where)` of the local API gives
 * the ids of the visible matches (soft-delete scope, roles) without their documents.
 */
import { defineResource, f, systemContext, type CallContext } from '../../engine/src';
import { allResources } from '../../resources';
import { startTestServer, type TestServer } from '../helpers';

/** What the hooks saw, in order: `one:<id>` per afterWrite, `batch:<op>...` per afterWriteBatch. */
const seen: string[] = [];

const things = defineResource({
  name: 'batch_things',
  description: 'Throwaway: records its write hooks.',
  id: 'natural',
  fields: { n: f.integer({ default: 0 }), tag: f.string() },
  methods: { list: 'viewer', get: 'viewer', create: 'admin', patch: 'admin', delete: 'admin' },
  softDelete: { field: '_hidden', param: 'show_hidden' },
  indexes: [{ fields: [['tag', 1]] }],
  hooks: {
    async afterWrite({ doc }) {
      seen.push(`one:${doc._id}`);
    },
    async afterWriteBatch({ writes }) {
      const ops = new Set(writes.map((w) => `${w.op}${w.original ? '+original' : ''}`));
      seen.push(`batch:${writes.length}:${[...ops].sort().join(',')}`);
    },
  },
});

let t: TestServer;
let sys: CallContext;
const api = () => t.engine.runtime.resources.of(things);
const batches = () => seen.filter((s) => s.startsWith('batch:'));

beforeAll(async () => {
  t = await startTestServer({ definitions: [...allResources, things] });
  sys = systemContext(t.engine.runtime);
});
afterAll(() => t.close());
beforeEach(() => {
  seen.length = 0;
});

const ids = (from: number, count: number, prefix = 'a') =>
  Array.from({ length: count }, (_, i) => `${prefix}-${String(from + i).padStart(4, '0')}`);

describe('afterWriteBatch', () => {
  it('runs once per createMany, after afterWrite of each item', async () => {
    await api().createMany(
      ids(0, 3, 'c').map((_id) => ({ _id, n: 1 })),
      sys,
    );
    expect(seen).toEqual(['one:c-0000', 'one:c-0001', 'one:c-0002', 'batch:3:create']);
  });

  it('runs once per 500-item batch of upsertMany, with the originals of changed items only', async () => {
    await api().createMany(
      ids(0, 300, 'u').map((_id) => ({ _id, n: 1 })),
      sys,
    );
    seen.length = 0;
    // 200 unchanged, 100 changed, 900 new: batches of 500, 500 and 200 items asked for.
    const items = [
      ...ids(0, 200, 'u').map((_id) => ({ _id, n: 1 })),
      ...ids(200, 100, 'u').map((_id) => ({ _id, n: 2 })),
      ...ids(300, 900, 'u').map((_id) => ({ _id, n: 3 })),
    ];
    await api().upsertMany(items, sys);
    expect(batches()).toEqual(['batch:300:create,patch+original', 'batch:500:create', 'batch:200:create']);
  });

  it('runs for a single patch, and per page of patchMany', async () => {
    await api().createMany(
      ids(0, 600, 'p').map((_id) => ({ _id, tag: 'pm' })),
      sys,
    );
    seen.length = 0;
    await api().patch('p-0000', { n: 5 }, sys);
    expect(seen).toEqual(['one:p-0000', 'batch:1:patch+original']);
    seen.length = 0;
    expect(await api().patchMany({ tag: 'pm' }, { n: 7 }, sys)).toBe(600);
    expect(batches()).toEqual(['batch:500:patch+original', 'batch:100:patch+original']);
  });
});

describe('ids', () => {
  it('gives the visible matches` ids, hidden ones with showDeleted, for any role that may list', async () => {
    await api().createMany(
      ids(0, 5, 'i').map((_id) => ({ _id, tag: 'ids' })),
      sys,
    );
    await api().delete('i-0002', sys);
    const viewer: CallContext = { ...sys, principal: { name: 'v', role: 'viewer' } };
    expect((await api().ids({ tag: 'ids' }, viewer)).sort()).toEqual([
      'i-0000',
      'i-0001',
      'i-0003',
      'i-0004',
    ]);
    expect((await api().ids({ tag: 'ids' }, sys, { showDeleted: true })).sort()).toEqual(ids(0, 5, 'i'));
    expect(await api().ids({ tag: 'none' }, viewer)).toEqual([]);
  });

  it('is refused to a user where the resource offers no list', async () => {
    const viewer: CallContext = { ...sys, principal: { name: 'v', role: 'viewer' } };
    await expect(t.engine.runtime.resources.get('host_rules').ids({}, viewer)).rejects.toMatchObject({
      status: 403,
    });
  });
});
