/**
 * groups through HTTP: static membership written to the hosts, subgroups, deletion (by id and by
 * type) with its clean-up, the `subgroups` and `hostnames` routes, and the refusals (422).
 */
import {
  auth,
  expectEveError,
  insertHost,
  startTestServer,
  uniqueName,
  type TestServer,
} from '../../helpers';
import { createGroup, hostGroups, q } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const fqdn = (prefix: string) => `${prefix}.fleet.test`;

async function hosts(...names: string[]): Promise<string[]> {
  for (const name of names) await insertHost(t.store, name);
  return names;
}

async function getGroup(id: string, query = ''): Promise<Record<string, unknown>> {
  const res = await t.request.get(`/api/groups/${id}${query}`).set(auth('viewer'));
  expect(res.status).toBe(200);
  return res.body as Record<string, unknown>;
}

describe('POST /api/groups', () => {
  it('creates the group and writes its `hosts` into those hosts` groups', async () => {
    const [a, b, other] = await hosts(fqdn(uniqueName('a')), fqdn(uniqueName('b')), fqdn(uniqueName('c')));
    const res = await t.request
      .post('/api/groups')
      .set(auth('admin'))
      .send({ name: uniqueName('g'), type: 0, hosts: [a, b] });
    expect(res.status).toBe(201);
    const id = (res.body as { _id: string })._id;
    expect(res.body).toMatchObject({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      _status: 'OK',
      _links: { self: { title: 'Group', href: `groups/${id}` } },
    });
    expect(res.headers.location).toBe(`/api/groups/${id}`);
    expect(await hostGroups(t, a ?? '')).toEqual([id]);
    expect(await hostGroups(t, b ?? '')).toEqual([id]);
    expect(await hostGroups(t, other ?? '')).toEqual([]);
    const item = await getGroup(id);
    expect(item).not.toHaveProperty('hosts');
    expect(item).toMatchObject({ type: 0, subgroups: [] });
  });

  it('links its subgroups under _links.related.subgroups in the write response', async () => {
    const child = await createGroup(t, { name: uniqueName('child'), type: 1, info: { regex: 'nothing-' } });
    const res = await t.request
      .post('/api/groups')
      .set(auth('admin'))
      .send({ name: uniqueName('parent'), type: 0, subgroups: [child] });
    expect(res.status).toBe(201);
    expect((res.body as { _links: unknown })._links).toEqual({
      self: { title: 'Group', href: `groups/${(res.body as { _id: string })._id}` },
      related: { subgroups: [{ title: 'Group', href: `groups/${child}` }] },
    });
  });

  it('refuses an unknown host with 422 and stores nothing', async () => {
    const name = uniqueName('g');
    const res = await t.request
      .post('/api/groups')
      .set(auth('admin'))
      .send({ name, hosts: [fqdn(uniqueName('missing'))] });
    expectEveError(res, 422, { issues: ['hosts'] });
    expect(await t.store.count('groups', { name })).toBe(0);
  });

  it('refuses an unknown subgroup with 422 naming subgroups, and stores nothing', async () => {
    const name = uniqueName('g');
    const res = await t.request
      .post('/api/groups')
      .set(auth('admin'))
      .send({ name, subgroups: ['0123456789abcdef01234567'] });
    expectEveError(res, 422, { issues: ['subgroups'] });
    expect(await t.store.count('groups', { name })).toBe(0);
  });

  it('refuses a body that breaks the definition (type out of its enum, missing name)', async () => {
    expectEveError(
      await t.request
        .post('/api/groups')
        .set(auth('admin'))
        .send({ name: uniqueName('g'), type: 9 }),
      422,
      { issues: ['type'] },
    );
    expectEveError(await t.request.post('/api/groups').set(auth('admin')).send({ type: 0 }), 422, {
      issues: ['name'],
    });
  });

  it.each([
    ['a pattern that does not compile', '(web'],
    ['a back-reference (no linear-time engine can run it)', '(web)\\1'],
    ['a look-ahead', 'web(?=-01)'],
    ['a nested quantifier (MongoDB would backtrack on it)', '(a+)+$'],
  ])('refuses a rule regex that is %s with 422 naming info.regex', async (_case, regex) => {
    const name = uniqueName('g');
    const err = expectEveError(
      await t.request.post('/api/groups').set(auth('admin')).send({ name, type: 1, info: { regex } }),
      422,
      { issues: ['info'] },
    );
    // Nested like the document, as Eve's _issues are (issue 15).
    expect(Object.keys(err._issues?.info as unknown as object)).toEqual(['regex']);
    expect(await t.store.count('groups', { name })).toBe(0);
  });

  it('runs a rule that backtracks on other engines in linear time', async () => {
    const res = await t.request
      .post('/api/groups')
      .set(auth('admin'))
      .send({ name: uniqueName('g'), type: 1, info: { regex: '.*.*.*.*.*.*.*=' } });
    expect(res.status).toBe(201);
    const hostnames = await t.request
      .get(`/api/groups/${String(res.body._id)}/hostnames`)
      .set(auth('viewer'));
    expect(hostnames.body).toEqual([]);
  });

  it('needs the admin role', async () => {
    expectEveError(
      await t.request
        .post('/api/groups')
        .set(auth('operator'))
        .send({ name: uniqueName('g') }),
      403,
    );
  });
});

