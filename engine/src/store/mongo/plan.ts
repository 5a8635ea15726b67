/**
 * Pure plans of the driver calls the mongo adapter makes: for a port call, the exact method,
 * filter, update, pipeline and options handed to the MongoDB driver. No connection is needed, so
 * the no-server tests assert them for a table of API-level queries, and the adapter runs them.
 *
 * Filters, updates and pipelines pass through untouched: MongoDB's dialect is the port's dialect.
 * The plans only add what the port promises and MongoDB does not do by itself: a stable order
 * (`_id` tie-breaker, which every declared index ends with too, so the index that serves a sort
 * serves it whole), `_id` always projected, string ids on upsert, all-or-nothing ordered inserts.
 */
import { BadRequest } from '../../errors';
import type {
  CollectionSpec,
  Doc,
  IndexSpec,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  Projection,
  SortSpec,
  Update,
  UpdateOptions,
} from '../port';

/** A sort as the driver takes it: ordered pairs (an object would reorder integer-like keys). */
export type DriverSort = [string, 1 | -1][];

/** `collection.find(filter, options)`. */
export interface FindPlan {
  readonly collection: string;
  readonly filter: Filter;
  readonly options: {
    sort: DriverSort;
    projection?: Projection;
    skip?: number;
    limit?: number;
    /**
     * A sort no index serves may spill to disk instead of failing at the 100 MB in-memory limit of
     * 4.4 and 5.0 (`find` takes `allowDiskUse` since 4.4; 6.0 allows it by default): it is then
     * bounded by `maxTimeMS` like any other slow query.
     */
    allowDiskUse: true;
  };
}

/** `countDocuments(filter)` uses the filter's index; an unfiltered count reads collection metadata. */
export type CountPlan =
  | { readonly collection: string; readonly method: 'countDocuments'; readonly filter: Filter }
  | { readonly collection: string; readonly method: 'estimatedDocumentCount' };

/** `updateOne` / `updateMany` with operators, or `replaceOne` with a whole document. */
export interface UpdatePlan {
  readonly collection: string;
  readonly method: 'updateOne' | 'updateMany' | 'replaceOne';
  readonly filter: Filter;
  readonly update: Update;
  readonly options: { upsert: boolean };
}

/** `findOneAndUpdate` with operators, or `findOneAndReplace` with a whole document. */
export interface FindOneAndUpdatePlan {
  readonly collection: string;
  readonly method: 'findOneAndUpdate' | 'findOneAndReplace';
  readonly filter: Filter;
  readonly update: Update;
  readonly options: {
    sort?: DriverSort;
    upsert: boolean;
    returnDocument: 'after' | 'before';
    includeResultMetadata: false;
  };
}

/** `collection.aggregate(pipeline, options)`. */
export interface AggregatePlan {
  readonly collection: string;
  readonly pipeline: Record<string, unknown>[];
  readonly options: { allowDiskUse: true };
}

/** `collection.insertMany(docs, options)`. */
export interface InsertPlan {
  readonly collection: string;
  readonly docs: Doc[];
  readonly options: { ordered: true };
}

/** One `createIndexes` entry. Names are left to the server (`host_1__created_-1`), as Mongoose does. */
export interface IndexPlan {
  readonly key: Record<string, 1 | -1>;
  readonly unique?: true;
}

/** Makes a new string id for an upserted document (24-hex in ObjectId layout). */
export type NewId = () => string;

/**
 * The sort with `_id` appended when absent, so ties (and no sort at all) come back in a stable order.
 * A sort that starts with every key of a unique index (`uniques`) can have no ties: nothing is
 * appended, so that unique index serves it as it is (the order is the same either way).
 */
export function planSort(sort: SortSpec | undefined, uniques: readonly SortSpec[] = []): DriverSort {
  const pairs: DriverSort = (sort ?? []).map(([path, dir]) => [path, dir]);
  const total = uniques.some((keys) => keys.length > 0 && keys.every(([path], i) => pairs[i]?.[0] === path));
  if (!total && !pairs.some(([path]) => path === '_id')) pairs.push(['_id', 1]);
  return pairs;
}

/**
 * Two projected paths where one lies inside the other (`os` and `os.family`): MongoDB 4.4 and
 * later refuse them ("Path collision", codes 31249/31250), so they are refused before the call.
 */
export function projectionCollision(paths: readonly string[]): readonly [string, string] | undefined {
  for (const outer of paths)
    for (const inner of paths) if (inner.startsWith(`${outer}.`)) return [outer, inner];
  return undefined;
}

