/**
 * The local API: the operations of one resource as code inside the service calls them (Payload's
 * Local API, Feathers' services). The HTTP handlers call exactly these, so what a hook, a custom
 * route, the sync or the scheduler reads and writes is what a client would: the soft-delete scope,
 * default sort, list-hidden fields, `afterRead`, `embedded`, masked secrets on reads; defaults,
 * validation, relations, hooks, sealed secrets, `_updated` and the content `_etag` on writes.
 * Every call names its caller in `ctx.principal`: a user is held to the resource's roles; the
 * system principal may also set server-set fields, and nothing else bypasses the rules.
 */
import type { Doc, Filter, LeaseStore, MediaStore, Projection, SortSpec } from '../store/port';
import type { Fields, Role } from './fields';
import type { AnyItem, ItemOfFields, WriteDataOf } from './infer';
import type { Log } from '../log';

/** Who is calling: the token's name and role; `system` marks the service's own work. */
export interface Principal {
  readonly name: string;
  readonly role: Role;
  /** The service itself (sync, scheduler, boot): may set server-set fields. Never a token. */
  readonly system?: true;
}

/**
 * The integrations the server runs beside the engine, by name. Empty here: the package that
 * declares a port adds its slot once, by declaration merging, so every caller reads it typed
 * (`ctx.runtime.services.master`) and sees it absent until the server has started it:
 *
 *     declare module '@fleet/engine' { interface Services { master?: MasterService } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Services {}

/**
 * The server's settings the definitions read (the settings item's master address), by name. Empty
 * here, like {@link Services}: the definition that reads a setting declares it once, by
 * declaration merging, and reads it typed.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Settings {}

/** Everything a hook, a custom route or an integration may use: no Express, no store, no globals. */
export interface Runtime {
  /** Every resource's local API: the one door to the data. */
  readonly resources: LocalApi;
  /** File contents (uploads): narrow, so nothing reaches the documents through it. */
  readonly media: MediaStore;
  /** Work that must happen once across instances (scheduler, sync, snapshots). */
  readonly leases: LeaseStore;
  readonly log: Log;
  /** The integrations the server runs (`master`, `vpn`): each absent until started. */
  readonly services: Readonly<Services>;
  /** The settings the server was started with, typed as the definitions declare them. */
  readonly config: Readonly<Settings>;
}

/** One call: who, and when (one `now` for every write of the call). */
export interface CallContext {
  readonly principal: Principal;
  readonly now: Date;
  readonly runtime: Runtime;
}

/** What `find` reads. */
export interface FindArgs {
  readonly where?: Filter;
  /** Default: the definition's `defaultSort`. */
  readonly sort?: SortSpec;
  /** Inclusive or exclusive; meta fields always stay. List-hidden fields come only when included. */
  readonly projection?: Projection;
  readonly skip?: number;
  /** 0 or absent: every match. */
  readonly limit?: number;
  /** Include items hidden by soft delete. */
  readonly showDeleted?: boolean;
  /** Relation fields whose ids are replaced by the items (`null` / left out when missing). */
  readonly embedded?: readonly string[];
  /** Request parameters beyond the common ones, for `afterRead` (an alert's `mark_as_read`). */
  readonly params?: Readonly<Record<string, string>>;
  /** `item`: list-hidden fields (a host's `grain`) come too, as an item GET gives them. Default `list`. */
  readonly view?: 'list' | 'item';
}

/** What `list` reads: one page, as a collection GET does. */
export interface ListArgs extends Omit<FindArgs, 'skip' | 'limit'> {
  readonly page: number;
  readonly maxResults: number;
}

/** One page of a collection and the number of matches. */
export interface ListResult<I = Doc> {
  readonly items: I[];
  readonly total: number;
  readonly page: number;
  readonly maxResults: number;
}

/** Options of `get`. */
export interface GetOptions {
  readonly showDeleted?: boolean;
  readonly projection?: Projection;
  readonly embedded?: readonly string[];
  readonly params?: Readonly<Record<string, string>>;
  /** System principal only: secret fields come back decrypted instead of masked. */
  readonly reveal?: boolean;
}

/** Options of the writes to one item. */
export interface WriteOptions {
  /** The version the caller read (`If-Match`): another one is 412. Without it, last write wins. */
  readonly ifMatch?: string;
  /** System principal: also write items hidden by soft delete (the sync keeps them current). */
  readonly showDeleted?: boolean;
}

