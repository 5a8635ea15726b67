/**
 * POST /api/updates over real HTTP against salt-sim: the master's `patches/` directory is listed
 * (runner fileserver.file_list), each file read (cp.get_file_str) and upserted by name; a local
 * description survives later downloads; changed files are updated, unchanged ones left alone.
 */
import { auth, expectEveError } from '../helpers';
import { startMasterEnv, type MasterEnv } from './master-env';

let env: MasterEnv;

beforeAll(async () => {
  env = await startMasterEnv();
});

afterAll(async () => {
  await env.close();
});

interface Update {
  _id: string;
  name: string;
  text: string;
  description: string;
  _etag: string;
}

async function updates(): Promise<Update[]> {
  const res = await env.api.request.get('/api/updates').query({ max_results: '100' }).set(auth('viewer'));
  expect(res.status).toBe(200);
  return (res.body as { _items: Update[] })._items;
}

function simPatches(): Map<string, string> {
  return new Map(
    [...env.sim.fleet.files]
      .filter(([path]) => path.startsWith('patches/'))
      .map(([path, text]) => [path.slice('patches/'.length), text]),
  );
}

describe('POST /api/updates', () => {
  it('downloads every patch of the master into updates, keyed by name', async () => {
    const expected = simPatches();
    expect(expected.size).toBeGreaterThan(0);
    const res = await env.api.request.post('/api/updates').set(auth('operator'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _status: 'OK',
      created: expected.size,
      updated: 0,
      names: [...expected.keys()].sort(),
    });
    const stored = await updates();
    expect(Object.fromEntries(stored.map((u) => [u.name, u.text]))).toEqual(Object.fromEntries(expected));
    for (const u of stored) {
      expect(u._id).toMatch(/^[0-9a-f]{24}$/);
      expect(u.description).toBe('');
    }
  });

  it('keeps local descriptions, updates changed patches, adds new ones and leaves unchanged ones alone', async () => {
    const [first, second] = await updates();
    if (!first || !second) throw new Error('the first test stores the patches');
    await env.api.request
      .patch(`/api/updates/${first._id}`)
      .set(auth('operator'))
      .send({ description: 'Reviewed by ops' })
      .expect(200);
    env.sim.fleet.files.set(`patches/${second.name}`, `${second.text}\n# revised\n`);
    env.sim.fleet.files.set('patches/zz-new-patch.sls', 'zz_step:\n  cmd.run:\n    - name: true\n');
    const untouched = (await updates()).find((u) => u._id !== first._id && u._id !== second._id);

    const res = await env.api.request.post('/api/updates').set(auth('operator'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _status: 'OK', created: 1, updated: 1 });
    expect((res.body as { names: string[] }).names).toContain('zz-new-patch.sls');

    const after = new Map((await updates()).map((u) => [u._id, u]));
    expect(after.get(first._id)?.description).toBe('Reviewed by ops');
    expect(after.get(second._id)?.text).toMatch(/# revised\n$/);
    if (untouched) expect(after.get(untouched._id)?._etag).toBe(untouched._etag);
    expect([...after.values()].some((u) => u.name === 'zz-new-patch.sls')).toBe(true);
  });

  it('changes nothing when run again', async () => {
    const before = await updates();
    const res = await env.api.request.post('/api/updates').set(auth('operator'));
    expect(res.body).toMatchObject({ created: 0, updated: 0 });
    expect(await updates()).toEqual(before);
  });

  it('needs the operator role', async () => {
    expectEveError(await env.api.request.post('/api/updates').set(auth('viewer')), 403);
  });

  it('answers 503 naming the reason when the master is down, and keeps the stored patches', async () => {
    const before = await updates();
    await env.sim.controls.masterDown(true);
    try {
      const res = await env.api.request.post('/api/updates').set(auth('operator'));
      expect(expectEveError(res, 503)._error.message).toMatch(/salt master unreachable/);
    } finally {
      await env.sim.controls.masterDown(false);
    }
    expect(await updates()).toEqual(before);
  });
});
