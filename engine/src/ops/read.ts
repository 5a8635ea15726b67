/**
 * Reads: what `GET` returns, for every caller. The soft-delete scope, the default sort, list-hidden
 * fields left out unless projected (projection.ts), `afterRead`, `embedded` references
 * replaced by their items, and secrets as secrets/view.ts decides (masked, or opened for the
 * system principal that asks). The work per document goes in slices (fair/turns.ts).
 */
import type { CompiledResource } from '../compile/compile';
import type { CallContext } from '../definition/local-api';
import type { AnyItem } from '../definition/infer';
import type { FindArgs, GetOptions } from '../definition/local-api';
import { NotFound } from '../errors';
import { mapInSlices } from '../fair/turns';
import { secretFields, secretView } from '../secrets';
import type { Doc, Projection, SortSpec } from '../store/port';
import type { OpsScope } from './context';
import { storeProjection } from './projection';
import { NO_FILTER, scoped } from './scope';

/** Replaces the ids of the embedded relations by their (masked) items: null / dropped when missing. */
async function embed(s: OpsScope, docs: Doc[], fields: readonly string[]): Promise<Doc[]> {
  let out = docs;
  for (const field of fields) {
    const rel = s.res.relations.find((r) => r.field === field);
    if (!rel) continue;
    const ids = new Set<string>();
    for (const doc of out) for (const id of [doc[field]].flat()) if (typeof id === 'string') ids.add(id);
    const target = s.registry.get(rel.to);
    const found =
      ids.size === 0
        ? []
        : await s.store.find(rel.to, scoped(target, { _id: { $in: [...ids] } }), {
            projection: storeProjection(target, undefined, 'item') ?? {},
          });
    const byId = new Map(found.map((d) => [d._id, secretFields(target.secretPaths).mask(d)]));
    // Eve: a dangling single reference embeds as null, a dangling list entry is dropped.
    out = out.map((doc) => {
      const value = doc[field];
      if (Array.isArray(value))
        return {
          ...doc,
          [field]: value.flatMap((id) => (typeof id === 'string' && byId.has(id) ? [byId.get(id)] : [])),
        };
      if (typeof value === 'string') return { ...doc, [field]: byId.get(value) ?? null };
      return doc;
    });
  }
  return out;
}

/** What every read does after the store: afterRead, embedded, secrets. */
export async function finishRead(
  s: OpsScope,
  docs: Doc[],
  ctx: CallContext,
  o: {
    params?: Readonly<Record<string, string>>;
    embedded?: readonly string[];
    reveal?: boolean;
    view?: 'list' | 'item';
  },
): Promise<Doc[]> {
  const hooks = s.res.def.hooks;
  // The hook may write (an alert marked as read) and updates `docs` in place to match. It runs on
  // an empty page too: whether the caller may ask for that write does not depend on the page.
  if (hooks?.afterRead)
    await hooks.afterRead({ docs: docs as AnyItem[], params: o.params ?? {}, view: o.view ?? 'list', ctx });
  const withEmbedded = o.embedded && o.embedded.length > 0 ? await embed(s, docs, o.embedded) : docs;
  if (s.res.secretPaths.length === 0) return withEmbedded;
  const view = secretView(s.res.secretPaths, ctx, { box: s.secrets, ...(o.reveal ? { reveal: true } : {}) });
  return mapInSlices(withEmbedded, view);
}

const defaultSorts = new WeakMap<CompiledResource, SortSpec>();

/** The definition's default sort, as one frozen copy (the store's plans are keyed by it). */
function defaultSortOf(res: CompiledResource): SortSpec {
  let sort = defaultSorts.get(res);
  if (sort === undefined) {
    sort = Object.freeze((res.def.defaultSort ?? []).map((key) => Object.freeze([...key] as const)));
    defaultSorts.set(res, sort);
  }
  return sort;
}

/** The stored documents a find matches (no afterRead, no masking): for the operations' own use. */
export function findStored(s: OpsScope, args: FindArgs): Promise<Doc[]> {
  const projection = storeProjection(s.res, args.projection, args.view ?? 'list');
  return s.store.find(s.res.name, scoped(s.res, args.where ?? NO_FILTER, args.showDeleted), {
    sort: args.sort ?? defaultSortOf(s.res),
    ...(args.skip ? { skip: args.skip } : {}),
    ...(args.limit ? { limit: args.limit } : {}),
    ...(projection ? { projection } : {}),
  });
}

/** One stored item by id (in scope), or 404. */
export async function getStored(
  s: OpsScope,
  id: string,
  o: { showDeleted?: boolean; projection?: Projection } = {},
): Promise<Doc> {
  const projection = storeProjection(s.res, o.projection, 'item');
  const [doc] = await s.store.find(s.res.name, scoped(s.res, { _id: id }, o.showDeleted), {
    limit: 1,
    ...(projection ? { projection } : {}),
  });
  if (!doc) throw new NotFound(`${s.res.itemTitle} "${id}" was not found`);
  return doc;
}

/** `get` of the local API. */
export async function getItem(s: OpsScope, id: string, ctx: CallContext, o: GetOptions = {}): Promise<Doc> {
  const doc = await getStored(s, id, o);
  const [out] = await finishRead(s, [doc], ctx, { ...o, view: 'item' });
  return out ?? doc;
}
