/**
 * `defineResource`: the one declaration a resource needs. The engine compiles it (compile/) into a
 * frozen resource: validators, serializer, router, store spec, Mongoose schema, OpenAPI schema.
 */
import type { IndexSpec, LeaseStore, MediaStore, SortSpec } from '../store/port';
import type { Fields, Role } from './fields';
import type { ExtrasOf, FieldValuesOf, ItemOfFields } from './infer';
import type { LocalApi } from './local-api';
import type { QueryParamDoc } from '../openapi/query-params';
import type { CustomRoute, RouteSpec } from './routes';

/** Who is calling: the token's name and role; `system` marks the service's own work. */
export interface Principal {
  readonly name: string;
  readonly role: Role;
  /** The service itself (sync, scheduler, boot): may set server-set fields. Never a token. */
  readonly system?: true;
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

/** Everything a hook, a custom route or an integration may use: no Express, no store, no globals. */
export interface Runtime {
  /** Every resource's local API: the one door to the data. */
  readonly resources: LocalApi;
  /** File contents (uploads): narrow, so nothing reaches the documents through it. */
  readonly media: MediaStore;
  /** Work that must happen once across instances (scheduler, sync, snapshots). */
  readonly leases: LeaseStore;
  readonly log: Log;
  /** Integrations registered by the server (`master`, `vpn`, ...), looked up by name. */
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

/**
 * Hooks: the few places where a resource needs behaviour beyond CRUD and its declared relations.
 * They run for every caller of the local API (HTTP, hooks of other resources, integrations), and
 * see the resource's own types.
 */
export interface Hooks<F extends Fields = Fields> {
  /** Turns validated input into the fields to store; may add server-set fields or refuse (422/409). */
  prepare?(args: {
    op: WriteOp;
    fields: FieldValuesOf<F>;
    original?: ItemOfFields<F>;
    extras: ExtrasOf<F>;
    ctx: CallContext;
  }): Promise<FieldValuesOf<F>>;
  /** After a successful write; `extras` holds the write-only inputs (a group's `hosts`). */
  afterWrite?(args: {
    op: WriteOp;
    doc: ItemOfFields<F>;
    original?: ItemOfFields<F>;
    extras: ExtrasOf<F>;
    ctx: CallContext;
  }): Promise<void>;
  /**
   * A write whose `prepare` ran was not stored: a later check refused it (a reference, another
   * document of the same bulk create), another writer changed the item first, or the store failed.
   * Undoes what `prepare` did outside the store (a record it created on a peer), as Feathers' error
   * hooks do. What it throws is logged; the write's own error stays the answer.
   */
  onWriteError?(args: {
    op: WriteOp;
    fields: FieldValuesOf<F>;
    original?: ItemOfFields<F>;
    error: unknown;
    ctx: CallContext;
  }): Promise<void>;
  /** Before an item is deleted, once the declared relations allow it; may refuse (409). */
  beforeDelete?(args: { doc: ItemOfFields<F>; ctx: CallContext }): Promise<void>;
  afterDelete?(args: { doc: ItemOfFields<F>; ctx: CallContext }): Promise<void>;
  /** After a read, with the request's extra parameters (an alert's `mark_as_read`). */
  afterRead?(args: {
    docs: ItemOfFields<F>[];
    params: Readonly<Record<string, string>>;
    view: 'list' | 'item';
    ctx: CallContext;
  }): Promise<void>;
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
  readonly hooks?: Hooks<F>;
  /** Mounted before the generic routes, in order; `''` is the collection path itself. */
  readonly routes?: readonly CustomRoute<F>[];
  /**
   * Query parameters the hooks read besides the common ones (an alert's `mark_as_read`): the
   * router hands every extra parameter to `afterRead`; this names the meaningful ones for the
   * OpenAPI document.
   */
  readonly queryParams?: Readonly<Record<string, QueryParamDoc>>;
  /** Items created at boot when their `_id` is missing (the settings item `"0"`). */
  readonly initialItems?: (config: Readonly<Record<string, unknown>>) => readonly Record<string, unknown>[];
}

/**
 * Any resource's definition, whatever its fields: the element type of lists of definitions (the
 * registry, `allResources`). Each definition's hooks and routes are typed by its own fields; the
 * engine only ever calls them with that resource's items.
 */
export type AnyResourceDefinition = Omit<ResourceDefinition, 'hooks' | 'routes'> & {
  readonly hooks?: object;
  readonly routes?: readonly RouteSpec[];
};

/** Declares a resource. The literal is captured (`const`) so its types can be inferred. */
export function defineResource<const F extends Fields, const D extends ResourceDefinition<F>>(
  def: D & { fields: F },
): D {
  return def;
}
