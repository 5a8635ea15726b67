/**
 * Nodegroup expressions come from the master's configuration and run over every host name: their
 * `E@` regexes and globs run on the engine's linear-time matcher (RE2 semantics), like `where`.
 */
import { expressionMatches, globRegExp, pyMatch } from '../../packages/salt/src/nodegroups';

describe('nodegroup patterns', () => {
  it('E@ is Python re.match: anchored at the start, named groups as Python writes them', () => {
    expect(pyMatch('web-\\d+', 'web-01.fleet.test')).toBe(true);
    expect(pyMatch('(?P<site>ber|fra)-web', 'fra-web-02')).toBe(true);
    expect(pyMatch('web', 'db-web-01')).toBe(false);
  });

  it('a pattern that backtracks exponentially elsewhere answers at once, with the right result', () => {
    const name = `${'a'.repeat(40)}!`;
    expect(pyMatch('(a+)+$', name)).toBe(false);
    expect(pyMatch('(a|aa)+b', 'a'.repeat(60))).toBe(false);
    expect(expressionMatches('E@(.*)*x', { id: name, grains: {} }, {})).toBe(false);
  });

  it('a term no linear-time engine can run (a back-reference) matches nothing instead of failing', () => {
    expect(pyMatch('(?P<a>web)(?P=a)', 'webweb')).toBe(false);
  });

  it('globs are fnmatch: *, ?, [seq], [!seq], anchored at both ends', () => {
    expect(globRegExp('web-??.fleet.*').test('web-01.fleet.test')).toBe(true);
    expect(globRegExp('web-[!0]*').test('web-01')).toBe(false);
    expect(globRegExp('web-[0-9]*').test('web-01')).toBe(true);
    expect(globRegExp('*.test').test('web.test.org')).toBe(false);
  });
});
