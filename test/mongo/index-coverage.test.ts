/**
 * No server: every resource's indexes (as the mongo adapter creates them) against the sorts the
 * adapter sends (as plan.ts plans them, `_id` tie-breaker included). A sort is served when an
 * index yields its order with no in-memory SORT stage: MongoDB's rule
 * (https://www.mongodb.com/docs/manual/tutorial/sort-results-with-indexes/) is that the sort keys
 * are a run of the index keys, all in the index's directions or all reversed, and every index key
 * before that run is held equal by the filter. Checked for each resource's default sort (under its
 * soft-delete scope), for the sort each declared index is declared for (with every prefix of it
 * held equal), and for the hot queries the service itself runs. The live counterpart, with
 * `explain('executionStats')` on a real server, is test/contract/mongo-explain.contract.test.ts.
 */
import { allResources } from '@fleet/resources';
import { compileResource, type CompiledResource } from '../../engine/src/compile/compile';
import { planIndexes, planSort, uniqueKeys, type DriverSort } from '../../engine/src/store/mongo';
import type { SortSpec } from '../../engine/src/store/port';

type Key = readonly (readonly [string, 1 | -1])[];

/** Whether an index with `key` gives `sort` with the fields of `equal` held equal (see above). */
export function serves(key: Key, equal: ReadonlySet<string>, sort: DriverSort): boolean {
  for (let start = 0; start + sort.length <= key.length; start++) {
    const window = key.slice(start, start + sort.length);
    const same = window.every(([path, dir], i) => sort[i]?.[0] === path && sort[i]?.[1] === dir);
    const reversed = window.every(([path, dir], i) => sort[i]?.[0] === path && sort[i]?.[1] === -dir);
    if (same || reversed) return true;
    if (!equal.has(key[start]?.[0] ?? '')) return false;
  }
  return false;
}

const resources = allResources.map((def) => compileResource(def));

/** The index keys the adapter creates for a resource, `_id_` included (every collection has it). */
function keysOf(res: CompiledResource): Key[] {
  return [[['_id', 1]], ...planIndexes(res.collection).map((plan) => Object.entries(plan.key) as Key)];
}

/** One read: the fields its filter holds equal (the soft-delete scope added) and its sort. */
interface Read {
  readonly resource: string;
  readonly label: string;
  readonly equal: readonly string[];
  readonly sort: SortSpec;
}

function read(res: CompiledResource, label: string, equal: readonly string[], sort: SortSpec): Read {
  const scope = res.softDelete ? [res.softDelete.field] : [];
  return { resource: res.name, label, equal: [...scope, ...equal], sort };
}

/** Each resource's default sort: what every list page without `sort` asks for. */
const defaultSorts: Read[] = resources.map((res) => read(res, 'default sort', [], res.def.defaultSort ?? []));

/** Each declared index's own sort, with each prefix of its keys held equal (`host = X`, sorted by `-_created`). */
const declaredSorts: Read[] = resources.flatMap((res) =>
  (res.def.indexes ?? [])
    .filter((index) => index.unique !== true)
    .flatMap((index) =>
      index.fields.map((_, j) =>
        read(
          res,
          `index ${JSON.stringify(index.fields)} with ${j} key(s) equal`,
          index.fields.slice(0, j).map(([path]) => path),
          index.fields.slice(j),
        ),
      ),
    ),
);

const byName = (name: string): CompiledResource => {
  const res = resources.find((r) => r.name === name);
  if (!res) throw new Error(`no resource ${name}`);
  return res;
};

/** The service's own hot reads (the snapshot loop, the statistics, the retention). */
const serviceReads: Read[] = [
  read(
    byName('hosts_history'),
    'the block at or before a time (latest first, limit 1)',
    ['column'],
    [['timestamp', -1]],
  ),
  read(
    byName('hosts_history'),
    'a column over a time range, in time order',
    ['column'],
    [
      ['timestamp', 1],
      ['_id', 1],
    ],
  ),
  read(byName('hosts_history'), 'the retention: oldest rows first', [], [['timestamp', 1]]),
  read(byName('hosts_statistic'), 'the latest snapshot (limit 1)', [], [['timestamp', -1]]),
  read(
    byName('hosts_statistic'),
    'snapshots over a time range, in time order',
    [],
    [
      ['timestamp', 1],
      ['_id', 1],
    ],
  ),
  read(byName('actions'), "a host's actions, newest first", ['host'], [['_created', -1]]),
  read(byName('tasks'), 'the scheduler: due tasks of a status by next run', ['status'], [['next', 1]]),
];

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
