/**
 * What a read asks the store for: the client's projection (meta fields always kept), list-hidden
 * fields left out unless asked for. One object per parsed projection, resource and view, so the
 * store compiles what it does with it once (query/projection.ts).
 */
import type { CompiledResource } from '../compile/compile';
import type { Projection } from '../store/port';

function compile(
  res: CompiledResource,
  projection: Projection | undefined,
  view: 'list' | 'item',
): Projection | undefined {
  if (projection && Object.values(projection).includes(1)) {
    const keep: Projection = { ...projection, _created: 1, _updated: 1, _etag: 1 };
    if (res.softDelete) keep[res.softDelete.field] = 1;
    return keep;
  }
  const hidden = view === 'list' ? Object.fromEntries(res.hiddenInList.map((f) => [f, 0 as const])) : {};
  const merged = { ...hidden, ...projection };
  return Object.keys(merged).length > 0 ? merged : undefined;
}

function freeze(projection: Projection | undefined): Projection | undefined {
  return projection === undefined ? undefined : Object.freeze(projection);
}

type ByView = Map<'list' | 'item', Projection | undefined>;
const byProjection = new WeakMap<Projection, WeakMap<CompiledResource, ByView>>();
const unprojected = new WeakMap<CompiledResource, ByView>();

/** The store projection of a read of `res` (the same object for the same parsed projection: query/params.ts keeps one per text). */
export function storeProjection(
  res: CompiledResource,
  projection: Projection | undefined,
  view: 'list' | 'item',
): Projection | undefined {
  let owner = unprojected;
  if (projection !== undefined) {
    owner = byProjection.get(projection) ?? new WeakMap<CompiledResource, ByView>();
    byProjection.set(projection, owner);
  }
  let byView = owner.get(res);
  if (byView === undefined) {
    byView = new Map<'list' | 'item', Projection | undefined>();
    owner.set(res, byView);
  }
  // Frozen: the store remembers its plan of a find by the identity of a frozen projection.
  if (!byView.has(view)) byView.set(view, freeze(compile(res, projection, view)));
  return byView.get(view);
}
