/**
 * The local API of one resource (definition/local-api.ts), assembled from the read, write and
 * delete operations. The HTTP handlers, hooks, custom routes and integrations all call these.
 */
import type { CompiledResource } from '../compile/compile';
import type { CallContext } from '../definition/local-api';
import type { Fields } from '../definition/fields';
import type { AnyItem } from '../definition/infer';
import type {
  Collection,
  CollectionOf,
  FindArgs,
  ListArgs,
  ListResult,
  LocalApi,
} from '../definition/local-api';
import type { Doc, Filter } from '../store/port';
import { authorize } from './access';
import type { OpsDeps, OpsScope } from './context';
import { deleteItem, deleteItems } from './delete';
import { findStored, finishRead, getItem } from './read';
import { NO_FILTER, scoped } from './scope';
import { secretFields } from '../secrets';
import { changeItem, createItems, patchEachItem, patchItems, upsertItems } from './write';

/** The answer of a write: the stored item with its secrets masked (secrets/view.ts decides reads). */
function out(s: OpsScope, doc: Doc): AnyItem {
  return secretFields(s.res.secretPaths).mask(doc) as AnyItem;
}

async function find(s: OpsScope, args: FindArgs, ctx: CallContext): Promise<AnyItem[]> {
  authorize(s.res, 'list', ctx.principal);
  return (await finishRead(s, await findStored(s, args), ctx, args)) as AnyItem[];
}

async function list(s: OpsScope, args: ListArgs, ctx: CallContext): Promise<ListResult<AnyItem>> {
  authorize(s.res, 'list', ctx.principal);
  const { page, maxResults, ...rest } = args;
  const [docs, total] = await Promise.all([
    findStored(s, { ...rest, skip: (page - 1) * maxResults, limit: maxResults }),
    s.store.count(s.res.name, scoped(s.res, args.where ?? NO_FILTER, args.showDeleted)),
  ]);
  return { items: (await finishRead(s, docs, ctx, args)) as AnyItem[], total, page, maxResults };
}

/** The local API of one compiled resource. */
export function createCollection(deps: OpsDeps, res: CompiledResource): Collection {
  const s: OpsScope = { ...deps, res };
  return {
    name: res.name,
    list: (args, ctx) => list(s, args, ctx),
    find: (args, ctx) => find(s, args, ctx),
    async get(id, ctx, options) {
      authorize(res, 'get', ctx.principal);
      return (await getItem(s, id, ctx, options)) as AnyItem;
    },
    async count(where: Filter, ctx, options) {
      authorize(res, 'list', ctx.principal);
      return deps.store.count(res.name, scoped(res, where, options?.showDeleted));
    },
    async ids(where: Filter, ctx, options) {
      authorize(res, 'list', ctx.principal);
      const found = await deps.store.find(res.name, scoped(res, where, options?.showDeleted), {
        projection: { _id: 1 },
      });
      return found.map((d) => d._id);
    },
    async create(data, ctx) {
      const [doc] = await createItems(s, [data], ctx);
      if (!doc) throw new Error('create wrote nothing');
      return out(s, doc);
    },
    createMany: async (data, ctx) => (await createItems(s, data, ctx)).map((d) => out(s, d)),
    patch: async (id, data, ctx, options) => out(s, await changeItem(s, 'patch', id, data, ctx, options)),
    patchMany: (where, data, ctx, options) => patchItems(s, where, data, ctx, options),
    replace: async (id, data, ctx, options) => out(s, await changeItem(s, 'replace', id, data, ctx, options)),
    upsertMany: (items, ctx) => upsertItems(s, items, ctx),
    patchEach: (ids, change, ctx) => patchEachItem(s, ids, change, ctx),
    delete: (id, ctx, options) => deleteItem(s, id, ctx, options),
    deleteMany: (where, ctx) => deleteItems(s, where, ctx),
    async aggregate(pipeline, ctx, options) {
      authorize(res, 'list', ctx.principal);
      const scope = scoped(res, {}, options?.showDeleted);
      return deps.store.aggregate(
        res.name,
        Object.keys(scope).length > 0 ? [{ $match: scope }, ...pipeline] : pipeline,
      );
    },
  };
}

/** Every resource's local API over one store. */
export function createLocalApi(deps: OpsDeps): LocalApi {
  const byName = new Map<string, Collection>();
  for (const res of deps.registry.resources.values()) byName.set(res.name, createCollection(deps, res));
  const get = (name: string): Collection => {
    const found = byName.get(name);
    if (!found) throw new Error(`unknown resource "${name}"`);
    return found;
  };
  return {
    get,
    of: <F extends Fields, S extends string = never>(definition: {
      readonly name: string;
      readonly fields: F;
      readonly softDelete?: { readonly field: S };
    }) => get(definition.name) as unknown as CollectionOf<F, S>,
  };
}
