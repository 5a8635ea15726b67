/**
 * The embedded store answers queries on declared paths inside an object field in SQL, from the
 * path's expression index (the contract's `declared paths inside objects` checks the answers; this
 * checks where they come from), and the hosts resource declares the grain paths operators filter by.
 */
import { compileResource } from '../../engine/src/compile/compile';
import { openSqliteStore, type SqliteStore } from '../../engine/src/store/sqlite';
import { hosts } from '../../resources/hosts';
import { MACHINES, machines } from './contract/declared-paths';
import { BOXES, boxes } from './contract/lists';

let store: SqliteStore;
beforeEach(async () => {
  store = openSqliteStore({ path: ':memory:' });
  await store.ensureCollection(MACHINES);
  await store.insert('machines', machines());
});
afterEach(() => store.close());

test.each([
  [{ 'grain.os': 'Debian' }, 'ix_machines_grain_os '],
  [{ 'grain.os': { $in: ['Debian', 'Rocky'] } }, 'ix_machines_grain_os '],
  [{ 'grain.num_cpus': { $gte: 4, $lt: 64 } }, 'ix_machines_grain_num_cpus'],
  [{ 'grain.num_cpus': { $exists: false } }, 'ix_machines_grain_num_cpus'],
  [{ 'grain.serial': null }, 'ix_machines_grain_serial'],
  [{ 'grain.os': { $regex: '^Deb' } }, 'ix_machines_grain_os'],
])('%j is SQL on its index', async (filter, index) => {
  const plan = await store.explain('machines', filter, { sort: [['_id', 1]], limit: 25 });
  expect(plan).toMatch(/^mode: sql/);
  expect(plan).toContain(`USING INDEX ${index}`);
});

test('a sort on two declared paths reads the index that has them in that order', async () => {
  const plan = await store.explain('machines', { 'grain.os': 'Debian' }, { sort: [['grain.osrelease', -1]] });
  expect(plan).toMatch(/^mode: sql/);
  expect(plan).toMatch(/USING (COVERING )?INDEX ix_machines_grain_os_grain_osrelease_desc/);
  expect(plan).not.toMatch(/TEMP B-TREE/);
});

test('$exists on a nullable path is SQL too, reading the JSON type (a stored null exists)', async () => {
  const plan = await store.explain('machines', { 'grain.serial': { $exists: false } }, {});
  expect(plan).toMatch(/^mode: sql/);
  expect((await store.find('machines', { 'grain.serial': { $exists: false } })).map((d) => d._id)).toEqual([
    'm3',
    'm5',
    'm7',
  ]);
});

test('a path inside a list of objects, or a value of another type, stays with mingo', async () => {
  expect(await store.explain('machines', { 'grain.roles': 'db' }, {})).toMatch(/^mode: (stream|memory)/);
  expect(await store.explain('machines', { 'grain.num_cpus': '16' }, {})).toMatch(/^mode: (stream|memory)/);
});

describe('hosts', () => {
  const compiled = compileResource(hosts);
  test('the grain paths operators filter by are declared, typed, and indexed behind the soft-delete flag', () => {
    expect(compiled.collection.scalarPaths).toMatchObject({
      'grain.os': 'string',
      'grain.osrelease': 'string',
      'grain.virtual': 'string',
      'grain.num_cpus': 'integer',
    });
    for (const path of ['grain.os', 'grain.osrelease', 'grain.virtual', 'grain.num_cpus'])
      expect(compiled.collection.indexes).toContainEqual({
        fields: [
          ['_soft_deleted', 1],
          [path, 1],
        ],
      });
  });
  test('a grain path inside a list (gpus.model) is not a scalar path', () => {
    expect(compiled.collection.scalarPaths).not.toHaveProperty('grain.gpus.model');
  });
  test('an index on an undeclared or multi-valued path is refused when the definition compiles', () => {
    const withIndex = (path: string) => ({ ...hosts, indexes: [{ fields: [[path, 1] as const] }] });
    expect(() => compileResource(withIndex('grain.roles'))).toThrow(/index key "grain.roles"/);
    expect(() => compileResource(withIndex('grain.gpus.model'))).toThrow(/not a declared scalar field/);
  });
});

describe('lists of scalars with an index', () => {
  beforeEach(async () => {
    await store.ensureCollection(BOXES);
    await store.insert('boxes', boxes());
  });
  test.each([
    { tags: 'web' },
    { tags: { $in: ['db', 'edge'] } },
    { tags: { $nin: ['web'] } },
    { kind: 'a', sizes: 1 },
  ])('%j is SQL on the element index', async (filter) => {
    const plan = await store.explain('boxes', filter, { sort: [['_id', 1]] });
    expect(plan).toMatch(/^mode: sql/);
    expect(plan).toMatch(/mk_boxes_(tags|sizes)/);
  });
  test('null, a whole list, another type or a range stays with mingo', async () => {
    for (const filter of [{ tags: null }, { tags: ['web'] }, { sizes: '3' }, { sizes: { $gt: 3 } }])
      expect(await store.explain('boxes', filter, {})).toMatch(/^mode: (stream|memory)/);
  });
  test('an update moves the element index with the document', async () => {
    await store.update('boxes', { _id: 'b4' }, { $set: { tags: ['web'] } });
    expect(
      (await store.find('boxes', { tags: 'web' }, { projection: { _id: 1 } })).map((d) => d._id).sort(),
    ).toEqual(['b1', 'b3', 'b4', 'b7']);
  });
  test('a find of `_id` alone reads no document', async () => {
    expect(await store.explain('boxes', { kind: 'a' }, { projection: { _id: 1 } })).toMatch(/^mode: sql/);
    expect(await store.find('boxes', { kind: 'a' }, { projection: { _id: 1 }, sort: [['_id', 1]] })).toEqual([
      { _id: 'b1' },
      { _id: 'b2' },
      { _id: 'b5' },
      { _id: 'b7' },
    ]);
  });
});
