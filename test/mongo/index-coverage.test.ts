/**
 * No server: every resource's indexes (as the mongo adapter creates them) against the sorts the
 * adapter sends (as plan.ts plans them, `_id` tie-breaker included). A sort is served when an
 * index yields its order with no in-memory SORT stage: MongoDB's rule
 * (https://www.mongodb.com/docs/manual/tutorial/sort-results-with-indexes/) is that the sort keys
 * are a run of the index keys, all in the index's directions or all reversed, and every index key
 * before that run is held equal by the filter. Checked for each resource's default sort (under its
 * soft-delete scope), for the sort each declared index is declared for (with every prefix of it
 * held equal), and for the hot queries the service itself runs (helpers/sorts.ts). The live counterpart, with
 * `explain('executionStats')` on a real server, is test/contract/mongo-explain.contract.test.ts.
 */
import { planSort, uniqueKeys } from '../../engine/src/store/mongo';
import { byName, declaredSorts, defaultSorts, keysOf, serves, serviceReads, type Key } from './helpers/sorts';

describe.each([
  ['default sorts', defaultSorts],
  ['declared index sorts', declaredSorts],
  ['service reads', serviceReads],
])('%s are served by an index, tie-breaker included', (_kind, reads) => {
  test.each(reads.map((r) => [`${r.resource}: ${r.label}`, r] as const))('%s', (_label, r) => {
    const res = byName(r.resource);
    const sort = planSort(r.sort, uniqueKeys(res.collection));
    const served = keysOf(res).filter((key) => serves(key, new Set(r.equal), sort));
    expect({ sort, served: served.length > 0 }).toEqual({ sort, served: true });
  });
});

describe('the serving rule itself', () => {
  const key: Key = [
    ['host', 1],
    ['_created', -1],
    ['_id', 1],
  ];
  test.each([
    [
      'the whole key',
      [],
      [
        ['host', 1],
        ['_created', -1],
        ['_id', 1],
      ],
      true,
    ],
    [
      'the whole key reversed',
      [],
      [
        ['host', -1],
        ['_created', 1],
        ['_id', -1],
      ],
      true,
    ],
    [
      'after an equal prefix',
      ['host'],
      [
        ['_created', -1],
        ['_id', 1],
      ],
      true,
    ],
    [
      'after an equal prefix, reversed',
      ['host'],
      [
        ['_created', 1],
        ['_id', -1],
      ],
      true,
    ],
    [
      'without the prefix held equal',
      [],
      [
        ['_created', -1],
        ['_id', 1],
      ],
      false,
    ],
    [
      'mixed directions',
      ['host'],
      [
        ['_created', -1],
        ['_id', -1],
      ],
      false,
    ],
    [
      'the tie-breaker missing from the index',
      ['host'],
      [
        ['_created', -1],
        ['_id', 1],
        ['x', 1],
      ],
      false,
    ],
  ] as const)('%s', (_label, equal, sort, expected) => {
    expect(
      serves(
        key,
        new Set(equal),
        sort.map(([p, d]) => [p, d]),
      ),
    ).toBe(expected);
  });

  test('an index without the tie-breaker does not serve a planned sort (what the adapter used to build)', () => {
    expect(serves([['_created', -1]], new Set(), planSort([['_created', -1]]))).toBe(false);
  });
});
