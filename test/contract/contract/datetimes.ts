/** Store contract: datetimes compare as instants and come back as `Date`, also inside arrays. */
import { at, type Case, type Context } from './fixtures';

/** Comparisons on declared datetime paths. */
export const DATETIME_CASES: readonly Case[] = [
  ['$gte and $lt', { _created: { $gte: at(2), $lt: at(4) } }, ['h3', 'h4']],
  ['$gt', { _created: { $gt: at(4) } }, ['h6']],
  ['equality', { _created: at(1) }, ['h2']],
  ['$in', { _created: { $in: [at(0), at(5)] } }, ['h1', 'h6']],
  ['in array elements', { 'fingerprint_history.added': { $gte: at(5) } }, ['h2']],
];

/** Datetime comparisons and round-trips. */
export function datetimesTests(ctx: Context): void {
  test.each(DATETIME_CASES)('compare: %s', async (_label, filter, expected) => {
    expect(await ctx.ids('hosts', filter)).toEqual(expected);
  });
  test('a Date in is a Date out, also inside arrays', async () => {
    const h2 = await ctx.one('h2');
    expect(h2?._created).toBeInstanceOf(Date);
    expect(h2?._created).toEqual(at(1));
    expect(h2?.fingerprint_history).toEqual([
      { fp: 'bb', added: at(1) },
      { fp: 'bc', added: at(5) },
    ]);
    expect((await ctx.one('h6'))?.events).toEqual([{ kind: 'boot', at: at(6) }]);
  });
  test('dates written by updates come back as dates', async () => {
    await ctx.store.update(
      'hosts',
      { _id: 'h1' },
      { $push: { fingerprint_history: { fp: 'ab', added: at(7) } }, $set: { _created: at(8) } },
    );
    const h1 = await ctx.one('h1');
    expect(h1?._created).toEqual(at(8));
    expect(h1?.fingerprint_history).toEqual([
      { fp: 'aa', added: at(0) },
      { fp: 'ab', added: at(7) },
    ]);
  });
  test('a string that looks like a date in an undeclared field stays a string', async () => {
    await ctx.store.insert('hosts', [{ _id: 'h7', name: 'eta', note: '2024-01-01T00:00:00.000Z' }]);
    expect((await ctx.one('h7'))?.note).toBe('2024-01-01T00:00:00.000Z');
  });
}
