/**
 * The reads whose sorts an index must serve, and MongoDB's rule for when one does
 * (https://www.mongodb.com/docs/manual/tutorial/sort-results-with-indexes/): the sort keys are a
 * run of the index keys, all in the index's directions or all reversed, and every index key
 * before that run is held equal by the filter. Used without a server (index-coverage.test.ts) and
 * against one (test/contract/mongo-explain.contract.test.ts).
 */
import { allResources } from '@fleet/resources';
import { compileResource, type CompiledResource } from '../../../engine/src/compile/compile';
import { planIndexes, type DriverSort } from '../../../engine/src/store/mongo';
import type { SortSpec } from '../../../engine/src/store/port';

export type Key = readonly (readonly [string, 1 | -1])[];

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

export const resources = allResources.map((def) => compileResource(def));

/** The index keys the adapter creates for a resource, `_id_` included (every collection has it). */
export function keysOf(res: CompiledResource): Key[] {
  return [[['_id', 1]], ...planIndexes(res.collection).map((plan) => Object.entries(plan.key) as Key)];
}

/** One read: the fields its filter holds equal (the soft-delete scope added) and its sort. */
export interface Read {
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
export const defaultSorts: Read[] = resources.map((res) =>
  read(res, 'default sort', [], res.def.defaultSort ?? []),
);

/** Each declared index's own sort, with each prefix of its keys held equal (`host = X`, sorted by `-_created`). */
export const declaredSorts: Read[] = resources.flatMap((res) =>
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

export const byName = (name: string): CompiledResource => {
  const res = resources.find((r) => r.name === name);
  if (!res) throw new Error(`no resource ${name}`);
  return res;
};

/** The service's own hot reads (the snapshot loop, the statistics, the retention). */
export const serviceReads: Read[] = [
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
