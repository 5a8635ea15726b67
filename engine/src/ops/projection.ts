/**
 * A read's projection, split in two: the top-level fields the store returns (every store does
 * those cheaply: SQLite in SQL, MongoDB on the server), and the dotted paths (`grain.cpu_model`),
 * picked or dropped here from each document the store returned, by a function compiled once per
 * projection. Dotted paths follow MongoDB's rules: arrays on the way are entered element by
 * element; an inclusion keeps only the objects and arrays on its paths (a value of another type
 * where an object was expected is left out), an exclusion keeps everything else as it is. A path
 * inside another projected path (`grain` and `grain.cpu_model`) is covered by the outer one.
 */
import type { CompiledResource } from '../compile/compile';
import type { Doc, Projection } from '../store/port';
import { isRecord, pathTree, type PathTree } from './path-tree';

/** How a read projects. */
export interface ReadProjection {
  /** What the store is asked for; undefined: whole documents. */
  readonly store: Projection | undefined;
  /** Applies the dotted paths to a document the store returned (a copy where anything changes). */
  readonly below?: (doc: Doc) => Doc;
}

const META: Projection = { _created: 1, _updated: 1, _etag: 1 };

/** The parts of `value` on the tree's paths; undefined when nothing of it is kept. */
function pick(value: unknown, tree: PathTree): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const el of value) if (Array.isArray(el) || isRecord(el)) out.push(pick(el, tree));
    return out;
  }
  if (!isRecord(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, child] of tree.children) {
    if (!Object.hasOwn(value, key)) continue;
    const kept = child.leaf ? value[key] : pick(value[key], child);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

/** `value` without the tree's paths. */
function drop(value: unknown, tree: PathTree): unknown {
  if (Array.isArray(value)) return value.map((el) => drop(el, tree));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [key, child] of tree.children) {
    if (!Object.hasOwn(out, key)) continue;
    if (child.leaf) delete out[key];
    else out[key] = drop(out[key], child);
  }
  return out;
}

/** Applies the tree of dotted paths to the top-level fields that have some. */
function below(tree: PathTree, inclusive: boolean): (doc: Doc) => Doc {
  const tops = [...tree.children].filter(([, child]) => !child.leaf);
  return (doc) => {
    const out: Doc = { ...doc };
    for (const [top, child] of tops) {
      if (!Object.hasOwn(out, top)) continue;
      const next = inclusive ? pick(out[top], child) : drop(out[top], child);
      if (next === undefined) delete out[top];
      else out[top] = next;
    }
    return out;
  };
}

function compile(
  res: CompiledResource,
  projection: Projection | undefined,
  view: 'list' | 'item',
): ReadProjection {
  const keys = Object.keys(projection ?? {});
  const inclusive = projection !== undefined && Object.values(projection).includes(1);
  const dotted = keys.filter((k) => k.includes('.'));
  const tree = pathTree(inclusive ? keys : dotted);
  const fn = dotted.length > 0 ? below(tree, inclusive) : undefined;
  if (inclusive) {
    const store: Projection = { ...META };
    for (const key of keys) store[key.split('.')[0] ?? key] = 1;
    if (res.softDelete) store[res.softDelete.field] = 1;
    return { store, ...(fn ? { below: fn } : {}) };
  }
  const hidden = view === 'list' ? Object.fromEntries(res.hiddenInList.map((f) => [f, 0 as const])) : {};
  const store: Projection = { ...hidden };
  for (const key of keys) if (!key.includes('.')) store[key] = 0;
  return { store: Object.keys(store).length > 0 ? store : undefined, ...(fn ? { below: fn } : {}) };
}

type ByView = Map<'list' | 'item', ReadProjection>;
const compiled = new WeakMap<Projection, WeakMap<CompiledResource, ByView>>();
const unprojected = new WeakMap<CompiledResource, ByView>();

/** How a read of `res` projects (compiled once per parsed projection: query/params.ts keeps one object per text). */
export function readProjection(
  res: CompiledResource,
  projection: Projection | undefined,
  view: 'list' | 'item',
): ReadProjection {
  let byRes = projection === undefined ? undefined : compiled.get(projection);
  if (projection !== undefined && byRes === undefined) {
    byRes = new WeakMap<CompiledResource, ByView>();
    compiled.set(projection, byRes);
  }
  const owner = byRes ?? unprojected;
  let byView = owner.get(res);
  if (byView === undefined) {
    byView = new Map<'list' | 'item', ReadProjection>();
    owner.set(res, byView);
  }
  let found = byView.get(view);
  if (found === undefined) {
    found = compile(res, projection, view);
    byView.set(view, found);
  }
  return found;
}
