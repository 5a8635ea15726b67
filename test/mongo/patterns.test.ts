/**
 * No server: `$regex` on MongoDB. PCRE backtracks, so a pattern with many open-ended repetitions
 * in a row is refused there (a 400 naming `where`); `$`, `\s` and `\v` are rewritten to what they
 * mean on RE2 (the embedded store's engine). The filters reach the driver rewritten, through the
 * adapter's every read and write. The live cases are in test/contract/mongo-limits.contract.test.ts.
 */
import { BadRequest } from '../../engine/src/errors';
import { compilePattern } from '../../engine/src/query/pattern';
import {
  MAX_OPEN_REPEATS,
  MongoStore,
  mongoFilter,
  mongoPipeline,
  openRepeats,
  pcreSource,
} from '../../engine/src/store/mongo';
import { BACKTRACKING_CASES, PATTERN_CASES } from '../contract/contract/patterns';
import { recordingDb } from './helpers/recording-db';

describe('open-ended repetitions, counted along the worst alternative', () => {
  test.each([
    ['^web', 0],
    ['^web-[0-9]+$', 1],
    ['^web.*prod.*\\.example\\.com$', 2],
    ['.*a.*b.*c', 3],
    ['.*.*.*.*.*.*.*e$', 7],
    ['[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*a$', 7],
    ['^(ab|c.*d.*)x+$', 3],
    ['a{2,5}b{1,}', 1],
    ['a{0,100}b', 1],
    ['x?y?z?', 0],
    ['a*?b+?', 2],
    ['[*+]{3}\\*\\+', 0],
    ['\\Q.*.*.*.*\\E', 0],
    ['a|b*|c+d+e+f+', 4],
    ['(?i)^(?:web|db)[0-9]*$', 1],
  ])('%s: %d', (source, expected) => {
    expect(openRepeats(source)).toBe(expected);
  });
});

describe('escapes and anchors rewritten to their RE2 meaning', () => {
  test.each([
    ['$ is the very end (PCRE also matches before a final line break)', 'a$', false, 'a\\z'],
    ['with m, $ is an end of line on both', 'a$', true, 'a$'],
    ['an inline (?m) keeps $', '(?m)a$', false, '(?m)a$'],
    ['an escaped $ is a dollar', 'a\\$', false, 'a\\$'],
    ['$ inside a class is a dollar', '[$]x$', false, '[$]x\\z'],
    ['\\s is [\\t\\n\\f\\r ] (PCRE adds the vertical tab)', 'a\\sb', false, 'a[\\t\\n\\f\\r ]b'],
    ['\\s inside a class', '[\\s,]', false, '[\\t\\n\\f\\r ,]'],
    ['\\S outside a class', '\\S+', false, '[^\\t\\n\\f\\r ]+'],
    ['\\v is the vertical tab (PCRE: every vertical space)', '\\v', false, '\\x0b'],
    ['a leading ] in a class is literal', '[]$]$', false, '[]$]\\z'],
    ['quoted text is left alone', '\\Qa$\\s\\E$', false, '\\Qa$\\s\\E\\z'],
    ['others are unchanged', '^h[0-9]{2}\\.d\\w+\\b', false, '^h[0-9]{2}\\.d\\w+\\b'],
  ])('%s', (_label, source, multiline, expected) => {
    expect(pcreSource(source, multiline)).toBe(expected);
  });

  /**
   * The rewritten pattern still means the same on RE2 (which has \z too): a value it accepted before
   * it accepts after, for values where PCRE's reading would differ.
   */
  test.each([
    ['a$', ['a', 'a\n', 'ba', 'ab']],
    ['a\\sb', ['a b', 'a\tb', 'a\u000bb', 'ab']],
    ['^\\S+$', ['abc', 'a b', 'a\u000b', '']],
    ['\\v', ['\u000b', '\n', 'x']],
  ])('%s keeps its RE2 answers', (source, values) => {
    const original = compilePattern(source);
    const rewritten = compilePattern(pcreSource(source, false));
    for (const value of values) expect([value, rewritten.test(value)]).toEqual([value, original.test(value)]);
  });
});

describe('filters through the adapter', () => {
  test('a refused pattern is a 400 naming where and the field, before any call', async () => {
    const { source, calls } = recordingDb();
    const store = new MongoStore(source);
    const find = store.find('hosts', { $or: [{ status: 'up' }, { name: { $regex: '.*.*.*.*.*.*.*e$' } }] });
    await expect(find).rejects.toBeInstanceOf(BadRequest);
    await expect(find).rejects.toMatchObject({
      message: expect.stringMatching(/^where: the pattern on "name" has 7 open-ended repetitions/),
    });
    await expect(store.count('hosts', { 'grain.os': /(a.*){1}.*.*.*/ })).rejects.toMatchObject({
      message: expect.stringMatching(/^where: the pattern on "grain.os"/),
    });
    expect(calls).toEqual([]);
  });

  test(`${MAX_OPEN_REPEATS} repetitions pass, rewritten`, () => {
    expect(mongoFilter({ name: { $regex: '^a.*b.*c+$', $options: 'i' } })).toEqual({
      name: { $regex: '^a.*b.*c+\\z', $options: 'i' },
    });
  });

  test('a RegExp value becomes a BSON regex with the rewritten source and only i, m, s', () => {
    const filter = mongoFilter({ name: /^e\s$/giu, tags: { $in: [/x$/, 'plain'] } }) as {
      name: { pattern: string; options: string };
      tags: { $in: [{ pattern: string }, string] };
    };
    expect(filter.name).toMatchObject({ pattern: '^e[\\t\\n\\f\\r ]\\z', options: 'i' });
    expect(filter.tags.$in[0]).toMatchObject({ pattern: 'x\\z' });
    expect(filter.tags.$in[1]).toBe('plain');
  });

  test('a filter without patterns is handed over as the same object; dates stay dates', () => {
    const filter = { _created: { $gte: new Date(0) }, $and: [{ status: 'up' }] };
    expect(mongoFilter(filter)).toBe(filter);
  });

  test('patterns under $not, $elemMatch and $and are reached', () => {
    expect(
      mongoFilter({
        $and: [{ name: { $not: { $regex: 'a$' } } }, { hosts: { $elemMatch: { name: { $regex: 'b$' } } } }],
      }),
    ).toEqual({
      $and: [{ name: { $not: { $regex: 'a\\z' } } }, { hosts: { $elemMatch: { name: { $regex: 'b\\z' } } } }],
    });
  });

  test('the $match stages of a pipeline are checked, the others left alone', () => {
    const group = { $group: { _id: '$os', n: { $sum: 1 } } };
    expect(mongoPipeline([{ $match: { name: { $regex: 'x$' } } }, group])).toEqual([
      { $match: { name: { $regex: 'x\\z' } } },
      group,
    ]);
  });

  test('what reaches the driver is the rewritten filter', async () => {
    const { source, calls } = recordingDb();
    await new MongoStore(source).delete('alerts', { 'payload.hostname': { $regex: '^web\\d+$' } });
    expect(calls[0]?.args[0]).toEqual({ 'payload.hostname': { $regex: '^web\\d+\\z' } });
  });
});

describe('the shared contract patterns on MongoDB', () => {
  /** The cases the embedded store runs in linear time that PCRE would not: refused on MongoDB. */
  const refused = PATTERN_CASES.filter(([, filter]) => {
    try {
      mongoFilter(filter);
      return false;
    } catch {
      return true;
    }
  }).map(([label]) => label);

  test('exactly the backtracking shapes are refused', () => {
    expect(refused).toEqual([...BACKTRACKING_CASES]);
  });
});
