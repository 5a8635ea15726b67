/**
 * Index builds in the background. `createIndex` has no time limit and, on a replica set, returns
 * only once every voting member has built the index (commit quorum `votingMembers`, the default
 * since 4.4: https://www.mongodb.com/docs/manual/core/index-creation/): on a large collection, or
 * with a secondary down, it runs past the socket time-out. So `ensureCollection` only queues the
 * builds (tasks.ts) and the API serves meanwhile, reads that want a missing index being slower.
 *
 * Each build first lists the collection's indexes: one already there with the same keys and
 * uniqueness is done without a call (a restart sends no `createIndexes` at all). Otherwise it asks
 * for the index; a call that times out on the client is asked again later (the build goes on on
 * the server: the new request waits for it, or is told one is under way, and either way the task
 * ends once the index is listed). Creation is additive: an
 * index that exists with other options, or a unique one that the data violates, is logged and
 * skipped; nothing is ever dropped.
 */
import type mongoose from 'mongoose';
import type { Log } from '../../log';
import { ServiceUnavailable } from '../../errors';
import type { Doc } from '../port';
import { translateMongoError } from './errors';
import type { IndexPlan } from './plan';
import type { TaskStep } from './tasks';

type Collection = mongoose.mongo.Collection<Doc>;

/** IndexOptionsConflict, IndexKeySpecsConflict: an index of that name or key exists, differently. */
const INDEX_MISMATCH_CODES: ReadonlySet<number> = new Set([85, 86]);
/** NamespaceNotFound: the collection does not exist yet (no index either). */
const NO_COLLECTION = 26;
/** IndexBuildAlreadyInProgress: a conflicting build of this index is under way. */
const BUILD_IN_PROGRESS = 285;

function codeOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number'
    ? error.code
    : undefined;
}

/** An index as `listIndexes` describes it. */
interface ListedIndex {
  readonly key: Record<string, unknown>;
  readonly unique?: boolean;
  readonly name?: string;
}

/** The same keys in the same order and directions. */
function sameKeys(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  return JSON.stringify(Object.entries(a)) === JSON.stringify(Object.entries(b));
}

/** How an index is named in status and logs: `hosts {"status":1,"_id":1} unique`. */
export function indexTaskName(collection: string, plan: IndexPlan): string {
  return `${collection} ${JSON.stringify(plan.key)}${plan.unique === true ? ' unique' : ''}`;
}

async function listed(target: Collection): Promise<ListedIndex[]> {
  try {
    return (await target.listIndexes().toArray()) as ListedIndex[];
  } catch (error) {
    if (codeOf(error) === NO_COLLECTION) return [];
    throw translateMongoError(error);
  }
}

/** An index this declaration replaces: the same keys without the `_id` tie-breaker (an older version's). */
function superseded(indexes: readonly ListedIndex[], plan: IndexPlan): ListedIndex | undefined {
  const { _id: _tie, ...rest } = plan.key;
  if (plan.unique === true || !('_id' in plan.key) || Object.keys(rest).length === 0) return undefined;
  return indexes.find((ix) => ix.unique !== true && sameKeys(ix.key, rest));
}

/** The background step that builds one index (see above). */
export function indexStep(
  collectionOf: () => Promise<Collection>,
  plan: IndexPlan,
  log: Log | undefined,
): TaskStep {
  return async () => {
    const target = await collectionOf();
    const indexes = await listed(target);
    const old = superseded(indexes, plan);
    if (old)
      log?.info(
        { collection: target.collectionName, index: old.name, by: plan.key },
        'mongodb index superseded by one ending with the _id tie-breaker; it can be dropped',
      );
    if (indexes.some((ix) => sameKeys(ix.key, plan.key) && (ix.unique === true) === (plan.unique === true)))
      return 'done';
    try {
      await target.createIndex(plan.key, plan.unique === true ? { unique: true } : {});
      return 'done';
    } catch (error) {
      const code = codeOf(error);
      if (code === BUILD_IN_PROGRESS) throw new ServiceUnavailable('the server is building this index');
      if (code === undefined || !(INDEX_MISMATCH_CODES.has(code) || code === 11000))
        throw translateMongoError(error);
      const why =
        code === 11000 ? 'existing documents violate it' : 'an index on these keys exists with other options';
      log?.warn(
        { collection: target.collectionName, index: plan.key, code },
        `mongodb index not created: ${why}`,
      );
      return { skipped: why };
    }
  };
}
