/**
 * groups through HTTP: static membership written to the hosts, subgroups, deletion (by id and by
 * type) with its clean-up, the `subgroups` and `hostnames` routes, and the refusals (422).
 */
import fc from 'fast-check';
import {
  compileMatcher,
  createEngine,
  createSecretBox,
  systemContext,
  type Engine,
} from '../../../engine/src';
import { openSqliteStore } from '../../../engine/src/store/sqlite';
import { allResources, allRouteGroups, hosts as hostsResource } from '../../../resources';
import { groupsRef } from '../../../resources/groups/fields';
import { groupTree } from '../../../resources/groups/membership';
import { type Rule, ruleFilter, ruleKey, ruleOf, RuleSet } from '../../../resources/groups/rules';
import {
  auth,
  capturingLog,
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
    // Nested like the document, as Eve's _issues are.
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

/**
 * Membership is kept as hosts and groups change (resources/groups/upkeep.ts), never matched per
 * request: after every kind of change, `hostnames` must equal what matching every host against
 * the group tree's rules answers (the oracle below, the store's own `$or` of the rules).
 */
describe('membership kept as hosts and groups change', () => {
  const sys = () => systemContext(t.engine.runtime);
  const hostsApi = () => t.engine.runtime.resources.of(hostsResource);

  /** Creates or changes hosts as the sync does (the system principal, one batch). */
  async function sync(items: readonly (Record<string, unknown> & { _id: string })[]): Promise<void> {
    await hostsApi().upsertMany(
      items.map((i) => ({ key: 'accepted', status: 'up', ...i })),
      sys(),
    );
  }

  async function names(group: string): Promise<string[]> {
    const res = await t.request.get(`/api/groups/${group}/hostnames`).set(auth('viewer'));
    expect(res.status).toBe(200);
    return res.body as string[];
  }

  /** The hosts of the group's tree, matched by the store itself (what hostnames answered before it was kept). */
  async function oracle(group: string): Promise<string[]> {
    const root = await t.engine.runtime.resources.of(groupsRef).get(group, sys());
    const tree = await groupTree(sys(), root);
    const rules = tree.flatMap((g) => {
      const rule = ruleOf(g.info);
      return rule === null ? [] : [ruleFilter(rule)];
    });
    const found = await t.store.find('hosts', {
      $and: [{ $or: [{ groups: { $in: tree.map((g) => g._id) } }, ...rules] }, { _soft_deleted: false }],
    });
    return found.map((h) => h._id).sort();
  }

  async function expectKept(group: string, expected: readonly string[]): Promise<void> {
    expect(await names(group)).toEqual([...expected].sort());
    expect(await oracle(group)).toEqual([...expected].sort());
  }

  it('a host the sync creates joins the rule groups it matches, by name and by grains', async () => {
    const p = uniqueName('new');
    const byName = await createGroup(t, { name: uniqueName('re'), type: 1, info: { regex: `${p}-web` } });
    const byGrain = await createGroup(t, { name: uniqueName('gr'), type: 1, info: { grain: { roles: p } } });
    const web = fqdn(`${p}-web-1`);
    const db = fqdn(`${p}-db-1`);
    await sync([
      { _id: web, grain: { os: 'Debian', roles: ['x'] } },
      { _id: db, grain: { os: 'Debian', roles: ['x', p] } },
    ]);
    await expectKept(byName, [web]);
    await expectKept(byGrain, [db]);
  });

  it('a change of grains moves the host between rule groups within the sync that brings it', async () => {
    const p = uniqueName('moves');
    const host = fqdn(`${p}-h`);
    await sync([{ _id: host, grain: { os: 'Debian', osrelease: '11' } }]);
    const eleven = await createGroup(t, {
      name: uniqueName('11'),
      type: 1,
      info: { grain: { osrelease: '11' } },
    });
    const twelve = await createGroup(t, {
      name: uniqueName('12'),
      type: 1,
      info: { grain: { osrelease: '12' } },
    });
    const both = await createGroup(t, { name: uniqueName('both'), subgroups: [eleven, twelve] });
    expect(await names(eleven)).toContain(host);
    expect(await names(twelve)).not.toContain(host);
    await sync([{ _id: host, grain: { os: 'Debian', osrelease: '12' } }]);
    expect(await names(eleven)).not.toContain(host);
    expect(await names(twelve)).toContain(host);
    expect(await names(both)).toContain(host);
    expect(await names(eleven)).toEqual(await oracle(eleven));
    expect(await names(twelve)).toEqual(await oracle(twelve));
  });

  it('a rule group made, changed and deleted after its hosts exist follows, and a shared rule survives', async () => {
    const p = uniqueName('rule');
    const [a, b] = [fqdn(`${p}-a`), fqdn(`${p}-b`)];
    await sync([
      { _id: a, grain: { os: 'Rocky', num_cpus: 4 } },
      { _id: b, grain: { os: 'Rocky', num_cpus: 8 } },
    ]);
    const rule = { name: uniqueName('g'), type: 1, info: { regex: p, grain: { num_cpus: 8 } } };
    const one = await createGroup(t, rule);
    const twin = await createGroup(t, { ...rule, name: uniqueName('twin') });
    await expectKept(one, [b]);
    await t.request
      .patch(`/api/groups/${one}`)
      .set(auth('admin'))
      .send({ info: { regex: `${p}-a` } })
      .expect(200);
    // A patch merges into `info`: the grain equality stays, and no host has both.
    await expectKept(one, []);
    await t.request.delete(`/api/groups/${one}`).set(auth('admin')).expect(204);
    await expectKept(twin, [b]);
  });

  it('nested subgroups, static members and soft deletes change the tree`s hosts at once', async () => {
    const p = uniqueName('tree');
    const [r1, r2, s1] = [fqdn(`${p}-r-1`), fqdn(`${p}-r-2`), fqdn(`${p}-static`)];
    await sync([{ _id: r1 }, { _id: r2 }, { _id: s1 }]);
    const rules = await createGroup(t, { name: uniqueName('r'), type: 1, info: { regex: `${p}-r-` } });
    const top = await createGroup(t, { name: uniqueName('top'), hosts: [s1] });
    await expectKept(top, [s1]);
    await t.request
      .patch(`/api/groups/${top}`)
      .set(auth('admin'))
      .send({ subgroups: [rules] })
      .expect(200);
    await expectKept(top, [r1, r2, s1]);
    await t.request
      .patch(`/api/hosts/${r2}`)
      .set(auth('admin'))
      .send({ groups: [top] })
      .expect(200);
    await t.request.delete(`/api/hosts/${r1}`).set(auth('admin')).expect(204);
    await expectKept(top, [r2, s1]);
    await t.request
      .patch(`/api/groups/${top}`)
      .set(auth('admin'))
      .send({ subgroups: [], hosts: [] })
      .expect(200);
    await expectKept(top, []);
  });

  it('a rule whose hosts were never computed (an older store, a lost update) is computed on its first read', async () => {
    const p = uniqueName('late');
    const host = fqdn(`${p}-1`);
    await sync([{ _id: host }]);
    const group = await createGroup(t, { name: uniqueName('g'), type: 1, info: { regex: p } });
    await t.store.delete('group_rules', {});
    await t.store.delete('host_rules', {});
    await expectKept(group, [host]);
  });

  it('a tree three levels deep follows changes of its middle, deletes of nested groups and of many at once', async () => {
    const p = uniqueName('deep');
    const [a, b, c, d] = [fqdn(`${p}-a`), fqdn(`${p}-b`), fqdn(`${p}-c`), fqdn(`${p}-d`)];
    await sync([{ _id: a }, { _id: b, grain: { roles: [p] } }, { _id: c }, { _id: d }]);
    const leafRule = await createGroup(t, {
      name: uniqueName('leaf'),
      type: 1,
      info: { grain: { roles: p } },
    });
    const leafStatic = await createGroup(t, { name: uniqueName('leaf'), hosts: [c] });
    const middle = await createGroup(t, { name: uniqueName('mid'), subgroups: [leafRule], hosts: [a] });
    const top = await createGroup(t, { name: uniqueName('top'), subgroups: [middle] });
    await expectKept(top, [a, b]);
    await t.request
      .patch(`/api/groups/${middle}`)
      .set(auth('admin'))
      .send({ subgroups: [leafRule, leafStatic] })
      .expect(200);
    await expectKept(top, [a, b, c]);
    await expectKept(middle, [a, b, c]);
    // A nested group deleted: the relation takes it out of `middle`, and its hosts out of the tree.
    await t.request.delete(`/api/groups/${leafRule}`).set(auth('admin')).expect(204);
    await expectKept(top, [a, c]);
    // A second way in for `c` (static on `top` itself) survives the delete of the first.
    await t.request
      .patch(`/api/hosts/${c}`)
      .set(auth('admin'))
      .send({ groups: [leafStatic, top] })
      .expect(200);
    const many = await t.request
      .delete('/api/groups')
      .query({ where: JSON.stringify({ type: 0 }) })
      .set(auth('admin'));
    expect(many.status).toBe(204);
    for (const id of [top, middle, leafStatic])
      expect((await t.request.get(`/api/groups/${id}`).set(auth('viewer'))).status).toBe(404);
    const again = await createGroup(t, { name: uniqueName('again'), hosts: [d] });
    await expectKept(again, [d]);
  });

  it('refuses a grain rule that cannot be evaluated with 422 naming info.grain', async () => {
    const res = await t.request
      .post('/api/groups')
      .set(auth('admin'))
      .send({ name: uniqueName('bad'), type: 1, info: { grain: { os: { $bogus: 1 } } } });
    expectEveError(res, 422, { issues: ['info.grain'] });
  });

  it('two instances on one file writing at once leave every group right', async () => {
    const p = uniqueName('race');
    const other = await openInstance(t.dbPath);
    try {
      const ids = Array.from({ length: 40 }, (_, i) => fqdn(`${p}-${String(i).padStart(2, '0')}`));
      await sync(ids.map((_id, i) => ({ _id, grain: { os: 'Debian', roles: [`${p}${i % 3}`] } })));
      const byRole = await Promise.all(
        [0, 1, 2].map((i) =>
          createGroup(t, { name: uniqueName('role'), type: 1, info: { grain: { roles: `${p}${i}` } } }),
        ),
      );
      // At once: the other instance changes grains and adds rule groups while this one adds groups.
      const otherSys = systemContext(other.engine.runtime);
      const theirs = other.engine.runtime.resources.of(groupsRef);
      const work = [0, 1, 2, 3].flatMap((i) => [
        other.engine.runtime.resources.of(hostsResource).upsertMany(
          ids
            .slice(i * 10, i * 10 + 10)
            .map((_id, k) => ({ _id, grain: { os: 'Debian', roles: [`${p}${(k + i + 1) % 3}`] } })),
          otherSys,
        ),
        theirs.create(
          { name: uniqueName('theirs'), type: 1, info: { grain: { roles: `${p}${i % 3}` } } },
          otherSys,
        ),
        createGroup(t, { name: uniqueName('mine'), type: 1, info: { regex: `${p}-${i}` } }),
      ]);
      const results = await Promise.all(work);
      const made = results.flatMap((r) => (typeof r === 'string' ? [r] : []));
      const created = results.flatMap((r) => (typeof r === 'object' && '_id' in r ? [String(r._id)] : []));
      for (const g of [...byRole, ...made, ...created]) expect(await names(g)).toEqual(await oracle(g));
      expect(new Set(await Promise.all(byRole.map(names))).size).toBe(3);
    } finally {
      await other.close();
    }
  });
});

/** A second instance of the service on the same file: its own store connection and engine. */
async function openInstance(path: string): Promise<{ engine: Engine; close(): Promise<void> }> {
  const store = openSqliteStore({ path });
  const engine = createEngine({
    definitions: allResources,
    routeGroups: allRouteGroups,
    store,
    secrets: createSecretBox('second-instance-secret-0123456789'),
    log: capturingLog().log,
  });
  await engine.ensureCollections();
  return { engine, close: () => store.close() };
}

describe('the rule set used to keep membership', () => {
  const name = fc.constantFrom('web-1', 'web-10', 'web-2', 'db-1', 'db-x', 'edge.lan', 'w');
  const scalar = fc.oneof(
    fc.constantFrom('a', 'b', 'web', ''),
    fc.constantFrom(1, 2, 2.5),
    fc.boolean(),
    fc.constant(null),
  );
  const grainValue = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.record({ x: scalar }));
  const grain = fc.dictionary(fc.constantFrom('os', 'roles', 'n', 'nested'), grainValue, { maxKeys: 4 });
  const rule = fc.record(
    {
      regex: fc.constantFrom('web', 'web-1', 'db', 'd', 'web|db', '.*1', 'e[dx]', 'w$'),
      grain: fc.dictionary(fc.constantFrom('os', 'roles', 'n', 'nested.x', 'roles.0'), grainValue, {
        minKeys: 1,
        maxKeys: 2,
      }),
    },
    { requiredKeys: [] },
  );

  it('finds exactly the rules the store`s own matching finds, for any host and rules', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 8 }),
        fc.array(fc.record({ name, grain }), { maxLength: 6 }),
        (rules, hosts) => {
          const byKey = new Map<string, Rule>();
          for (const r of rules) {
            const checked = ruleOf(r);
            if (checked) byKey.set(ruleKey(checked), checked);
          }
          const set = new RuleSet(byKey);
          for (const h of hosts) {
            const host = { _id: h.name, grain: h.grain };
            const expected = [...byKey]
              .filter(([, r]) => compileMatcher(ruleFilter(r))({ ...host }))
              .map(([k]) => k)
              .sort();
            expect(set.keysOf(host)).toEqual(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