describe('PATCH /api/groups/{id}', () => {
  it('replaces the static members: hosts left out lose the group, new ones gain it', async () => {
    const [a, b, c] = await hosts(fqdn(uniqueName('a')), fqdn(uniqueName('b')), fqdn(uniqueName('c')));
    const id = await createGroup(t, { name: uniqueName('g'), hosts: [a, b] });
    const res = await t.request
      .patch(`/api/groups/${id}`)
      .set(auth('admin'))
      .send({ hosts: [b, c] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: id, _status: 'OK', _links: { self: { href: `groups/${id}` } } });
    expect(await hostGroups(t, a ?? '')).toEqual([]);
    expect(await hostGroups(t, b ?? '')).toEqual([id]);
    expect(await hostGroups(t, c ?? '')).toEqual([id]);
    const names = await t.request.get(`/api/groups/${id}/hostnames`).set(auth('viewer'));
    expect(names.body).toEqual([b, c].sort());
  });

  it('keeps the members of other groups when one group changes its hosts', async () => {
    const [a] = await hosts(fqdn(uniqueName('a')));
    const g1 = await createGroup(t, { name: uniqueName('g1'), hosts: [a] });
    const g2 = await createGroup(t, { name: uniqueName('g2'), hosts: [a] });
    await t.request.patch(`/api/groups/${g1}`).set(auth('admin')).send({ hosts: [] }).expect(200);
    expect(await hostGroups(t, a ?? '')).toEqual([g2]);
  });

  it('sets the subgroups, read back by /subgroups, _links.related and embedded', async () => {
    const c1 = await createGroup(t, { name: uniqueName('c1'), type: 1, info: { regex: 'x-' } });
    const c2 = await createGroup(t, { name: uniqueName('c2'), type: 0 });
    const parent = await createGroup(t, { name: uniqueName('p'), type: 0 });
    const res = await t.request
      .patch(`/api/groups/${parent}`)
      .set(auth('admin'))
      .send({ subgroups: [c1, c2, c1] });
    expect(res.status).toBe(200);
    const sub = await t.request.get(`/api/groups/${parent}/subgroups`).set(auth('viewer'));
    expect(sub.status).toBe(200);
    expect(sub.body).toEqual([c1, c2]);
    const item = await getGroup(parent);
    expect(item._links).toMatchObject({
      related: {
        subgroups: [
          { title: 'Group', href: `groups/${c1}` },
          { title: 'Group', href: `groups/${c2}` },
        ],
      },
    });
    const embedded = await getGroup(parent, `?embedded=${q({ subgroups: 1 })}`);
    expect(embedded.subgroups).toEqual([
      expect.objectContaining({ _id: c1, type: 1, info: { regex: 'x-' } }),
      expect.objectContaining({ _id: c2, type: 0 }),
    ]);
  });

  it('refuses a cycle, direct or through nested subgroups, and changes nothing', async () => {
    const c = await createGroup(t, { name: uniqueName('c') });
    const b = await createGroup(t, { name: uniqueName('b'), subgroups: [c] });
    const a = await createGroup(t, { name: uniqueName('a'), subgroups: [b] });
    expectEveError(
      await t.request
        .patch(`/api/groups/${c}`)
        .set(auth('admin'))
        .send({ subgroups: [a] }),
      422,
      { issues: ['subgroups'] },
    );
    expectEveError(
      await t.request
        .patch(`/api/groups/${a}`)
        .set(auth('admin'))
        .send({ subgroups: [a] }),
      422,
      { issues: ['subgroups'] },
    );
    expect((await getGroup(c)).subgroups).toEqual([]);
    expect((await getGroup(a)).subgroups).toEqual([b]);
  });

  it('refuses an unknown subgroup with 422', async () => {
    const id = await createGroup(t, { name: uniqueName('g') });
    const res = await t.request
      .patch(`/api/groups/${id}`)
      .set(auth('admin'))
      .send({ subgroups: ['ffffffffffffffffffffffff'] });
    expectEveError(res, 422, { issues: ['subgroups'] });
  });

  it('answers 404 for an unknown group', async () => {
    expectEveError(
      await t.request.patch('/api/groups/ffffffffffffffffffffffff').set(auth('admin')).send({ name: 'x' }),
      404,
    );
  });
});

