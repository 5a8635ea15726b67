/**
 * The load scenarios of `pnpm bench`, each a request autocannon repeats against one of
 * the bench's servers. S1 itself (and its raw, sqlite-ref and Feathers anchors) runs through
 * anchors.sh (anchors.ts); "S1s" is the same query on `fleet serve`, the base of S2, S8 and S10.
 * S9 (statistics, one request at a time) is in statistics.ts.
 */
import type { Scenario } from './load';

/** The servers the scenarios run on (servers.ts starts them). */
export type ServerKey =
  /** The anchors' 10,000 hosts on `fleet serve`, pinned to core 0. */
  | 'anchor'
  /** The anchors' generator at 100,000 hosts. */
  | 'big'
  /** The seeded fleet: 10,000 hosts with grains, 1,000,000 actions. */
  | 'seeded'
  /** The graph bench's 2,000 groups over 10,000 hosts. */
  | 'graph'
  /** The anchor file again, WORKERS=2, on every core. */
  | 'workers';

/** Ids the requests need, found on the running servers (fixtures.ts). */
export interface Fixtures {
  /** A host of the seeded fleet with actions (the host of the newest action). */
  readonly host: string;
  /** Another host of the seeded fleet, the one S7 patches. */
  readonly patchHost: string;
  /** A group three levels deep (container, sub-containers, rule groups). */
  readonly group: string;
  /** The root of the graph bench's 2,000 groups (a master, type 2). */
  readonly root: string;
}

/** One scenario of the table. */
export interface ScenarioDef {
  /** `S3`, or `S5a` for one of a scenario's requests. */
  readonly id: string;
  readonly server: ServerKey;
  /** The request, given the fixtures. */
  readonly request: (f: Fixtures) => Scenario;
}

/** The task S7 posts; removed after the run by its name. */
export const BENCH_TASK = 'bench task';

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** The anchors' query: hosts `status=up` sorted by `_id`, page 3 of 25. */
export const ANCHOR_PATH = `/api/hosts?where=${q({ status: 'up' })}&sort=_id&page=3`;

const anchorQuery = (name: string, connections?: number): Scenario => ({
  name,
  method: 'GET',
  path: ANCHOR_PATH,
  ...(connections === undefined ? {} : { connections }),
});

/** Every load scenario, in the order a round runs them (the table has its own order). */
export const SCENARIOS: readonly ScenarioDef[] = [
  {
    id: 'S1s',
    server: 'anchor',
    request: () => anchorQuery('S1 on fleet serve, 10,000 hosts (base of S2/S8/S10)'),
  },
  // Right after S1s: their ratio is the target, and the machine drifts over a round.
  { id: 'S10', server: 'workers', request: () => anchorQuery('S1 with WORKERS=2 (all cores)') },
  { id: 'S2', server: 'big', request: () => anchorQuery('S1 query at 100,000 hosts') },
  {
    id: 'S3',
    server: 'seeded',
    request: (f) => ({
      name: 'host item with grains',
      method: 'GET',
      path: `/api/hosts/${encodeURIComponent(f.host)}`,
    }),
  },
  {
    id: 'S4',
    server: 'seeded',
    request: (f) => ({
      name: "one host's actions, -_created, of 1M",
      method: 'GET',
      path: `/api/actions?where=${q({ host: f.host })}&sort=-_created`,
    }),
  },
  {
    id: 'S5a',
    server: 'seeded',
    request: () => ({
      name: 'hosts where grain.os=Debian',
      method: 'GET',
      path: `/api/hosts?where=${q({ 'grain.os': 'Debian' })}`,
    }),
  },
  {
    id: 'S5b',
    server: 'seeded',
    request: () => ({
      name: 'hosts where _id $regex ^db-',
      method: 'GET',
      path: `/api/hosts?where=${q({ _id: { $regex: '^db-' } })}`,
    }),
  },
  // One connection: a request costs ~0.3 s alone (10,000 names from 80 rule branches); 10 at once
  // would answer none in a short run, and the figure of interest is what one request costs.
  {
    id: 'S6a',
    server: 'graph',
    request: (f) => ({
      name: 'hostnames of a 3-level group (1 connection)',
      method: 'GET',
      path: `/api/groups/${f.group}/hostnames`,
      connections: 1,
    }),
  },
  // The graph of 2,000 groups, on the same store (its target: p99 <= 100 ms one at a time).
  {
    id: 'S6b',
    server: 'graph',
    request: (f) => ({
      name: 'graph of 2,000 groups (1 connection)',
      method: 'GET',
      path: `/api/graph/${f.root}`,
      connections: 1,
    }),
  },
  // 50 connections: a burst of writes from many clients, the case group commit is for.
  {
    id: 'S7a',
    server: 'seeded',
    request: (f) => ({
      name: 'POST tasks, 50 connections (durable writes/s)',
      method: 'POST',
      path: '/api/tasks',
      connections: 50,
      body: JSON.stringify({
        name: BENCH_TASK,
        fun: 'test.ping',
        tgt: [f.host],
        start: '2030-01-01 00:00',
        interval: 3600,
      }),
    }),
  },
  {
    id: 'S7b',
    server: 'seeded',
    request: (f) => ({
      name: 'PATCH a host (writes/s)',
      method: 'PATCH',
      path: `/api/hosts/${encodeURIComponent(f.patchHost)}`,
      // Two values in turn: every PATCH changes the host (a new _etag and _updated to write).
      body: ['a', 'b'].map((v) => JSON.stringify({ identification_number: `bench-${v}` })),
    }),
  },
  { id: 'S8a', server: 'anchor', request: () => anchorQuery('S1 at 100 connections', 100) },
  { id: 'S8b', server: 'anchor', request: () => anchorQuery('S1 at 200 connections', 200) },
];
