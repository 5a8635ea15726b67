/**
 * `defineResource`: the one declaration a resource needs. The engine compiles it (compile/) into a
 * frozen resource: validators, serializer, router, store spec, Mongoose schema, OpenAPI schema.
 */
import type { Doc, IndexSpec, SortSpec, Store } from '../store/port';
import type { Fields, Role } from './fields';

/** Who is calling: the token's name and role. */
export interface Principal {
  readonly name: string;
  readonly role: Role;
}

/** Encrypts secret fields at rest (AES-256-GCM with the server's key). */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** Minimal structured logger (pino-compatible). */
export interface Log {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

/** The operations of one resource, without HTTP (ops/resource-ops.ts implements it). */
export interface ResourceOps {
  readonly name: string;
  list(query: ListQuery, scope?: ReadScope): Promise<ListResult>;
  get(id: string, scope?: ReadScope): Promise<Doc>;
  create(body: Record<string, unknown>, ctx: CallContext): Promise<Doc>;
  patch(id: string, body: Record<string, unknown>, ctx: CallContext, ifMatch?: string): Promise<Doc>;
  replace(id: string, body: Record<string, unknown>, ctx: CallContext, ifMatch?: string): Promise<Doc>;
  remove(id: string, ctx: CallContext, ifMatch?: string): Promise<void>;
  removeMany(filter: Record<string, unknown>, ctx: CallContext): Promise<number>;
}

/** A parsed collection query (ops level: already validated and coerced). */
export interface ListQuery {
  readonly filter: Record<string, unknown>;
  readonly sort: SortSpec;
  readonly projection?: Record<string, 0 | 1>;
  readonly page: number;
  readonly maxResults: number;
}

export interface ReadScope {
  /** Include soft-deleted items. */
  readonly showDeleted?: boolean;
}

export interface ListResult {
  readonly items: Doc[];
  readonly total: number;
}

/** Everything a hook or custom handler may use: no Express, no globals. */
export interface Runtime {
  readonly store: Store;
  readonly resources: { get(name: string): ResourceOps };
  readonly secrets: SecretBox;
  readonly log: Log;
  /** Integrations registered by the server (`salt`, `vpn`, ...), looked up by name. */
  readonly services: ReadonlyMap<string, unknown>;
  readonly config: Readonly<Record<string, unknown>>;
}

/** One call: who, and when (one `now` for every write of the call). */
export interface CallContext {
  readonly principal: Principal;
  readonly now: Date;
  readonly runtime: Runtime;
}

export type WriteOp = 'create' | 'patch' | 'replace';

/** Hooks: the few places where a resource needs behaviour beyond CRUD. */
export interface Hooks {
  /** Turns validated input into the fields to store; may add server-set fields or refuse (422/409). */
  prepare?(args: {
    op: WriteOp;
    fields: Record<string, unknown>;
    original?: Doc;
    extras: Record<string, unknown>;
    ctx: CallContext;
  }): Promise<Record<string, unknown>>;
  /** After a successful write; `extras` holds the write-only inputs (a group's `hosts`). */
  afterWrite?(args: { op: WriteOp; doc: Doc; original?: Doc; extras: Record<string, unknown>; ctx: CallContext }): Promise<void>;
  /** Before an item is deleted; may refuse (409). */
  beforeDelete?(args: { doc: Doc; ctx: CallContext }): Promise<void>;
  afterDelete?(args: { doc: Doc; ctx: CallContext }): Promise<void>;
  /** After a read, with the request's extra parameters (an alert's `mark_as_read`). */
  afterRead?(args: { docs: Doc[]; params: Readonly<Record<string, string>>; ctx: CallContext }): Promise<void>;
}

/** The request as a custom handler sees it. */
export interface RouteRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
  readonly ctx: CallContext;
}

export interface RouteResult {
  readonly status?: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** An extra route mounted under the resource (`/groups/:id/hostnames`). */
export interface CustomRoute {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Relative to the resource, Express syntax: `/:id/subgroups`. */
  readonly path: string;
  readonly role: Role;
  readonly summary: string;
  readonly handler: (req: RouteRequest) => Promise<RouteResult>;
}

/** Which methods exist and the least role for each. Absent = 405. */
export interface Methods {
  readonly list?: Role;
  readonly get?: Role;
  readonly create?: Role;
  readonly patch?: Role;
  readonly replace?: Role;
  readonly delete?: Role;
  /** `DELETE /<name>?where=...` */
  readonly deleteMany?: Role;
  /** `PUT /<name>` naming the item by `_id` in the body; merges like PATCH. */
  readonly updateByBody?: Role;
}

export interface ResourceDefinition<F extends Fields = Fields> {
  readonly name: string;
  readonly description: string;
  /** `_links.self` title of an item; default: the name without its last `s`, capitalised. */
  readonly itemTitle?: string;
  /** `objectId`: generated 24-hex; `natural`: given by the client, the sync or `idFrom`. */
  readonly id?: 'objectId' | 'natural';
  /** With `natural` ids: take `_id` from this field on create (nodegroups by `name`). */
  readonly idFrom?: keyof F & string;
  readonly fields: F;
  readonly methods: Methods;
  /** Fields a PATCH may change (default: every field not `readonly`). */
  readonly patchable?: readonly (keyof F & string)[];
  readonly softDelete?: { readonly field: string; readonly param: string };
  readonly indexes?: readonly IndexSpec[];
  readonly defaultSort?: SortSpec;
  readonly hooks?: Hooks;
  readonly routes?: readonly CustomRoute[];
  /** Items created at boot when their `_id` is missing (the settings item `"0"`). */
  readonly initialItems?: (config: Readonly<Record<string, unknown>>) => readonly Record<string, unknown>[];
}

/** Declares a resource. The literal is captured (`const`) so its types can be inferred. */
export function defineResource<const F extends Fields, const D extends ResourceDefinition<F>>(def: D & { fields: F }): D {
  return def;
}
