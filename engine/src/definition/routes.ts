/**
 * Custom routes (mounted under a resource) and route groups (under a path of their own, such as
 * `/graph`). A handler returns data and the engine renders it: items, lists and write results
 * through the one serializer (links, masked secrets, RFC 1123 dates), and only non-resource shapes
 * (graph, statistics, proxied results) as plain bodies, each declared with a Zod schema that also
 * describes it in the OpenAPI document. Request bodies and queries declared with a schema are
 * validated by the engine before the handler runs (422 / 400 naming the field).
 */
import type { z } from 'zod';
import type { Doc } from '../store/port';
import type { CallContext } from './local-api';
import type { Fields, Role } from './fields';
import type { Collection, CollectionOf, ListResult } from './local-api';

/** HTTP methods a route may answer. */
export type RouteMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Extra response headers. */
type Headers = Readonly<Record<string, string>>;

/** A file a route answers (a host's VPN profile): bytes, their media type, the name to save them under. */
export interface Download {
  readonly data: Buffer;
  readonly contentType: string;
  readonly filename: string;
}

/**
 * What a handler returns. `item`, `list` and `write` are rendered by the serializer of `resource`
 * (default: the route's own resource); `body` is sent as it is and needs the route's `response`
 * schema; `download` is sent as an attachment by a route that declares `download`; a bare
 * `status` sends no body.
 */
export type RouteResult =
  | { readonly item: Doc; readonly resource?: string; readonly status?: number; readonly headers?: Headers }
  | { readonly list: ListResult; readonly resource?: string; readonly headers?: Headers }
  | { readonly write: Doc; readonly resource?: string; readonly status?: number; readonly headers?: Headers }
  | { readonly body: unknown; readonly status?: number; readonly headers?: Headers }
  | { readonly download: Download; readonly headers?: Headers }
  | { readonly status: number; readonly headers?: Headers };

/** The request as a handler sees it: no Express. */
export interface RouteRequest<B = unknown, Q = Readonly<Record<string, string | string[] | undefined>>> {
  readonly params: Readonly<Record<string, string>>;
  /** Parsed by the route's `query` schema when it declares one. */
  readonly query: Q;
  /** Parsed by the route's `body` schema when it declares one. */
  readonly body: B;
  /** Headers a route may honour (`If-Match`). */
  readonly ifMatch?: string;
  /** The client's `Prefer` preferences (RFC 7240) by lower-cased name: `respond-async`, `wait`. */
  readonly preferences?: ReadonlyMap<string, string>;
  readonly ctx: CallContext;
}

/** A custom route's request, with its own resource's local API (typed from the definition). */
export interface ResourceRouteRequest<
  C extends Collection = Collection,
  B = unknown,
  Q = RouteRequest['query'],
> extends RouteRequest<B, Q> {
  readonly resource: C;
}

/** What every route declares. */
export interface RouteSpec {
  readonly method: RouteMethod;
  /** Express syntax relative to the mount point: `/:id/subgroups`; `''` is the mount point itself. */
  readonly path: string;
  readonly role: Role;
  readonly summary: string;
  readonly description?: string;
  /** Validates the JSON body (422 with `_issues` naming the fields). */
  readonly body?: z.ZodType;
  /** Validates the query parameters (400 naming the parameter). */
  readonly query?: z.ZodType;
  /** The shape of a plain `body` result (required for routes that return one). */
  readonly response?: z.ZodType;
  /** The resource whose item / list / write results this route renders, for the OpenAPI document. */
  readonly renders?: { readonly resource?: string; readonly as: 'item' | 'list' | 'write' };
  /** The route answers a bare status (204) and no body. */
  readonly noContent?: true;
  /** The route answers a file (`download` results), never rendered. */
  readonly download?: true;
  /**
   * The route runs commands on hosts (a Salt function through the master): counted against the
   * executions' rate limit rather than the writes' (docs/limits.md).
   */
  readonly execution?: true;
}

/** Why a route does not declare what it answers (exactly one of `response`, `renders`, `noContent`, `download`), or null. */
export function routeAnswerError(route: RouteSpec): string | null {
  const declared = [
    route.response !== undefined,
    route.renders !== undefined,
    route.noContent === true,
    route.download === true,
  ].filter(Boolean).length;
  if (declared === 1) return null;
  return `${route.method.toUpperCase()} ${route.path || "''"}: declare what the route answers: exactly one of response (a Zod schema), renders, noContent or download`;
}

/** A route mounted under its resource; the handler sees the resource's typed local API. */
export interface CustomRoute<F extends Fields = Fields> extends RouteSpec {
  // Method syntax: the parameter is compared bivariantly, so a route typed by its resource's
  // fields still fits the list of every resource's routes.
  handler(req: ResourceRouteRequest<CollectionOf<F>>): Promise<RouteResult>;
}

/** A route of a route group. */
export interface GroupRoute extends RouteSpec {
  handler(req: RouteRequest): Promise<RouteResult>;
}

/** Routes under `/<base>` that belong to no single collection (the group graph, the master). */
export interface RouteGroup {
  /** The mount point below `/api`: `graph`, `master`. */
  readonly base: string;
  readonly description: string;
  readonly routes: readonly GroupRoute[];
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : unknown;
type ParsedQuery<S> = S extends z.ZodType ? z.output<S> : RouteRequest['query'];

/** A custom route as declared: its handler sees its body and query as their schemas parse them. */
type DeclaredRoute<F extends Fields, B, Q> = Omit<RouteSpec, 'body' | 'query'> & {
  readonly body?: B;
  readonly query?: Q;
  handler(req: ResourceRouteRequest<CollectionOf<F>, Parsed<B>, ParsedQuery<Q>>): Promise<RouteResult>;
};

/** A custom route whose handler sees its body and query as their schemas parse them. */
export function defineRoute<
  F extends Fields = Fields,
  const B extends z.ZodType | undefined = undefined,
  const Q extends z.ZodType | undefined = undefined,
>(route: DeclaredRoute<F, B, Q>): CustomRoute<F> {
  return route as CustomRoute<F>;
}

/**
 * {@link defineRoute} for the routes of a resource whose fields are `F`, so that the handler sees
 * that resource's typed local API as well as its parsed body and query (TypeScript cannot take `F`
 * explicitly and still infer the schemas): `const route = routeFor<typeof groupFields>();`.
 */
export function routeFor<F extends Fields>(): <
  const B extends z.ZodType | undefined = undefined,
  const Q extends z.ZodType | undefined = undefined,
>(
  route: DeclaredRoute<F, B, Q>,
) => CustomRoute<F> {
  return (route) => defineRoute(route);
}

/** A route of a route group whose handler sees its body and query as their schemas parse them. */
export function defineGroupRoute<
  const B extends z.ZodType | undefined = undefined,
  const Q extends z.ZodType | undefined = undefined,
>(
  route: Omit<RouteSpec, 'body' | 'query'> & {
    readonly body?: B;
    readonly query?: Q;
    handler(req: RouteRequest<Parsed<B>, ParsedQuery<Q>>): Promise<RouteResult>;
  },
): GroupRoute {
  return route as GroupRoute;
}

/** Declares a route group. */
export function defineRoutes(group: RouteGroup): RouteGroup {
  if (!/^[a-z][a-z0-9_-]*$/.test(group.base))
    throw new Error(`route group base "${group.base}" must match [a-z][a-z0-9_-]*`);
  return group;
}
