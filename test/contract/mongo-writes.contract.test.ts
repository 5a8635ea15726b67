/**
 * Live, when `MONGO_URL` is set: multi-document writes through the real operations are all or
 * nothing on the server. Any topology: on a replica set or sharded cluster they run in a
 * transaction, on a standalone server the earlier writes of a failed batch are taken back; each
 * test names the topology it found. Without a server: test/mongo/atomic-writes.test.ts.
 */
import { Readable } from 'node:stream';
import { createRegistry } from '../../engine/src/compile/registry';
import { defineResource } from '../../engine/src/definition/define';
import { type CallContext, type Runtime } from '../../engine/src/definition/local-api';
import { f } from '../../engine/src/definition/fields';
import { Conflict, PreconditionFailed } from '../../engine/src/errors';
import { SYSTEM } from '../../engine/src/engine';
import { createLocalApi } from '../../engine/src/ops/collection';
import { createSecretBox } from '../../engine/src/secrets';
import type { MongoStore } from '../../engine/src/store/mongo';
import type { Store } from '../../engine/src/store/port';
import { liveSuite, openThrowaway } from './mongo-live';

/** What the hooks saw, per test. */
const seen = {
  afterDelete: [] as string[],
  beforeDelete: 0,
  race: undefined as (() => Promise<void>) | undefined,
};

const tags = defineResource({
  name: 'tags',
  description: 'referenced by items; deleting one pulls it from them',
  fields: { label: f.string() },
  methods: { delete: 'admin', list: 'viewer' },
  hooks: {
    async beforeDelete() {
      const race = seen.race;
      seen.race = undefined;
      await race?.();
    },
  },
});

const items = defineResource({
  name: 'items',
  description: 'unique names, a file each, tags pulled on delete',
  fields: {
    name: f.string({ required: true, unique: true }),
    data: f.media(),
    tags: f.array(f.ref('tags', { onDelete: 'pull' }), { default: () => [] }),
  },
  methods: { create: 'admin', delete: 'admin', deleteMany: 'admin', list: 'viewer' },
  hooks: {
    async beforeDelete() {
      seen.beforeDelete++;
      const race = seen.race;
      seen.race = undefined;
      await race?.();
    },
    async afterDelete({ doc }) {
      seen.afterDelete.push(doc._id);
    },
  },
});

liveSuite('all-or-nothing writes', 'any MongoDB 4.4+ (replica set: transactions; standalone: undo)', () => {
  let store: Store;
  let mongo: MongoStore;
  let runtime: Runtime;
  let ctx: CallContext;

  beforeEach(async () => {
    ({ store, mongo } = await openThrowaway());
    const registry = createRegistry([tags, items]);
    for (const res of registry.resources.values()) await store.ensureCollection(res.collection);
    await mongo.backgroundSettled();
    runtime = {
      resources: createLocalApi({ registry, store, secrets: createSecretBox('k') }),
      media: store.media,
      leases: store.leases,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined },
      services: {},
      config: {},
    };
    ctx = { principal: SYSTEM, now: new Date(), runtime };
    seen.afterDelete = [];
    seen.beforeDelete = 0;
    seen.race = undefined;
  });
  afterEach(async () => {
    await store.close();
  });

  const upload = async (text: string): Promise<string> =>
    (
      await runtime.media.put(Readable.from([Buffer.from(text)]), {
        filename: `${text}.txt`,
        contentType: 'text/plain',
      })
    ).id;

  test('a bulk create with a duplicate at position 3 stores nothing: 409 naming the field', async () => {
    const topology = (await mongo.server()).topology;
    await runtime.resources.get('items').create({ name: 'a' }, ctx);
    const bulk = runtime.resources
      .get('items')
      .createMany([{ name: 'x' }, { name: 'y' }, { name: 'a' }, { name: 'z' }], ctx);
    await expect(bulk).rejects.toBeInstanceOf(Conflict);
    await expect(bulk).rejects.toMatchObject({ field: 'name' });
    expect([topology, (await store.find('items', {})).map((d) => d.name)]).toEqual([topology, ['a']]);
  });

  test('a deleteMany that loses a race half-way is redone whole: no orphan media, every afterDelete run once', async () => {
    const api = runtime.resources.get('items');
    const created = await api.createMany(
      await Promise.all(['p', 'q', 'r'].map(async (name) => ({ name, data: await upload(name) }))),
      ctx,
    );
    const last = created[2];
    // Once, between the read and the write: another writer changes the last item.
    seen.race = async () => {
      if (last)
        await store.update('items', { _id: last._id }, { $set: { _etag: 'changed-by-another-writer' } });
    };
    await expect(api.deleteMany({ name: { $in: ['p', 'q', 'r'] } }, ctx)).resolves.toBe(3);
    expect(await store.count('items', {})).toBe(0);
    expect(await store.count('media.files', {})).toBe(0);
    expect(await store.count('media.chunks', {})).toBe(0);
    expect([...seen.afterDelete].sort()).toEqual(created.map((d) => d._id).sort());
    // The first attempt ran the hooks before it lost; the second ran them again.
    expect(seen.beforeDelete).toBe(6);
  });

  test('a delete whose pulls were written and whose own write then fails takes the pulls back (412)', async () => {
    const tag = await runtime.resources.get('tags').create({ label: 't' }, ctx);
    await runtime.resources.get('items').createMany(
      [
        { name: 'm', tags: [tag._id] },
        { name: 'n', tags: [tag._id] },
      ],
      ctx,
    );
    // The tag changes under the delete, after its relation effects were planned.
    seen.race = async () => {
      await store.update('tags', { _id: tag._id }, { $set: { _etag: 'changed' } });
    };
    const del = runtime.resources.get('tags').delete(tag._id, ctx, { ifMatch: tag._etag });
    await expect(del).rejects.toBeInstanceOf(PreconditionFailed);
    expect((await store.find('items', {}, { sort: [['name', 1]] })).map((d) => d.tags)).toEqual([
      [tag._id],
      [tag._id],
    ]);
  });

  test('a batch that fails on its last write leaves nothing of it', async () => {
    await store.insert('things', [{ _id: 'keep', n: 1, _etag: 'k1' }]);
    const batch = store.write([
      { op: 'insert', collection: 'things', doc: { _id: 'new1', n: 2 } },
      { op: 'replace', collection: 'things', doc: { _id: 'keep', n: 9, _etag: 'k2' }, ifEtag: 'k1' },
      { op: 'delete', collection: 'things', id: 'keep', ifEtag: 'not-k2' },
    ]);
    await expect(batch).rejects.toBeInstanceOf(PreconditionFailed);
    expect(await store.find('things', {})).toEqual([{ _id: 'keep', n: 1, _etag: 'k1' }]);
  });
});
