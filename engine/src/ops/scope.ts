/**
 * The soft-delete scope: the one choke point every read goes through (STYLE habit 9). A filter that
 * names the flag itself decides on its own; otherwise hidden items are left out.
 */
import type { CompiledResource } from '../compile/compile';
import type { Doc, Filter } from '../store/port';

/**
 * Scoped filters of frozen ones (a request's `where`, parsed once per text: query/memo.ts), so the
 * same `where` gives the same scoped object, frozen too, and the store's own caches keyed by the
 * filter (its SQL translation, its count) hold across requests.
 */
const frozenScopes = new WeakMap<CompiledResource, WeakMap<Filter, Filter>>();

/** `filter` restricted to visible items, unless `showDeleted` or the filter names the flag. */
export function scoped(res: CompiledResource, filter: Filter, showDeleted = false): Filter {
  const sd = res.softDelete;
  if (!sd || showDeleted) return filter;
  const frozen = Object.isFrozen(filter);
  const known = frozen ? frozenScopes.get(res)?.get(filter) : undefined;
  if (known !== undefined) return known;
  if (mentions(filter, sd.field)) return filter;
  // An equality (not `$ne: true`) so the leading index key serves it; every stored item has the
  // flag: writes set it and ensureCollections backfills items written without it.
  const hide = { [sd.field]: false };
  const out = Object.keys(filter).length === 0 ? hide : { $and: [filter, hide] };
  if (!frozen) return out;
  const byFilter = frozenScopes.get(res) ?? new WeakMap<Filter, Filter>();
  frozenScopes.set(res, byFilter);
  byFilter.set(filter, deepFreeze(out));
  return out;
}

/** Freezes the scope's own objects (the filter inside is frozen already). */
function deepFreeze(filter: Filter): Filter {
  for (const value of Object.values(filter))
    if (Array.isArray(value)) for (const part of value as unknown[]) Object.freeze(part);
  for (const value of Object.values(filter)) Object.freeze(value);
  return Object.freeze(filter);
}

/** The empty filter every list without `where` starts from: frozen, so its scope is remembered too. */
export const NO_FILTER: Filter = Object.freeze({});

/** Whether the item is hidden by soft delete. */
export function isHidden(res: CompiledResource, doc: Doc): boolean {
  return res.softDelete !== undefined && doc[res.softDelete.field] === true;
}

/** Whether a filter names `field` anywhere; iterative, so no filter depth can overflow the stack. */
export function mentions(filter: unknown, field: string): boolean {
  const stack: unknown[] = [filter];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...(node as unknown[]));
    else if (
      node !== null &&
      typeof node === 'object' &&
      !(node instanceof Date) &&
      !(node instanceof RegExp)
    ) {
      for (const [key, value] of Object.entries(node)) {
        if (key === field) return true;
        stack.push(value);
      }
    }
  }
  return false;
}