describe('DELETE /api/groups/{id}', () => {
  it('deletes the group and removes it from its parents` subgroups and its hosts` groups', async () => {
    const [a, b] = await hosts(fqdn(uniqueName('a')), fqdn(uniqueName('b')));
    const keep = await createGroup(t, { name: uniqueName('keep'), hosts: [a] });
    const gone = await createGroup(t, { name: uniqueName('gone'), hosts: [a, b] });
    const p1 = await createGroup(t, { name: uniqueName('p1'), subgroups: [gone, keep] });
    const p2 = await createGroup(t, { name: uniqueName('p2'), subgroups: [gone] });
    const res = await t.request.delete(`/api/groups/${gone}`).set(auth('admin'));
    expect(res.status).toBe(204);
    expectEveError(await t.request.get(`/api/groups/${gone}`).set(auth('viewer')), 404);
    expect((await getGroup(p1)).subgroups).toEqual([keep]);
    expect((await getGroup(p2)).subgroups).toEqual([]);
    expect(await hostGroups(t, a ?? '')).toEqual([keep]);
    expect(await hostGroups(t, b ?? '')).toEqual([]);
  });

  it('answers 404 for an unknown group and 403 below admin', async () => {
    expectEveError(await t.request.delete('/api/groups/ffffffffffffffffffffffff').set(auth('admin')), 404);
    const id = await createGroup(t, { name: uniqueName('g') });
    expectEveError(await t.request.delete(`/api/groups/${id}`).set(auth('operator')), 403);
    await getGroup(id);
  });
});

