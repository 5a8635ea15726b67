/**
 * The kinds of path the helpers take (list, create, upload), the types of their bodies and
 * answers, all read from the generated `paths`, and the client typed by those kinds.
 */
import type { CallResult, FleetClient } from './client';
import type { paths, Readable, Writable } from './schema';

/** The paths whose GET answers a page (`{_items, _links, _meta}`). */
export type ListPath = {
  [P in keyof paths]: paths[P] extends {
    get: { responses: { 200: { content: { 'application/json': { _items: unknown[]; _meta: unknown } } } } };
  }
    ? P
    : never;
}[keyof paths];

/** The JSON answer of `P`'s GET. */
type PageContent<P extends ListPath> = Readable<
  paths[P]['get']['responses'][200]['content']['application/json']
>;
/** An item of `P`'s pages. */
export type ItemOf<P extends ListPath> = PageContent<P>['_items'][number];
/** A page of `P`. */
export type PageOf<P extends ListPath> = Omit<PageContent<P>, '_items'> & { _items: ItemOf<P>[] };
/** The query parameters of `P` (besides `page`, which the helpers turn). */
export type ListQuery<P extends ListPath> = Omit<NonNullable<paths[P]['get']['parameters']['query']>, 'page'>;

/** The paths that create items from a JSON body. */
export type CreatePath = {
  [P in keyof paths]: paths[P] extends {
    post: { requestBody: { content: { 'application/json': unknown } }; responses: { 201: unknown } };
  }
    ? P
    : never;
}[keyof paths];
/** The JSON body of a create on `P`. */
export type CreateBody<P extends CreatePath> = Writable<
  Exclude<paths[P]['post']['requestBody']['content']['application/json'], readonly unknown[]>
>;
/** The write answer of a create on `P`. */
export type Written<P extends CreatePath> = Readable<
  Extract<paths[P]['post']['responses'][201]['content']['application/json'], { _id: unknown }>
>;

/** The paths that take a multipart create. */
export type UploadPath = {
  [P in keyof paths]: paths[P] extends {
    post: { requestBody: { content: { 'multipart/form-data': unknown } } };
  }
    ? P
    : never;
}[keyof paths];
/** The multipart body of a create on `P`. */
export type UploadBody<P extends UploadPath> = Writable<
  paths[P]['post']['requestBody']['content']['multipart/form-data']
>;
/** The write answer of an upload on `P`. */
export type Uploaded<P extends UploadPath> = Readable<
  Extract<paths[P]['post']['responses'][201]['content']['application/json'], { _id: unknown }>
>;

/**
 * The calls the helpers make, typed by the kind of path they take. openapi-fetch types a call by
 * its literal path (ClientMethod in openapi-fetch/dist/index.d.ts): for a path parameter `P` the
 * compiler cannot resolve `paths[P]`, so these are the same types, written once per kind.
 */
export interface PathKindClient {
  GET<P extends ListPath>(
    path: P,
    init: { params: { query: Readonly<Record<string, unknown>> } },
  ): Promise<CallResult & ({ data: PageOf<P>; error?: never } | { error: unknown })>;
  POST<P extends CreatePath>(
    path: P,
    init: { body: CreateBody<P> | readonly CreateBody<P>[] },
  ): Promise<
    CallResult & ({ data: Written<P> | { _items: Written<P>[] }; error?: never } | { error: unknown })
  >;
  POST<P extends UploadPath>(
    path: P,
    init: { body: unknown; bodySerializer: () => FormData },
  ): Promise<CallResult & ({ data: Uploaded<P>; error?: never } | { error: unknown })>;
}

/** The client as {@link PathKindClient}: the one assertion of the helpers (see there why). */
export function byPathKind(client: FleetClient): PathKindClient {
  return client as unknown as PathKindClient;
}
