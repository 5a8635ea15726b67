/** Store contract: pushed down or not, a query's answers are identical. */
import type { Filter, FindOptions } from '../../../engine/src/store/port';
import type { Context } from './fixtures';
import { DATETIME_CASES } from './datetimes';
import { NESTED_CASES, OPERATOR_CASES } from './queries';
import { SORT_CASES } from './sort-project-page';

/** Queries run on `hosts` and `hosts_plain`: pushed down or not, the answers must be identical. */
export const EQUIVALENCE: ReadonlyArray<readonly [Filter, FindOptions]> = [
  ...OPERATOR_CASES.map(([, filter]) => [filter, {}] as const),
  ...NESTED_CASES.map(([, filter]) => [filter, {}] as const),
  ...DATETIME_CASES.map(([, filter]) => [filter, {}] as const),
  ...SORT_CASES.map(([, sort]) => [{}, { sort }] as const),
  [{ status: 'up' }, { sort: [['_created', -1]], limit: 2 }],
  [
    { status: 'up', name: /a/ },
    { sort: [['_created', -1]], skip: 1, limit: 1 },
  ],
  [
    { cpu: { $gte: 4 } },
    {
      sort: [
        ['load', -1],
        ['name', 1],
      ],
      skip: 1,
      limit: 3,
    },
  ],
  [{ $or: [{ status: 'down' }, { tags: 'db' }] }, { sort: [['cpu', 1]] }],
  [{ status: { $ne: 'up' } }, { projection: { tags: 0, fingerprint_history: 0 }, sort: [['_id', 1]] }],
  [{ cpu: 4 }, { projection: { name: 1, 'os.family': 1 }, sort: [['name', -1]] }],
];

/** Every query on `hosts` and `hosts_plain` gives the same documents and count. */
export function pushDownEquivalenceTests(ctx: Context): void {
  test.each(EQUIVALENCE.map(([filter, find], i) => [i, filter, find] as const))(
    'query #%d',
    async (_i, filter, find) => {
      const sorted: FindOptions = find.sort === undefined ? { ...find, sort: [['_id', 1]] } : find;
      expect(await ctx.store.find('hosts', filter, sorted)).toEqual(
        await ctx.store.find('hosts_plain', filter, sorted),
      );
      expect(await ctx.store.count('hosts', filter)).toBe(await ctx.store.count('hosts_plain', filter));
    },
  );
  test('a regex-free and a regex variant of one query agree', async () => {
    const page: FindOptions = { sort: [['_created', -1]], limit: 2 };
    expect(await ctx.store.find('hosts', { status: 'up' }, page)).toEqual(
      await ctx.store.find('hosts', { status: /^up$/ }, page),
    );
    expect(await ctx.store.find('hosts', { name: 'beta' })).toEqual(
      await ctx.store.find('hosts', { name: { $regex: '^beta$' } }),
    );
  });
}
