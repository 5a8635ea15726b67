/**
 * Collections: every page of a query (`pages`), every item (`items`, `all`), creating one item or
 * several with the answer each gets, and `where` filters typed by the items they filter.
 */
import { FleetApiError, type FleetClient, type Schemas } from './client';
import type { paths, Readable, Writable } from './schema';

/** The paths whose GET answers a page (`{_items, _links, _meta}`). */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'application/json': { _items: unknown[]; _meta: unknown } } } } } } ? P : never;
}[keyof paths];

/** A page of `P`. */
export type PageOf<P extends ListPath> = Readable<paths[P]['get']['responses'][200]['content']['application/json']>;
/** An item of `P`'s pages. */
export type ItemOf<P extends ListPath> = PageOf<P>['_items'][number];
/** The query parameters of `P` (besides `page`, which the helpers turn). */
export type ListQuery<P extends ListPath> = Omit<NonNullable<paths[P]['get']['parameters']['query']>, 'page'>;

/** The paths that create items from a JSON body. */
export type CreatePath = {
  [P in keyof paths]: paths[P] extends { post: { requestBody: { content: { 'application/json': unknown } }; responses: { 201: unknown } } } ? P : never;
}[keyof paths];
type CreateBody<P extends CreatePath> = Writable<Exclude<paths[P]['post']['requestBody']['content']['application/json'], readonly unknown[]>>;
type Written<P extends CreatePath> = Readable<Extract<paths[P]['post']['responses'][201]['content']['application/json'], { _id: unknown }>>;

/** The one request shape the helpers make (openapi-fetch's own types are per literal path). */
type Call = (
  path: string,
  init: { params?: { query?: Record<string, unknown> }; body?: unknown },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

async function call(fn: Call, path: string, init: Parameters<Call>[1]): Promise<unknown> {
  const { data, error, response } = await fn(path, init);
  if (error !== undefined || !response.ok) throw new FleetApiError(response.status, error as Schemas['Error'] | undefined);
  return data;
}

/** Every page of a query, in order, until the last (the one without `_links.next`). */
export async function* pages<P extends ListPath>(client: FleetClient, path: P, query?: ListQuery<P>): AsyncGenerator<PageOf<P>> {
  const get = client.GET as unknown as Call;
  for (let page = 1; ; page += 1) {
    const data = (await call(get, path, { params: { query: { ...query, page } } })) as PageOf<P>;
    yield data;
    if (data._links.next === undefined) return;
  }
}

/** Every item of a query, page after page. */
export async function* items<P extends ListPath>(client: FleetClient, path: P, query?: ListQuery<P>): AsyncGenerator<ItemOf<P>> {
  for await (const page of pages(client, path, query)) yield* page._items as ItemOf<P>[];
}

/** Every item of a query, as one array. */
export async function all<P extends ListPath>(client: FleetClient, path: P, query?: ListQuery<P>): Promise<ItemOf<P>[]> {
  const out: ItemOf<P>[] = [];
  for await (const item of items(client, path, query)) out.push(item);
  return out;
}

/** Creates one item; resolves its write answer (`_id`, `_etag`, `_links`, ...). */
export async function createOne<P extends CreatePath>(client: FleetClient, path: P, body: CreateBody<P>): Promise<Written<P>> {
  return (await call(client.POST as unknown as Call, path, { body })) as Written<P>;
}

/** Creates several items at once (all or none: a 422 names each refused document); resolves their answers, in order. */
export async function createMany<P extends CreatePath>(client: FleetClient, path: P, bodies: readonly CreateBody<P>[]): Promise<Written<P>[]> {
  const data = (await call(client.POST as unknown as Call, path, { body: bodies })) as Written<P> | { _items: Written<P>[] };
  // One document is answered as a single write (Eve), several as `_items`.
  return '_items' in data ? data._items : [data];
}

type Element<V> = V extends readonly (infer E)[] ? E : V;
/** What a field is compared with: its value, or an element of a list (`{"groups": "<id>"}` matches a host in that group). */
type Comparable<V> = Exclude<Element<NonNullable<V>>, Record<string, unknown>> | (null extends V ? null : never);

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
