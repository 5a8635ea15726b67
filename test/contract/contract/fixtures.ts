/**
 * What every concern of the store contract shares: the collections, the six fixture hosts (put in
 * through the port by the runner before each test) and the context a concern's tests read.
 */
import type { CollectionSpec, Doc, Filter, FindOptions, Store } from '../../../engine/src/store/port';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);
/** A fixed datetime `days` after 2024-01-01T00:00Z. */
export const at = (days: number): Date => new Date(T0 + days * DAY);

/** Hosts, declared with push-down candidates and indexes. */
export const HOSTS: CollectionSpec = {
  name: 'hosts',
  scalarPaths: {
    name: 'string',
    status: 'string',
    cpu: 'integer',
    load: 'number',
    active: 'boolean',
    _created: 'datetime',
    'os.family': 'string',
  },
  datetimePaths: ['_created', 'fingerprint_history.added', 'events.at'],
  indexes: [
    { fields: [['name', 1]], unique: true },
    {
      fields: [
        ['status', 1],
        ['_created', -1],
      ],
    },
    { fields: [['cpu', 1]] },
  ],
};
/** The same documents with nothing an adapter could push down: the reference for equivalence. */
export const PLAIN: CollectionSpec = { ...HOSTS, name: 'hosts_plain', scalarPaths: {}, indexes: [] };
/** A plain queue for the claim tests. */
export const JOBS: CollectionSpec = {
  name: 'jobs',
  scalarPaths: { status: 'string', n: 'integer' },
  datetimePaths: [],
  indexes: [],
};

/** Six hosts with missing fields, nulls, arrays, nested objects and datetimes inside arrays. */
export function hosts(): Doc[] {
  return [
    {
      _id: 'h1',
      name: 'alpha',
      status: 'up',
      cpu: 4,
      load: 0.5,
      active: true,
      _created: at(0),
      os: { family: 'debian', version: '12' },
      tags: ['web', 'prod'],
      fingerprint_history: [{ fp: 'aa', added: at(0) }],
    },
    {
      _id: 'h2',
      name: 'beta',
      status: 'down',
      cpu: 8,
      load: 1.5,
      active: false,
      _created: at(1),
      os: { family: 'debian', version: '11' },
      tags: ['db'],
      fingerprint_history: [
        { fp: 'bb', added: at(1) },
        { fp: 'bc', added: at(5) },
      ],
    },
    {
      _id: 'h3',
      name: 'gamma',
      status: 'up',
      cpu: 2,
      load: null,
      active: true,
      _created: at(2),
      os: { family: 'ubuntu', version: '22.04' },
      tags: [],
    },
    { _id: 'h4', name: 'delta', status: 'up', cpu: 4, _created: at(3), tags: ['web'] },
    {
      _id: 'h5',
      name: 'Epsilon',
      status: 'unknown',
      cpu: 16,
      load: 3,
      active: false,
      _created: at(4),
      os: { family: 'centos' },
      tags: ['web', 'db', 'prod'],
    },
    {
      _id: 'h6',
      name: 'zeta',
      status: 'down',
      cpu: 4,
      load: 0.5,
      active: true,
      _created: at(5),
      tags: ['edge', 'prod'],
      events: [{ kind: 'boot', at: at(6) }],
    },
  ];
}

/** A filter case: its label, the filter and the ids it must find. */
export type Case = readonly [label: string, filter: Filter, expected: readonly string[]];

/** What every concern's tests reach: the current store (fresh per test) and two read helpers. */
export interface Context {
  readonly store: Store;
  /** The ids `find` returns (sorted by `_id` unless `find.sort` says otherwise). */
  ids(collection: string, filter: Filter, find?: FindOptions): Promise<string[]>;
  /** One host by id. */
  one(id: string): Promise<Doc | undefined>;
}