describe('DELETE /api/groups?where={"type": ...}', () => {
  /** Creates one group of each type 0..4 (the 3 under the 0) and returns their ids by type. */
  async function oneOfEachType(): Promise<Record<number, string>> {
    const ids: Record<number, string> = {};
    for (const type of [2, 3, 4, 1])
      ids[type] = await createGroup(t, {
        name: uniqueName(`t${type}`),
        type,
        ...(type === 1 ? { info: { regex: 'none-' } } : {}),
      });
    ids[0] = await createGroup(t, { name: uniqueName('t0'), type: 0, subgroups: [ids[3], ids[1]] });
    return ids;
  }

  async function remaining(ids: Record<number, string>): Promise<number[]> {
    const found = await t.store.find(
      'groups',
      { _id: { $in: Object.values(ids) } },
      { projection: { type: 1 } },
    );
    return found.map((g) => g.type as number).sort();
  }

  it.each([
    ['an integer', { type: 2 }, [0, 1, 3, 4]],
    ['an array of integers', { type: [3, 4] }, [0, 1, 2]],
    ['$in', { type: { $in: [2, 3, 4] } }, [0, 1]],
  ])('deletes every group of the given type(s) given as %s', async (_form, where, left) => {
    const ids = await oneOfEachType();
    const res = await t.request.delete(`/api/groups?where=${q(where)}`).set(auth('admin'));
    expect(res.status).toBe(204);
    expect(Number(res.headers['x-deleted-count'])).toBeGreaterThanOrEqual(5 - left.length);
    expect(await remaining(ids)).toEqual(left);
  });

  it('removes a deleted group from the subgroups of the groups that remain', async () => {
    const ids = await oneOfEachType();
    await t.request
      .delete(`/api/groups?where=${q({ type: [3] })}`)
      .set(auth('admin'))
      .expect(204);
    expect((await getGroup(ids[0] ?? '')).subgroups).toEqual([ids[1]]);
  });

  it.each([
    ['no where', ''],
    ['a field other than type', `?where=${q({ name: 'x' })}`],
    ['a type that is not an integer', `?where=${q({ type: 'a' })}`],
    ['an empty list of types', `?where=${q({ type: [] })}`],
    ['invalid JSON', '?where=%7Btype'],
  ])('refuses %s with 400 and deletes nothing', async (_case, query) => {
    const ids = await oneOfEachType();
    expectEveError(await t.request.delete(`/api/groups${query}`).set(auth('admin')), 400);
    expect(await remaining(ids)).toEqual([0, 1, 2, 3, 4]);
  });

  it('needs the admin role', async () => {
    const ids = await oneOfEachType();
    expectEveError(await t.request.delete(`/api/groups?where=${q({ type: 2 })}`).set(auth('operator')), 403);
    expect(await remaining(ids)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('GET /api/groups/{id}/hostnames', () => {
  it('lists static members, anchored regex and grain matches of all nested subgroups: sorted, unique, soft-deleted excluded', async () => {
    const p = uniqueName('hn');
    const marker = uniqueName('os');
    const channel = uniqueName('ch');
    await insertHost(t.store, `${p}-web-2.fleet.test`);
    await insertHost(t.store, `${p}-web-1.fleet.test`);
    await insertHost(t.store, `x${p}-web-3.fleet.test`); // the regex is anchored: no match
    await insertHost(t.store, `${p}-web-gone.fleet.test`, { _soft_deleted: true });
    await insertHost(t.store, `${p}-db-1.fleet.test`, { grain: { lsb_distrib_id: marker } });
    await insertHost(t.store, `${p}-db-2.fleet.test`, {
      grain: { lsb_distrib_id: 'Debian', tool: { channel } },
    });
    await insertHost(t.store, `${p}-static.fleet.test`);
    await insertHost(t.store, `${p}-other.fleet.test`);

    const byRegex = await createGroup(t, { name: uniqueName('re'), type: 1, info: { regex: `${p}-web` } });
    const byGrain = await createGroup(t, {
      name: uniqueName('gr'),
      type: 1,
      info: { grain: { lsb_distrib_id: marker } },
    });
    const byDotted = await createGroup(t, {
      name: uniqueName('gd'),
      type: 1,
      info: { grain: { 'tool.channel': channel } },
    });
    const mid = await createGroup(t, {
      name: uniqueName('mid'),
      subgroups: [byRegex, byGrain],
      hosts: [`${p}-web-1.fleet.test`],
    });
    const top = await createGroup(t, {
      name: uniqueName('top'),
      subgroups: [mid, byDotted, byRegex],
      hosts: [`${p}-static.fleet.test`],
    });

    const res = await t.request.get(`/api/groups/${top}/hostnames`).set(auth('viewer'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      `${p}-db-1.fleet.test`,
      `${p}-db-2.fleet.test`,
      `${p}-static.fleet.test`,
      `${p}-web-1.fleet.test`,
      `${p}-web-2.fleet.test`,
    ]);
    const leaf = await t.request.get(`/api/groups/${byRegex}/hostnames`).set(auth('viewer'));
    expect(leaf.body).toEqual([`${p}-web-1.fleet.test`, `${p}-web-2.fleet.test`]);
  });

  it('drops a host from the list once it is soft-deleted', async () => {
    const [a, b] = await hosts(fqdn(uniqueName('a')), fqdn(uniqueName('b')));
    const id = await createGroup(t, { name: uniqueName('g'), hosts: [a, b] });
    await t.request
      .delete(`/api/hosts/${a ?? ''}`)
      .set(auth('admin'))
      .expect(204);
    const res = await t.request.get(`/api/groups/${id}/hostnames`).set(auth('viewer'));
    expect(res.body).toEqual([b]);
  });

  it('answers [] for a group without members and 404 for an unknown group', async () => {
    const id = await createGroup(t, { name: uniqueName('empty') });
    expect((await t.request.get(`/api/groups/${id}/hostnames`).set(auth('viewer'))).body).toEqual([]);
    expectEveError(
      await t.request.get('/api/groups/ffffffffffffffffffffffff/hostnames').set(auth('viewer')),
      404,
    );
    expectEveError(
      await t.request.get('/api/groups/ffffffffffffffffffffffff/subgroups').set(auth('viewer')),
      404,
    );
  });

  it('needs a token', async () => {
    const id = await createGroup(t, { name: uniqueName('g') });
    expectEveError(await t.request.get(`/api/groups/${id}/hostnames`), 401);
  });
});
