/**
 * A projection applied to a document by a function compiled once per projection, for a store that
 * cannot project dotted paths itself (the embedded store; MongoDB does it on the server). The
 * rules are MongoDB's: arrays on a path are entered element by element; an inclusion keeps `_id`,
 * the fields named and, of a dotted path, only the objects and arrays on its way (a value of
 * another type where an object was expected is left out); an exclusion keeps everything else as it
 * is. A path inside another one (`grain` and `grain.cpu_model`) is covered by the outer one.
 */
import type { Doc, Projection } from '../store/port';
import { isRecord, pathTree, type PathTree } from './path-tree';

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

function compile(projection: Projection): (doc: Doc) => Doc {
  const inclusive = Object.values(projection).includes(1);
  const tree = pathTree(Object.keys(projection).filter((key) => key !== '_id'));
  if (!inclusive) return (doc) => drop(doc, tree) as Doc;
  return (doc) => ({ ...(pick(doc, tree) as Record<string, unknown>), _id: doc._id });
}

const compiled = new WeakMap<Projection, (doc: Doc) => Doc>();

/** `projection` as a function of a document (a new one; the document given is not changed). */
export function projector(projection: Projection): (doc: Doc) => Doc {
  let fn = compiled.get(projection);
  if (fn === undefined) {
    fn = compile(projection);
    compiled.set(projection, fn);
  }
  return fn;
}
