/**
 * Store contract: what the compact host-list history (docs/statistics.md) relies on. Its rows hold
 * a column as `{list: [...]}`, a flat list of mixed JSON values in an open sub-document, and are
 * read one column over a time range in (timestamp, _id) order, the latest one at or before a time,
 * with the big field projected away.
 */
import type { CollectionSpec, Doc } from '../../../engine/src/store/port';
import type { Context } from './fixtures';

/** As `resources/hosts_history.ts` declares it. */
const HISTORY: CollectionSpec = {
  name: 'history_rows',
  scalarPaths: {
    snapshot: 'string',
    column: 'string',
    part: 'integer',
    timestamp: 'datetime',
    last: 'datetime',
    base: 'string',
  },
  datetimePaths: ['timestamp', 'last'],
  indexes: [
    {
      fields: [
        ['column', 1],
        ['timestamp', 1],
      ],
    },
    { fields: [['timestamp', 1]] },
  ],
};

const T = Date.UTC(2026, 10, 1);
/** Every kind of value a column holds: ids, epoch ms past 2^32, null, booleans, lists, objects. */
const MIXED = [
  0,
  'web-1.example.net',
  'up',
  0,
  'db-2',
  null,
  3,
  'web-1.example.net',
  true,
  4,
  'db-2',
  ['web', 'prod'],
  5,
  'x',
  { note: 'kept', n: 1.5 },
  6,
  'y',
  1795665305688,
];

function row(column: string, day: number, id = `b${day}`): Doc {
  return {
    _id: column === 'snapshots' ? id : `${id}~${column}`,
    snapshot: id,
    column,
    part: 0,
    timestamp: new Date(T + day * 86_400_000),
    last: null,
    base: null,
    data: { list: day === 0 ? MIXED : [day, column] },
  };
}

/** The reads of the host history. */
export function columnRowsTests(ctx: Context): void {
  beforeEach(async () => {
    await ctx.store.ensureCollection(HISTORY);
    const days = [0, 1, 2, 3];
    await ctx.store.insert(
      HISTORY.name,
      days.flatMap((d) => [row('snapshots', d), row('status', d), row('updated', d)]),
    );
  });

  test('a flat list of mixed values in an open sub-document comes back exactly', async () => {
    const [doc] = await ctx.store.find(HISTORY.name, { _id: 'b0~status' });
    expect(doc?.data).toEqual({ list: MIXED });
    expect(doc?.timestamp).toEqual(new Date(T));
  });

  test('one column over a time range, in (timestamp, _id) order, paged with a limit', async () => {
    const range = {
      column: 'status',
      timestamp: { $gte: new Date(T + 86_400_000), $lte: new Date(T + 3 * 86_400_000) },
    };
    expect(
      await ctx.ids(HISTORY.name, range, {
        sort: [
          ['timestamp', 1],
          ['_id', 1],
        ],
      }),
    ).toEqual(['b1~status', 'b2~status', 'b3~status']);
    expect(
      await ctx.ids(HISTORY.name, range, {
        sort: [
          ['timestamp', 1],
          ['_id', 1],
        ],
        limit: 2,
      }),
    ).toEqual(['b1~status', 'b2~status']);
    const inColumns = { column: { $in: ['status', 'updated'] }, timestamp: new Date(T + 2 * 86_400_000) };
    expect(
      await ctx.ids(HISTORY.name, inColumns, {
        sort: [
          ['timestamp', 1],
          ['_id', 1],
        ],
      }),
    ).toEqual(['b2~status', 'b2~updated']);
  });

  test('the latest row at or before a time, up to the end of time (9999-12-31)', async () => {
    const latest = (at: Date) =>
      ctx.ids(
        HISTORY.name,
        { column: 'snapshots', timestamp: { $lte: at } },
        { sort: [['timestamp', -1]], limit: 1 },
      );
    expect(await latest(new Date(T + 1.5 * 86_400_000))).toEqual(['b1']);
    expect(await latest(new Date('9999-12-31T23:59:59.999Z'))).toEqual(['b3']);
    expect(await latest(new Date(T - 1))).toEqual([]);
  });

  test('projecting the column away leaves the rest of the row', async () => {
    const [doc] = await ctx.store.find(HISTORY.name, { _id: 'b0' }, { projection: { data: 0 } });
    expect(doc).toMatchObject({ _id: 'b0', column: 'snapshots', timestamp: new Date(T) });
    expect(doc).not.toHaveProperty('data');
  });
}
