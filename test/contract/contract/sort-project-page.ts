/** Store contract: sort, projection, and skip/limit paging. */
import type { SortSpec } from '../../../engine/src/store/port';
import { at, type Context } from './fixtures';

/** A sort case: its label, the sort and the ids in the order it must give. */
export type SortCase = readonly [label: string, sort: SortSpec, expected: readonly string[]];

/** Sorts on the fixture hosts; ties always by `_id` ascending. */
export const SORT_CASES: readonly SortCase[] = [
  ['ascending, ties by _id', [['cpu', 1]], ['h3', 'h1', 'h4', 'h6', 'h2', 'h5']],
  ['descending, ties still by _id ascending', [['cpu', -1]], ['h5', 'h2', 'h1', 'h4', 'h6', 'h3']],
  [
    'multi-key',
    [
      ['status', 1],
      ['cpu', -1],
    ],
    ['h2', 'h6', 'h5', 'h1', 'h4', 'h3'],
  ],
  ['null and missing first, as equals', [['load', 1]], ['h3', 'h4', 'h1', 'h6', 'h2', 'h5']],
  ['dotted path', [['os.family', 1]], ['h4', 'h6', 'h5', 'h1', 'h2', 'h3']],
  ['datetime descending', [['_created', -1]], ['h6', 'h5', 'h4', 'h3', 'h2', 'h1']],
  ['binary string order (capitals first)', [['name', 1]], ['h5', 'h1', 'h2', 'h4', 'h3', 'h6']],
  ['_id descending', [['_id', -1]], ['h6', 'h5', 'h4', 'h3', 'h2', 'h1']],
];

/** Sort orders, with and without a residual filter. */
export function sortTests(ctx: Context): void {
  test.each(SORT_CASES)('%s', async (_label, sort, expected) => {
    expect(await ctx.ids('hosts', {}, { sort })).toEqual(expected);
  });
  test('sort with a filter that cannot be pushed down', async () => {
    expect(await ctx.ids('hosts', { name: /a/ }, { sort: [['cpu', -1]] })).toEqual([
      'h2',
      'h1',
      'h4',
      'h6',
      'h3',
    ]);
  });
}

/** Inclusive and exclusive projections, `_id` always kept. */
export function projectionTests(ctx: Context): void {
  test('inclusive keeps the fields and _id', async () => {
    const docs = await ctx.store.find('hosts', { cpu: 4 }, { projection: { name: 1 }, sort: [['_id', 1]] });
    expect(docs).toEqual([
      { _id: 'h1', name: 'alpha' },
      { _id: 'h4', name: 'delta' },
      { _id: 'h6', name: 'zeta' },
    ]);
  });
  test('inclusive of a dotted path', async () => {
    expect(await ctx.store.find('hosts', { _id: 'h1' }, { projection: { 'os.family': 1, cpu: 1 } })).toEqual([
      { _id: 'h1', cpu: 4, os: { family: 'debian' } },
    ]);
  });
  test('exclusive drops the fields only', async () => {
    const [h2] = await ctx.store.find(
      'hosts',
      { _id: 'h2' },
      { projection: { tags: 0, fingerprint_history: 0, os: 0 } },
    );
    expect(h2).toEqual({
      _id: 'h2',
      name: 'beta',
      status: 'down',
      cpu: 8,
      load: 1.5,
      active: false,
      _created: at(1),
    });
  });
  test('exclusive of a dotted path', async () => {
    const [h1] = await ctx.store.find('hosts', { _id: 'h1' }, { projection: { 'os.version': 0 } });
    expect(h1?.os).toEqual({ family: 'debian' });
  });
  test('_id is kept even when excluded', async () => {
    expect(await ctx.store.find('hosts', { _id: 'h3' }, { projection: { _id: 0, name: 1 } })).toEqual([
      { _id: 'h3', name: 'gamma' },
    ]);
  });
  test('projection with a residual filter and a sort', async () => {
    const docs = await ctx.store.find(
      'hosts',
      { tags: 'web' },
      { projection: { cpu: 1 }, sort: [['cpu', -1]] },
    );
    expect(docs).toEqual([
      { _id: 'h5', cpu: 16 },
      { _id: 'h1', cpu: 4 },
      { _id: 'h4', cpu: 4 },
    ]);
  });
}

/** Pages over a sorted result. */
export function skipAndLimitTests(ctx: Context): void {
  const byCpu: SortSpec = [['cpu', 1]];
  test('a middle page', async () => {
    expect(await ctx.ids('hosts', {}, { sort: byCpu, skip: 2, limit: 2 })).toEqual(['h4', 'h6']);
  });
  test('a partial last page', async () => {
    expect(await ctx.ids('hosts', {}, { sort: byCpu, skip: 5, limit: 5 })).toEqual(['h5']);
  });
  test('past the end is empty', async () => {
    expect(await ctx.ids('hosts', {}, { sort: byCpu, skip: 6, limit: 2 })).toEqual([]);
    expect(await ctx.ids('hosts', {}, { sort: byCpu, skip: 100 })).toEqual([]);
  });
  test('a limit larger than the total returns everything', async () => {
    expect(await ctx.ids('hosts', {}, { sort: byCpu, limit: 1000 })).toHaveLength(6);
  });
  test('paging over a residual filter', async () => {
    expect(await ctx.ids('hosts', { name: /a/ }, { sort: byCpu, skip: 1, limit: 2 })).toEqual(['h1', 'h4']);
  });
}
