/**
 * The engine's pattern API (`compilePattern`, `patternError` from `@fleet/engine`): RE2 semantics
 * in linear time, refusals in our own words, and the `$regex` guard kept for its callers.
 */
import { compilePattern, MAX_PATTERN_LENGTH, patternError } from '../../engine/src';
import { BadRequest } from '../../engine/src/errors';
import { isPrefixOnly, literalPrefix } from '../../engine/src/query/pattern';
import { openSqliteStore } from '../../engine/src/store/sqlite';
import { unsafeRegexReason } from '../../engine/src/query/regex-guard';

describe('compilePattern', () => {
  test.each([
    ['a search anywhere in the input', 'dc1', '', 'web-01.dc1.example.net', true],
    ['anchors', '^web-\\d+\\.', '', 'web-01.dc1', true],
    ['case-sensitive by default', '^WEB', '', 'web-01', false],
    ['i', '^WEB', 'i', 'web-01', true],
    ['$ without m stops at the end only', 'a$', '', 'a\nb', false],
    ['m', 'a$', 'm', 'a\nb', true],
    ['. without s skips a line break', 'a.b', '', 'a\nb', false],
    ['s', 'a.b', 's', 'a\nb', true],
    ['an inline flag', '(?i)^web', '', 'WEB-01', true],
    ['Unicode classes', '^\\p{Greek}+$', '', 'αβγ', true],
    ['a nested quantifier, harmless on RE2', '^(a+)+$', '', `${'a'.repeat(5000)}!`, false],
    ['seven stars over a long input', '.*.*.*.*.*.*.*=', '', 'x'.repeat(20_000), false],
  ])('%s', (_name, source, flags, input, expected) => {
    expect(compilePattern(source, flags).test(input)).toBe(expected);
  });

  test('the same pattern is compiled once', () => {
    expect(compilePattern('^cache-me$', 'i')).toBe(compilePattern('^cache-me$', 'i'));
  });

  test('a pattern it cannot run throws BadRequest with the patternError message', () => {
    expect(() => compilePattern('(a)\\1')).toThrow(BadRequest);
    expect(() => compilePattern('(a)\\1')).toThrow(patternError('(a)\\1') ?? 'unreachable');
  });
});

describe('patternError', () => {
  test.each([
    ['(a)\\1', '', /^not a valid regular expression: back-references \(\\1, \\k<name>\) are not supported/],
    ['(?P<n>a)(?P=n)', '', /back-references/],
    ['a(?=b)', '', /look-ahead and look-behind/],
    ['(?<=a)b', '', /look-ahead and look-behind/],
    ['(?>a)', '', /atomic groups/],
    ['a**', '', /a quantifier follows another one/],
    ['[z-a]', '', /a character range is reversed or invalid/],
    ['(', '', /a \( is not closed/],
    ['a)', '', /a \) has no matching \(/],
    ['x{1001}', '', /repeat counts \(\{n,m\}\) add up to more than 100/],
    ['a', 'x', /^options accept only the flags i, m and s \(got "x"\)$/],
    ['a', 'g', /only the flags i, m and s/],
    ['a'.repeat(MAX_PATTERN_LENGTH + 1), '', /^pattern is longer than 256 characters$/],
  ])('%s (%s)', (source, flags, message) => {
    expect(patternError(source, flags)).toMatch(message);
  });

  test('no RE2 text in any message', () => {
    for (const source of ['(a)\\1', '(?=a)', '[z-a]', '(', 'a**', '\\8', '\\cA']) {
      expect(patternError(source)).not.toMatch(/error parsing regexp|invalid or unsupported Perl syntax|`/);
    }
  });

  test('null for what compilePattern accepts', () => {
    expect(patternError('^(db|cache)-.*')).toBeNull();
    expect(patternError('.*\\.dc1\\.example\\.net', 'ims')).toBeNull();
  });
});

describe('unsafeRegexReason (the $regex guard) delegates and keeps its nested-quantifier rule', () => {
  test.each([
    ['(a+)+$', /nested quantifier/],
    ['^(a|aa)*$', /nested quantifier/],
    ['(a)\\1', /back-references/],
  ])('%s is refused', (source, message) => {
    expect(unsafeRegexReason(source)).toMatch(message);
  });

  test('a safe pattern passes', () => {
    expect(unsafeRegexReason('.*.*.*.*.*.*.*=')).toBeNull();
  });
});

describe('literalPrefix (the index range of an anchored pattern)', () => {
  test.each([
    ['^web-0[13]\\.', '', 'web-0'],
    ['^a\\.b', '', 'a.b'],
    ['^ab?c', '', 'a'],
    ['^abc+', '', 'abc'],
    ['^a\\d', '', 'a'],
    ['^web', 'i', ''],
    ['^web', 'm', ''],
    ['^a|b', '', ''],
    ['web', '', ''],
    ['^é', '', ''],
  ])('%s (%s) -> "%s"', (source, flags, prefix) => {
    expect(literalPrefix(source, flags)).toBe(prefix);
  });
});

describe('isPrefixOnly (a pattern the index range answers alone, without RE2)', () => {
  test.each([
    ['^db-', '', true],
    ['^web\\.0', '', true],
    ['^a b', 's', true],
    ['^abc+', '', false],
    ['^ab?', '', false],
    ['^a$', '', false],
    ['^web-0[13]', '', false],
    ['^web', 'i', false],
    ['^', '', false],
    ['db-', '', false],
  ])('%s (%s) -> %s', (source, flags, expected) => {
    expect(isPrefixOnly(source, flags)).toBe(expected);
  });
});

test('a prefix-only pattern in SQL matches exactly the ids that start with it', async () => {
  const store = openSqliteStore({ path: ':memory:' });
  try {
    const ids = [
      'db',
      'db-',
      'db-1',
      'db-~',
      'db.',
      'dc-1',
      'DB-1',
      'xdb-1',
      'web.0',
      'web.01',
      'webx0',
      'web-0',
    ];
    await store.insert(
      'hosts',
      ids.map((_id) => ({ _id })),
    );
    const found = async (regex: string) =>
      (await store.find('hosts', { _id: { $regex: regex } }, { sort: [['_id', 1]] })).map((d) => d._id);
    expect(await found('^db-')).toEqual(['db-', 'db-1', 'db-~']);
    expect(await found('^web\\.0')).toEqual(['web.0', 'web.01']);
    expect(await store.count('hosts', { _id: { $regex: '^db-' } })).toBe(3);
  } finally {
    await store.close();
  }
});
