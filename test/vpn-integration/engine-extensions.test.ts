/**
 * The generic engine pieces the VPN integration rests on, on throwaway resources: `onWriteError`
 * undoes what `prepare` did outside the store when the write is then not stored (a reference
 * refused, another document of a bulk create refused, a lost race, with and without If-Match);
 * `beforeDelete` runs only once the declared relations allow the delete; a route's `download`
 * is an attachment no cache keeps.
 */
import { defineResource, f, systemContext } from '../../engine/src';
import { allResources } from '../../resources';
import { auth, expectEveError, startTestServer, type TestServer } from '../helpers';
import { bytes } from './support';

/** What the throwaway "peer" holds: names `prepare` made there and not undone. */
const peer = new Set<string>();
const undone: { name: string; status: number }[] = [];
const deletedOnPeer: string[] = [];
/** Writes of the hook's own racing change still to make. */
let racesLeft = 0;
let racing = false;

const parents = defineResource({
  name: 'undo_parents',
  description: 'Throwaway: the target of a restrict reference; its beforeDelete "deletes on a peer".',
  fields: { name: f.string({ required: true }) },
  methods: { list: 'viewer', get: 'viewer', create: 'admin', delete: 'admin' },
  hooks: {
    async beforeDelete({ doc }) {
      deletedOnPeer.push(doc.name);
    },
  },
  routes: [
    {
      method: 'get',
      path: '/:id/file',
      role: 'viewer',
      summary: 'A download',
      download: true,
      handler: async ({ params }) => ({
        download: {
          data: Buffer.from(`file of ${params.id ?? ''}\n`),
          contentType: 'application/x-openvpn-profile',
          filename: 'a b/é.ovpn',
        },
      }),
    },
  ],
});

const children = defineResource({
  name: 'undo_children',
  description: 'Throwaway: prepare makes a record on a peer; onWriteError removes it.',
  fields: {
    name: f.string({ required: true }),
    parent: f.ref('undo_parents', { onDelete: 'restrict' }),
    counter: f.integer({ readonly: true, default: 0 }),
  },
  methods: { list: 'viewer', get: 'viewer', create: 'admin', patch: 'admin' },
  hooks: {
    async prepare({ fields, original, ctx }) {
      if (fields.name !== undefined) peer.add(fields.name);
      if (original && racesLeft > 0 && !racing) {
        racesLeft -= 1;
        racing = true;
        try {
          await ctx.runtime.resources
            .get('undo_children')
            .patch(original._id, { counter: original.counter + 1 }, systemContext(ctx.runtime));
        } finally {
          racing = false;
        }
      }
      return fields;
    },
    async onWriteError({ fields, error }) {
      if (fields.name === undefined) return;
      peer.delete(fields.name);
      undone.push({ name: fields.name, status: (error as { status?: number }).status ?? 0 });
    },
  },
});

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ definitions: [...allResources, parents, children] });
});
afterAll(() => t.close());
beforeEach(() => {
  undone.length = 0;
});

const admin = auth('admin');

async function parent(name: string): Promise<string> {
  const res = await t.request.post('/api/undo_parents').set(admin).send({ name });
  expect(res.status).toBe(201);
  return (res.body as { _id: string })._id;
}

describe('onWriteError', () => {
  it('undoes a create whose reference the engine then refused (422)', async () => {
    expectEveError(
      await t.request
        .post('/api/undo_children')
        .set(admin)
        .send({ name: 'orphan', parent: 'ffffffffffffffffffffffff' }),
      422,
      {
        issues: ['parent'],
      },
    );
    expect(peer.has('orphan')).toBe(false);
    expect(undone).toEqual([{ name: 'orphan', status: 422 }]);
  });

  it('undoes the prepared documents of a bulk create another document failed', async () => {
    const res = await t.request
      .post('/api/undo_children')
      .set(admin)
      .send([{ name: 'first' }, { name: 'second', parent: 'ffffffffffffffffffffffff' }]);
    expect(res.status).toBe(422);
    expect([peer.has('first'), peer.has('second')]).toEqual([false, false]);
    expect(undone.map((u) => u.name).sort()).toEqual(['first', 'second']);
  });

  it('does not run when the write is stored', async () => {
    expect((await t.request.post('/api/undo_children').set(admin).send({ name: 'kept' })).status).toBe(201);
    expect(peer.has('kept')).toBe(true);
    expect(undone).toEqual([]);
  });

  it('undoes each attempt that lost a race; the retried attempt (no If-Match) is stored', async () => {
    const id = (
      (await t.request.post('/api/undo_children').set(admin).send({ name: 'racer' })).body as { _id: string }
    )._id;
    racesLeft = 2;
    expect(
      (await t.request.patch(`/api/undo_children/${id}`).set(admin).send({ name: 'racer-2' })).status,
    ).toBe(200);
    expect(undone).toEqual([
      { name: 'racer-2', status: 412 },
      { name: 'racer-2', status: 412 },
    ]);
    // Made three times on the peer, undone twice: the stored attempt's record is the one left.
    expect(peer.has('racer-2')).toBe(true);
  });

  it('with If-Match, the lost race is the 412 and its attempt is undone', async () => {
    const created = (await t.request.post('/api/undo_children').set(admin).send({ name: 'careful' }))
      .body as { _id: string; _etag: string };
    racesLeft = 1;
    expectEveError(
      await t.request
        .patch(`/api/undo_children/${created._id}`)
        .set(admin)
        .set('If-Match', `"${created._etag}"`)
        .send({ name: 'careful-2' }),
      412,
    );
    expect(undone).toEqual([{ name: 'careful-2', status: 412 }]);
  });
});

describe('beforeDelete', () => {
  it('does not run while a restrict reference refuses the delete (409), and runs once it allows it', async () => {
    const id = await parent('busy');
    const child = (
      (await t.request.post('/api/undo_children').set(admin).send({ name: 'uses-busy', parent: id }))
        .body as { _id: string }
    )._id;
    expectEveError(await t.request.delete(`/api/undo_parents/${id}`).set(admin), 409);
    expect(deletedOnPeer).not.toContain('busy');
    await t.store.update('undo_children', { _id: child }, { $unset: { parent: '' } });
    expect((await t.request.delete(`/api/undo_parents/${id}`).set(admin)).status).toBe(204);
    expect(deletedOnPeer).toContain('busy');
  });
});

describe('download', () => {
  it('is an attachment with its type and an RFC 8187 filename, never cached, never sniffed', async () => {
    const id = await parent('files');
    const res = await t.request
      .get(`/api/undo_parents/${id}/file`)
      .set(auth('viewer'))
      .buffer(true)
      .parse(bytes);
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'content-type': 'application/x-openvpn-profile',
      'content-disposition': "attachment; filename*=UTF-8''a%20b%2F%C3%A9.ovpn",
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-length': String(`file of ${id}\n`.length),
    });
    expect((res.body as Buffer).toString('utf8')).toBe(`file of ${id}\n`);
  });
});
