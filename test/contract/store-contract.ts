/**
 * The store contract: one suite every adapter of the store port must pass (Feathers adapter-tests
 * style). Fixtures go in through the port only; each concern is its own `describe`, and an adapter
 * may opt out of a concern only by stating why.
 */
import type { Store } from '../../engine/src/store/port';
import { aggregateTests } from './contract/aggregation';
import { batchTests } from './contract/batch';
import { columnRowsTests } from './contract/column-rows';
import { concurrentWritesTests } from './contract/concurrent-writes';
import { findOneAndUpdateTests, leasesTests } from './contract/claims-leases';
import { datetimesTests } from './contract/datetimes';
import { declaredPathTests } from './contract/declared-paths';
import { idOnlyProjectionTests, listTests } from './contract/lists';
import { HOSTS, JOBS, PLAIN, hosts, type Context } from './contract/fixtures';
import { lifecycleTests } from './contract/lifecycle';
import { patternTests } from './contract/patterns';
import { mediaTests } from './contract/media';
import { pushDownEquivalenceTests } from './contract/pushdown-equivalence';
import { countTests, nestedAndArrayFieldsTests, queryOperatorsTests } from './contract/queries';
import { projectionTests, skipAndLimitTests, sortTests } from './contract/sort-project-page';
import { updateTests } from './contract/updates';
import { deleteTests, insertTests } from './contract/writes-unique';

/** The concerns of the suite, each a `describe`. */
export type Concern =
  | 'query operators'
  | 'nested and array fields'
  | 'declared paths inside objects'
  | 'lists of scalars'
  | 'id-only projection'
  | 'datetimes'
  | 'sort'
  | 'projection'
  | 'skip and limit'
  | 'count'
  | 'patterns'
  | 'insert'
  | 'update'
  | 'findOneAndUpdate'
  | 'delete'
  | 'batch writes'
  | 'concurrent writes'
  | 'aggregate'
  | 'push-down equivalence'
  | 'media'
  | 'leases'
  | 'lifecycle'
  | 'column rows';

/** Options of {@link runStoreContract}. */
export interface StoreContractOptions {
  /** Whether a failing `write` batch rolls back the writes before it (every adapter now does). */
  readonly atomicBatches: boolean;
  /**
   * Patterns whose backtracking has no bound are refused with a 400 naming `where` (MongoDB, whose
   * server runs `$regex` on PCRE) rather than matched in linear time (SQLite, on RE2).
   */
  readonly boundedPatterns?: boolean;
}

/** The suite, one entry per concern (a table, so a new concern cannot be forgotten in the runner). */
const CONCERNS: Readonly<Record<Concern, (ctx: Context, options: StoreContractOptions) => void>> = {
  'query operators': queryOperatorsTests,
  'nested and array fields': nestedAndArrayFieldsTests,
  'declared paths inside objects': declaredPathTests,
  'lists of scalars': listTests,
  'id-only projection': idOnlyProjectionTests,
  datetimes: datetimesTests,
  sort: sortTests,
  projection: projectionTests,
  'skip and limit': skipAndLimitTests,
  count: countTests,
  patterns: (ctx, options) => patternTests(ctx, { refusesBacktracking: options.boundedPatterns === true }),
  insert: insertTests,
  update: updateTests,
  findOneAndUpdate: findOneAndUpdateTests,
  delete: deleteTests,
  'batch writes': (ctx, options) => batchTests(ctx, { atomic: options.atomicBatches }),
  'concurrent writes': (ctx, options) => concurrentWritesTests(ctx, { atomic: options.atomicBatches }),
  aggregate: aggregateTests,
  'push-down equivalence': pushDownEquivalenceTests,
  media: mediaTests,
  leases: leasesTests,
  lifecycle: lifecycleTests,
  'column rows': columnRowsTests,
};

/** Declares the contract suite for one adapter; `open` must return a fresh, empty store each call. */
export function runStoreContract(
  adapterName: string,
  open: () => Promise<Store>,
  options: StoreContractOptions,
): void {
  describe(`store contract: ${adapterName}`, () => {
    let current: Store | undefined;
    const ctx: Context = {
      get store(): Store {
        if (current === undefined) throw new Error('the store is opened by beforeEach: use it inside a test');
        return current;
      },
      ids: async (collection, filter, find = {}) =>
        (await ctx.store.find(collection, filter, { sort: [['_id', 1]], ...find })).map((d) => d._id),
      one: async (id) => (await ctx.store.find('hosts', { _id: id }))[0],
    };
    beforeEach(async () => {
      current = await open();
      for (const spec of [HOSTS, PLAIN, JOBS]) await ctx.store.ensureCollection(spec);
      await ctx.store.insert('hosts', hosts());
      await ctx.store.insert('hosts_plain', hosts());
    });
    afterEach(async () => {
      // Some tests close the store themselves; a second close may reject, which is fine here.
      await ctx.store.close().catch(() => undefined);
    });
    for (const [name, declare] of Object.entries(CONCERNS) as [
      Concern,
      (c: Context, o: StoreContractOptions) => void,
    ][]) {
      describe(name, () => declare(ctx, options));
    }
  });
}