/** The projection, or none; `_id` is always kept, so an `_id: 0` is dropped. Overlapping paths are a 400. */
export function planProjection(projection: Projection | undefined): Projection | undefined {
  if (projection === undefined) return undefined;
  const kept = Object.entries(projection).filter(([path, flag]) => !(path === '_id' && flag === 0));
  const collision = projectionCollision(kept.map(([path]) => path));
  if (collision)
    throw new BadRequest(
      `projection: "${collision[0]}" and "${collision[1]}" overlap (one lies inside the other): name only one of them`,
    );
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

/** Plans `find`: the filter as given, sort with the tie-breaker, projection, skip and limit. */
export function planFind(
  collection: string,
  filter: Filter,
  options: FindOptions = {},
  uniques: readonly SortSpec[] = [],
): FindPlan {
  const projection = planProjection(options.projection);
  return {
    collection,
    filter,
    options: {
      sort: planSort(options.sort, uniques),
      ...(projection ? { projection } : {}),
      ...(options.skip !== undefined && options.skip > 0 ? { skip: options.skip } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      allowDiskUse: true,
    },
  };
}

/** Plans `count`: estimated for an empty filter (O(1) on any size), else `countDocuments`. */
export function planCount(collection: string, filter: Filter): CountPlan {
  if (Object.keys(filter).length === 0) return { collection, method: 'estimatedDocumentCount' };
  return { collection, method: 'countDocuments', filter };
}

/** An update made of operators (`$set`, ...) rather than a replacement document. */
export function isOperatorUpdate(update: Update): boolean {
  return Object.keys(update).some((key) => key.startsWith('$'));
}

/** The update itself sets `_id` (`$set._id`, `$setOnInsert._id`, or a replacement's `_id`). */
function updateSetsId(update: Update): boolean {
  if (!isOperatorUpdate(update)) return '_id' in update;
  return ['$set', '$setOnInsert'].some((op) => {
    const fields = update[op];
    return typeof fields === 'object' && fields !== null && '_id' in fields;
  });
}

/**
 * The update to send when it may insert. Without an `_id` in the filter or the update, MongoDB
 * would generate an ObjectId; ids are strings in both stores, so one is given.
 */
export function withUpsertId(filter: Filter, update: Update, newId: NewId): Update {
  if ('_id' in filter || updateSetsId(update)) return update;
  if (!isOperatorUpdate(update)) return { ...update, _id: newId() };
  const onInsert = update.$setOnInsert;
  const base = typeof onInsert === 'object' && onInsert !== null ? onInsert : {};
  return { ...update, $setOnInsert: { ...base, _id: newId() } };
}

/** Plans `update`: `updateOne`/`updateMany` with operators, `replaceOne` with a document. */
export function planUpdate(
  collection: string,
  filter: Filter,
  update: Update,
  options: UpdateOptions & { newId: NewId },
): UpdatePlan {
  const upsert = options.upsert === true;
  const operator = isOperatorUpdate(update);
  const method = !operator ? 'replaceOne' : options.multi === true ? 'updateMany' : 'updateOne';
  return {
    collection,
    method,
    filter,
    update: upsert ? withUpsertId(filter, update, options.newId) : update,
    options: { upsert },
  };
}

/** Plans `findOneAndUpdate`: atomic on one document, after-image by default. */
export function planFindOneAndUpdate(
  collection: string,
  filter: Filter,
  update: Update,
  options: FindOneAndUpdateOptions & { newId: NewId },
  uniques: readonly SortSpec[] = [],
): FindOneAndUpdatePlan {
  const upsert = options.upsert === true;
  return {
    collection,
    method: isOperatorUpdate(update) ? 'findOneAndUpdate' : 'findOneAndReplace',
    filter,
    update: upsert ? withUpsertId(filter, update, options.newId) : update,
    options: {
      ...(options.sort ? { sort: planSort(options.sort, uniques) } : {}),
      upsert,
      returnDocument: options.returnDocument ?? 'after',
      // Resolve the document itself, not the `{value, ok, lastErrorObject}` envelope.
      includeResultMetadata: false,
    },
  };
}

/** Plans `aggregate`: the pipeline as given; large `$group`/`$sort` stages may spill to disk. */
export function planAggregate(
  collection: string,
  pipeline: readonly Record<string, unknown>[],
): AggregatePlan {
  return { collection, pipeline: [...pipeline], options: { allowDiskUse: true } };
}

/** Plans `insert`: ordered, so a failure stops at the first bad document (see store.ts for the undo). */
export function planInsert(collection: string, docs: readonly Doc[]): InsertPlan {
  return { collection, docs: [...docs], options: { ordered: true } };
}

/**
 * Index key document, in declaration order, ending with the tie-breaker every planned sort ends
 * with (`{host: 1, _created: -1, _id: 1}`): an index on `{_created: -1}` alone cannot give the
 * order of `{_created: -1, _id: 1}`, so MongoDB would read every match and sort it in memory.
 * Ascending, like the tie-breaker, so the index read forwards gives exactly the sort the
 * declaration names. Unique indexes keep their keys: `_id` would change what they make unique.
 */
export function indexKeys(index: IndexSpec): Record<string, 1 | -1> {
  const keys: Record<string, 1 | -1> = Object.fromEntries(index.fields);
  if (index.unique !== true && !('_id' in keys)) keys._id = 1;
  return keys;
}

/** The indexes `ensureCollection` creates for a collection spec, in declaration order. */
export function planIndexes(spec: CollectionSpec): IndexPlan[] {
  return spec.indexes.map((index) => ({
    key: indexKeys(index),
    ...(index.unique === true ? { unique: true as const } : {}),
  }));
}

/** The key lists of a spec's unique indexes: sorts that start with one need no tie-breaker. */
export function uniqueKeys(spec: CollectionSpec): SortSpec[] {
  return spec.indexes.filter((index) => index.unique === true).map((index) => index.fields);
}