/** What `upsertMany` did, by id. */
export interface UpsertResult {
  readonly created: readonly string[];
  readonly updated: readonly string[];
}

/** What a write accepts when the fields are not known statically. */
export type AnyWriteData = { _id?: string } & Record<string, unknown>;

/**
 * The local API of one resource. `I` is its item type, `W` what its writes accept; both come from
 * the definition through `LocalApi.of` ({@link CollectionOf}).
 */
export interface Collection<I extends AnyItem = AnyItem, W extends AnyWriteData = AnyWriteData> {
  readonly name: string;
  /** One page and the total, as `GET /<name>` answers it. */
  list(args: ListArgs, ctx: CallContext): Promise<ListResult<I>>;
  find(args: FindArgs, ctx: CallContext): Promise<I[]>;
  /** 404 when missing or hidden by soft delete. */
  get(id: string, ctx: CallContext, options?: GetOptions): Promise<I>;
  count(where: Filter, ctx: CallContext, options?: Pick<FindArgs, 'showDeleted'>): Promise<number>;
  /**
   * The ids of the visible items matching `where`, in no particular order: a membership or a list
   * of targets. A store reads them from an index alone where one serves `where`.
   */
  ids(where: Filter, ctx: CallContext, options?: Pick<FindArgs, 'showDeleted'>): Promise<string[]>;
  create(data: W, ctx: CallContext): Promise<I>;
  /** All or none. */
  createMany(data: readonly W[], ctx: CallContext): Promise<I[]>;
  /** Merges `data` into the item (sub-documents merge, everything else is replaced). */
  patch(id: string, data: W, ctx: CallContext, options?: WriteOptions): Promise<I>;
  /** The same change to every match, in one batch; items it would not change are not written. */
  patchMany(
    where: Filter,
    data: W,
    ctx: CallContext,
    options?: Pick<WriteOptions, 'showDeleted'>,
  ): Promise<number>;
  replace(id: string, data: W, ctx: CallContext, options?: WriteOptions): Promise<I>;
  /**
   * System principal: creates the items whose `_id` is new and patches the others with the given
   * fields, in one batch (items it would not change are not written); hidden items included.
   * Idempotent across writers: when another request or process creates one of the ids between
   * this call's read and its write, the item is merged into instead (never a duplicate `_id`).
   */
  upsertMany(items: readonly (W & { _id: string })[], ctx: CallContext): Promise<UpsertResult>;
  /**
   * System principal: each stored item among `ids` (hidden ones too) is patched with what
   * `change` decides from its stored version (undefined: left as it is); ids not stored are
   * skipped. One read and one batch for all of them; when another writer changed one of them
   * meanwhile, `change` decides again on the fresh version (a move forward never goes back).
   * Resolves the ids written.
   */
  patchEach(ids: readonly string[], change: (item: I) => W | undefined, ctx: CallContext): Promise<string[]>;
  /** Soft-deletes, or deletes and applies the relation rules of the items referring to it. */
  delete(id: string, ctx: CallContext, options?: Pick<WriteOptions, 'ifMatch'>): Promise<void>;
  /** Deletes every match (one batch); resolves how many. */
  deleteMany(where: Filter, ctx: CallContext): Promise<number>;
  /** An aggregation pipeline over the visible items (the soft-delete scope comes first). */
  aggregate(
    pipeline: readonly Record<string, unknown>[],
    ctx: CallContext,
    options?: Pick<FindArgs, 'showDeleted'>,
  ): Promise<Record<string, unknown>[]>;
}

/** Every resource's local API. */
export interface LocalApi {
  /** A resource by name (untyped items). Throws for an unknown name. */
  get(name: string): Collection;
  /** A resource by its definition, typed from it: `resources.of(hosts).get(id, ctx)`. */
  of<F extends Fields, S extends string = never>(definition: {
    readonly name: string;
    readonly fields: F;
    readonly softDelete?: { readonly field: S };
  }): CollectionOf<F, S>;
}

/** The typed local API of a resource with fields `F` (and the soft-delete flag `S`, when it has one). */
export type CollectionOf<F extends Fields, S extends string = never> = Collection<
  [S] extends [never] ? ItemOfFields<F> : ItemOfFields<F> & { [K in S]: boolean },
  WriteDataOf<F>
>;
