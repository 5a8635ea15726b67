/**
 * Light list documents: a projection of top-level fields is done in SQL on large documents
 * (json_remove, or json_group_object over the document's members) and in JavaScript on short
 * ones (engine/src/store/sqlite/projection.ts). Either way a find answers what the whole document
 * projected by mingo (the adapter's reference for projections) answers: the same values, numbers
 * to the last digit, booleans, nulls, nested values and dates, missing fields left missing.
 */
import { openSqliteStore, type SqliteStore } from '../../engine/src/store/sqlite';
import type { Doc, Projection } from '../../engine/src/store/port';
import { project } from '../../engine/src/query/in-memory';

let store: SqliteStore;
/** A double JSON writes with fewer digits than it has (12345678901234567000). */
const BIG = Number('12345678901234567890');

/** Over 1 KB with the padding, under it without. */
function doc(i: number, large: boolean): Doc {
  return {
    _id: `d-${String(i).padStart(3, '0')}`,
    n: i % 2 === 0 ? 0.1 + 0.2 : BIG,
    tiny: 1e-7,
    flag: i % 3 === 0,
    nothing: null,
    when: new Date(Date.UTC(2030, 0, 1, 0, 0, i)),
    nested: { a: [1, 2.5, { b: null, c: 'é\u2028"q"' }], at: new Date(Date.UTC(2031, 5, 6)) },
    ...(i % 4 === 0 ? {} : { sometimes: `s${i}` }),
    ...(large ? { grain: { blob: 'x'.repeat(1500), list: [1, 2, 3] } } : {}),
    kind: i % 2 === 0 ? 'even' : 'odd',
  };
}

beforeAll(async () => {
  store = openSqliteStore({ path: ':memory:' });
  await store.ensureCollection({
    name: 'things',
    scalarPaths: { kind: 'string', flag: 'boolean' },
    datetimePaths: ['when', 'nested.at'],
    indexes: [{ fields: [['kind', 1]] }],
  });
  await store.insert(
    'things',
    Array.from({ length: 40 }, (_, i) => doc(i, i % 2 === 1)),
  );
});
afterAll(async () => {
  await store.close();
});

/** The find with the projection, against mingo's projection of the whole documents of the same find. */
async function expectProjected(
  projection: Projection,
  filter: Record<string, unknown> = { kind: 'odd' },
): Promise<void> {
  const options = { sort: [['_id', 1]] as [string, 1][], skip: 2, limit: 10 };
  const whole = await store.find('things', filter, options);
  const expected = project(whole, projection);
  const got = await store.find('things', filter, { ...options, projection });
  expect(got).toEqual(expected);
  expect(got.map((d) => Object.keys(d).sort())).toEqual(expected.map((d) => Object.keys(d).sort()));
}

describe('top-level projections of a wholly pushed-down find', () => {
  it('exclusions, on large and short documents', async () => {
    await expectProjected({ grain: 0 });
    await expectProjected({ grain: 0, nested: 0, sometimes: 0 });
    await expectProjected({ grain: 0 }, { kind: 'even' });
    await expectProjected({ grain: 0, n: 0 }, {});
  });

  it('inclusions, with missing fields, nulls, booleans and exact numbers', async () => {
    await expectProjected({ n: 1, tiny: 1, flag: 1, nothing: 1, sometimes: 1, missing: 1 });
    await expectProjected({ nested: 1, when: 1 }, {});
    await expectProjected({ grain: 1 }, {});
    const [first] = await store.find(
      'things',
      { kind: 'odd' },
      { sort: [['_id', 1]], limit: 1, projection: { n: 1, when: 1, nested: 1 } },
    );
    expect(first).toEqual({
      _id: 'd-001',
      n: BIG,
      when: new Date(Date.UTC(2030, 0, 1, 0, 0, 1)),
      nested: doc(1, true).nested,
    });
  });

  it('dotted paths and filters SQL cannot answer keep the same answers', async () => {
    await expectProjected({ 'nested.a': 1, n: 1 });
    await expectProjected({ 'grain.blob': 0 });
    await expectProjected({ n: 1 }, { 'nested.a': 1 });
    await expectProjected({ grain: 0 }, { sometimes: { $exists: false } });
  });
});
