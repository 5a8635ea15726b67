/**
 * Collections: every page of a query (`pages`), every item (`items`, `all`), creating one item or
 * several with the answer each gets, and `where` filters typed by the items they filter.
 */
import { failure, FleetApiError, succeeded, type FleetClient } from './client';
import {
  byPathKind,
  type CreateBody,
  type CreatePath,
  type ItemOf,
  type ListPath,
  type ListQuery,
  type PageOf,
  type Written,
} from './kinds';

export type { CreatePath, ItemOf, ListPath, ListQuery, PageOf } from './kinds';

/** Every page of a query, in order, until the last (the one without `_links.next`). */
export async function* pages<P extends ListPath>(
  client: FleetClient,
  path: P,
  query?: ListQuery<P>,
): AsyncGenerator<PageOf<P>> {
  const api = byPathKind(client);
  for (let page = 1; ; page += 1) {
    const result = await api.GET(path, { params: { query: { ...query, page } } });
    if (!succeeded(result)) throw failure(result);
    yield result.data;
    if (result.data._links.next === undefined) return;
  }
}

/** Every item of a query, page after page. */
export async function* items<P extends ListPath>(
  client: FleetClient,
  path: P,
  query?: ListQuery<P>,
): AsyncGenerator<ItemOf<P>> {
  for await (const page of pages(client, path, query)) yield* page._items;
}

/** Every item of a query, as one array. */
export async function all<P extends ListPath>(
  client: FleetClient,
  path: P,
  query?: ListQuery<P>,
): Promise<ItemOf<P>[]> {
  const out: ItemOf<P>[] = [];
  for await (const item of items(client, path, query)) out.push(item);
  return out;
}

/** POSTs a document or a list; the write answers, in order (one document is answered as a single write, Eve's, several as `_items`). */
async function post<P extends CreatePath>(
  client: FleetClient,
  path: P,
  body: CreateBody<P> | readonly CreateBody<P>[],
): Promise<Written<P>[]> {
  const result = await byPathKind(client).POST(path, { body });
  if (!succeeded(result)) throw failure(result);
  const data = result.data;
  return '_items' in data ? data._items : [data];
}

/** Creates one item; resolves its write answer (`_id`, `_etag`, `_links`, ...). */
export async function createOne<P extends CreatePath>(
  client: FleetClient,
  path: P,
  body: CreateBody<P>,
): Promise<Written<P>> {
  const [written] = await post(client, path, body);
  // A 2xx create without its write answer is not the API's.
  if (written === undefined) throw new FleetApiError(502, undefined);
  return written;
}

/** Creates several items at once (all or none: a 422 names each refused document); resolves their answers, in order. */
export async function createMany<P extends CreatePath>(
  client: FleetClient,
  path: P,
  bodies: readonly CreateBody<P>[],
): Promise<Written<P>[]> {
  return post(client, path, bodies);
}

type Element<V> = V extends readonly (infer E)[] ? E : V;
/** What a field is compared with: its value, or an element of a list (`{"groups": "<id>"}` matches a host in that group). */
type Comparable<V> =
  Exclude<Element<NonNullable<V>>, Record<string, unknown>> | (null extends V ? null : never);

/** The operators a `where` allows on one field (query/where.ts). */
export interface FieldOperators<V> {
  $eq?: V;
  $ne?: V;
  $gt?: V;
  $gte?: V;
  $lt?: V;
  $lte?: V;
  $in?: readonly V[];
  $nin?: readonly V[];
  $exists?: boolean;
  $regex?: string;
  $size?: number;
  $all?: readonly V[];
  $not?: FieldOperators<V>;
}

/** A filter of items `T` in MongoDB syntax: fields, dotted paths into sub-documents, $and / $or / $nor. */
export type Where<T> = { [K in keyof T & string]?: Comparable<T[K]> | FieldOperators<Comparable<T[K]>> } & {
  $and?: readonly Where<T>[];
  $or?: readonly Where<T>[];
  $nor?: readonly Where<T>[];
} & { [path: `${string}.${string}`]: unknown };

/** The `where` parameter of a filter: `where<Schemas['Host']>({ status: 'up' })`. */
export function where<T = Record<string, unknown>>(filter: Where<T>): string {
  return JSON.stringify(filter);
}
