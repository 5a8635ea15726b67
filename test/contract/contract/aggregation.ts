/** Store contract: aggregation pipelines, with and without push-down. */
import { at, type Context } from './fixtures';

/** `$match`, `$unwind`, `$group`, `$project`, `$facet` pipelines. */
export function aggregateTests(ctx: Context): void {
  test('$match on dates, then $count', async () => {
    expect(
      await ctx.store.aggregate('hosts', [{ $match: { _created: { $gte: at(2) } } }, { $count: 'n' }]),
    ).toEqual([{ n: 4 }]);
  });
  test('$unwind and $group with $sum, then $sort', async () => {
    const rows = await ctx.store.aggregate('hosts', [
      { $unwind: '$tags' },
      { $group: { _id: '$tags', n: { $sum: 1 } } },
      { $sort: { n: -1, _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 'prod', n: 3 },
      { _id: 'web', n: 3 },
      { _id: 'db', n: 2 },
      { _id: 'edge', n: 1 },
    ]);
  });
  test('$group with $addToSet and $first', async () => {
    const rows = await ctx.store.aggregate('hosts', [
      { $match: { status: { $in: ['up', 'down'] } } },
      { $sort: { name: 1 } },
      { $group: { _id: '$status', first: { $first: '$name' }, cpus: { $addToSet: '$cpu' } } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows.map((r) => ({ ...r, cpus: [...(r.cpus as number[])].sort((a, b) => a - b) }))).toEqual([
      { _id: 'down', first: 'beta', cpus: [4, 8] },
      { _id: 'up', first: 'alpha', cpus: [2, 4] },
    ]);
  });
  test('$project with a date operator', async () => {
    const rows = await ctx.store.aggregate('hosts', [
      { $match: { _id: 'h2' } },
      { $project: { name: 1, day: { $dayOfMonth: '$_created' } } },
    ]);
    expect(rows).toEqual([{ _id: 'h2', name: 'beta', day: 2 }]);
  });
  test('$facet', async () => {
    const [facets] = await ctx.store.aggregate('hosts', [
      { $match: { cpu: 4 } },
      {
        $facet: {
          total: [{ $count: 'n' }],
          names: [{ $sort: { name: 1 } }, { $project: { _id: 0, name: 1 } }],
        },
      },
    ]);
    expect(facets).toEqual({
      total: [{ n: 3 }],
      names: [{ name: 'alpha' }, { name: 'delta' }, { name: 'zeta' }],
    });
  });
  test('the same pipeline on a collection without push-down gives the same answer', async () => {
    const pipeline = [
      { $match: { status: 'up', _created: { $lt: at(3) } } },
      { $group: { _id: null, n: { $sum: '$cpu' } } },
    ];
    expect(await ctx.store.aggregate('hosts', pipeline)).toEqual([{ _id: null, n: 6 }]);
    expect(await ctx.store.aggregate('hosts_plain', pipeline)).toEqual([{ _id: null, n: 6 }]);
  });
}
