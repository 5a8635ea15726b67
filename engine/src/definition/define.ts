/**
 * `defineResource`: the one declaration a resource needs. The engine compiles it (compile/) into a
 * frozen resource: validators, serializer, router, store spec, Mongoose schema, OpenAPI schema.
 */
import type { IndexSpec, SortSpec } from '../store/port';
import type { Fields, Role } from './fields';
import type { ExtrasOf, FieldValuesOf, ItemOfFields, WriteDataOf } from './infer';
import type { CallContext, Settings } from './local-api';
import type { CustomRoute, RouteSpec } from './routes';

/** Encrypts secret fields at rest (AES-256-GCM with the server's key). */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
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
   * After each batch of writes, once, with every item it wrote (`afterWrite` has run for each):
   * a create or a change of one item, a `createMany`, each batch of an `upsertMany` or a
   * `patchMany`. For work that costs less per batch than per item, such as keeping a derived
   * index of the items (a sync writes hosts 500 at a time).
   */
  afterWriteBatch?(args: {
    writes: readonly { op: WriteOp; doc: ItemOfFields<F>; original?: ItemOfFields<F> }[];
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

/**
 * One query parameter a resource's hooks read besides the common ones (an alert's `mark_as_read`,
 * read by its `afterRead`): the router hands every extra parameter to the hooks, so only the
 * definition knows which ones mean something; the OpenAPI document lists them.
 */
export interface QueryParamDoc {
  readonly description: string;
  /** JSON Schema of the value (default: a string). */
  readonly schema?: Readonly<Record<string, unknown>>;
  /** The least role the parameter needs, when above the operation's (403 otherwise). */
  readonly role?: Role;
  /** The GETs that read it (default: both). */
  readonly on?: readonly ('list' | 'get')[];
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
  /**
   * A valid item of the resource (references may be left out: whoever uses it fills them), the
   * sample the generic tests create: a resource whose hooks relate its fields (an end after a
   * start) declares one that keeps its own rules.
   */
  readonly sample?: () => Partial<WriteDataOf<F>>;
  /** Items created at boot when their `_id` is missing (the settings item `"0"`). */
  readonly initialItems?: (settings: Readonly<Settings>) => readonly Record<string, unknown>[];
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
