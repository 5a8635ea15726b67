/**
 * `patchEach`: many stored items patched with what a function decides from each one's stored
 * version, in one batch (a burst's hosts moving their `last_action` forward). Ids not stored are
 * skipped; an item the function leaves alone is not written; and when another writer changes an
 * item between the read and the write, the function decides again on the fresh version, so a
 * value only moving forward never goes back. The race is made deterministic by a definition
 * whose `prepare` hook writes the item (another writer) before the batch is stored.
 */
import { defineResource, f, Forbidden, systemContext, type AnyItem } from '../../engine/src';
import { allResources } from '../../resources';
import { startTestServer, type TestServer } from '../helpers';

/** Ids whose next patch the hook pre-empts by moving `mark` to this value first. */
const preempt = new Map<string, string>();

const marks = defineResource({
  name: 'mark_records',
  description: 'Throwaway resource of this test: its prepare hook may write the item it prepares.',
  id: 'natural',
  fields: { mark: f.string({ nullable: true }), note: f.string({ nullable: true }) },
  methods: { list: 'viewer', get: 'viewer' },
  hooks: {
    async prepare({ op, fields, original, ctx }) {
      const newer = original === undefined ? undefined : preempt.get(original._id);
      if (op === 'patch' && original !== undefined && newer !== undefined) {
        preempt.delete(original._id);
        await ctx.runtime.resources
          .get('mark_records')
          .patch(original._id, { mark: newer }, systemContext(ctx.runtime));
      }
      return fields;
    },
  },
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ definitions: [...allResources, marks] });
  await api().createMany(
    ['a', 'b', 'c'].map((id) => ({ _id: id, mark: '10', note: null })),
    ctx(),
  );
});
afterAll(() => server.close());

const api = () => server.engine.runtime.resources.get('mark_records');
const ctx = () => systemContext(server.engine.runtime);
/** Moves `mark` forward to `to`, never back. */
const forwardTo =
  (to: string) =>
  (item: AnyItem): Record<string, unknown> | undefined =>
    typeof item['mark'] === 'string' && item['mark'] >= to ? undefined : { mark: to };
const stored = async () =>
  Object.fromEntries(
    (await api().find({ where: {}, sort: [['_id', 1]] }, ctx())).map((i) => [i._id, [i['mark'], i['note']]]),
  );

test('patches the stored items the function changes; skips ids not stored and items it leaves', async () => {
  await api().patch('c', { mark: '30' }, ctx());
  const before = await api().get('c', ctx());
  const written = await api().patchEach(['a', 'b', 'c', 'missing'], forwardTo('20'), ctx());
  expect(written.sort()).toEqual(['a', 'b']);
  expect(await stored()).toEqual({ a: ['20', null], b: ['20', null], c: ['30', null] });
  // Left alone means not written: the same version.
  expect((await api().get('c', ctx()))._etag).toBe(before._etag);
  await expect(api().get('missing', ctx())).rejects.toThrow();
});

test('a race lost to another writer decides again on the fresh item: a forward move never goes back', async () => {
  // Between this batch's read and its write, another writer moves a's mark to 90.
  preempt.set('a', '90');
  const written = await api().patchEach(['a', 'b'], forwardTo('50'), ctx());
  expect(written).toEqual(['b']);
  expect(await stored()).toMatchObject({ a: ['90', null], b: ['50', null] });
});

test("no token may call it, an admin's either: it is the service's own", async () => {
  const admin = { ...ctx(), principal: { name: 'ops', role: 'admin' as const } };
  await expect(api().patchEach(['a'], forwardTo('99'), admin)).rejects.toBeInstanceOf(Forbidden);
  expect((await api().get('a', ctx()))['mark']).toBe('90');
});
