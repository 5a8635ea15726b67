/**
 * Store contract: `$regex` gives the same answers on every store, whether it is pushed down
 * (a declared string field, `_id`), matched in memory (an undeclared field, `hosts_plain`), under
 * `$not`, inside `$or`, or on array elements. The embedded store runs every pattern on RE2
 * (engine/src/query/pattern.ts), MongoDB on its own engine: the cases keep to the syntax both share.
 */
import type { Case, Context } from './fixtures';

/** Patterns over the fixture hosts (names alpha, beta, gamma, delta, Epsilon, zeta). */
export const PATTERN_CASES: readonly Case[] = [
  ['an anchored literal prefix', { name: { $regex: '^al' } }, ['h1']],
  ['a prefix with a class after it', { name: { $regex: '^[a-d]e' } }, ['h2', 'h4']],
  ['an alternation with an anchor in one branch', { name: { $regex: '^z|mm' } }, ['h3', 'h6']],
  ['case-insensitive', { name: { $regex: '^EPS', $options: 'i' } }, ['h5']],
  ['case-sensitive by default', { name: { $regex: '^eps' } }, []],
  ['a ReDoS shape for backtracking engines, linear here', { name: { $regex: '.*.*.*.*.*.*.*=' } }, []],
  [
    'seven stars before an end anchor',
    { name: { $regex: '[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*a$' } },
    ['h1', 'h2', 'h3', 'h4', 'h6'],
  ],
  ['on _id', { _id: { $regex: '^h[2-4]$' } }, ['h2', 'h3', 'h4']],
  ['under $not', { name: { $not: { $regex: 'a$' } } }, ['h5']],
  ['in an $or', { $or: [{ name: { $regex: '^g' } }, { status: 'unknown' }] }, ['h3', 'h5']],
  ['on array elements', { tags: { $regex: '^pro' } }, ['h1', 'h5', 'h6']],
  ['on a dotted path', { 'os.family': { $regex: 'u' } }, ['h3']],
  ['with other operators on the field', { name: { $regex: 'a', $ne: 'alpha' } }, ['h2', 'h3', 'h4', 'h6']],
  ['a RegExp value with the i flag', { name: /^e/i }, ['h5']],
];

/** The cases a backtracking engine cannot bound: refused by a store whose server runs PCRE (MongoDB). */
export const BACKTRACKING_CASES: ReadonlySet<string> = new Set([
  'a ReDoS shape for backtracking engines, linear here',
  'seven stars before an end anchor',
]);

/**
 * Each pattern finds exactly its ids, counts them, and finds the same where nothing is pushed down;
 * with `refusesBacktracking`, the backtracking shapes are a 400 naming `where` instead.
 */
export function patternTests(ctx: Context, o: { refusesBacktracking?: boolean } = {}): void {
  test.each(PATTERN_CASES)('%s', async (label, filter, expected) => {
    if (o.refusesBacktracking === true && BACKTRACKING_CASES.has(label)) {
      await expect(ctx.store.find('hosts', filter)).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/^where: /),
      });
      return;
    }
    expect(await ctx.ids('hosts', filter)).toEqual(expected);
    expect(await ctx.store.count('hosts', filter)).toBe(expected.length);
    expect(await ctx.ids('hosts_plain', filter)).toEqual(expected);
  });
}
