/**
 * Documents as JSON text: datetimes go in as ISO-8601 strings (fixed width, so they sort and compare
 * as text in SQL) and come back as `Date` along the collection's declared datetime paths.
 */
import type { Doc } from '../port';

/** What `Date#toISOString` produces for years 0000-9999; anything else stays a string. */
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Serialises a document; `Date#toJSON` already yields the ISO string. */
export function encodeDoc(doc: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(doc);
}

/** The declared datetime paths as a tree of their segments: a leaf is a datetime (or a list of them). */
interface PathTree {
  readonly leaf: boolean;
  readonly children: ReadonlyMap<string, PathTree>;
}

/** Trees made once per collection (the adapter passes its one array of paths). */
const trees = new WeakMap<readonly string[], PathTree>();

function treeOf(paths: readonly string[]): PathTree {
  let tree = trees.get(paths);
  if (tree === undefined) {
    const root = {
      leaf: false,
      children: new Map<string, { leaf: boolean; children: Map<string, unknown> }>(),
    };
    for (const path of paths) {
      let node = root;
      for (const segment of path.split('.')) {
        let child = node.children.get(segment);
        if (child === undefined) {
          child = { leaf: false, children: new Map() };
          node.children.set(segment, child);
        }
        node = child as typeof root;
      }
      node.leaf = true;
    }
    tree = root as PathTree;
    trees.set(paths, tree);
  }
  return tree;
}

/** Parses a stored document and revives its datetimes. */
export function decodeDoc(text: string, datetimePaths: readonly string[]): Doc {
  const doc = JSON.parse(text) as Doc;
  if (datetimePaths.length > 0) reviveIn(doc, treeOf(datetimePaths));
  return doc;
}

/** Walks the tree over `node`; arrays met on the way are entered element by element. */
function reviveIn(node: unknown, tree: PathTree): void {
  if (Array.isArray(node)) {
    for (const element of node) reviveIn(element, tree);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  for (const [key, child] of tree.children) {
    if (!(key in record)) continue;
    // A datetime leaf has no declared paths below it.
    if (child.leaf) record[key] = revive(record[key]);
    else reviveIn(record[key], child);
  }
}

/**
 * Time values of ISO texts already parsed: `new Date(text)` parses (~0.5 us), `new Date(ms)` does
 * not, and the same `_created` / `_updated` / heartbeat texts come back on every read of a page.
 * Emptied when full, so it stays a few MB.
 */
const parsedTimes = new Map<string, number>();
const PARSED_TIMES_MAX = 50_000;

/** A datetime leaf, or an array of them (a list of timestamps). */
function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  // The cheap tests first: most values are either not strings or plainly not a 24-character ISO text.
  if (typeof value !== 'string' || value.length !== 24 || value.charCodeAt(23) !== 90) return value;
  let time = parsedTimes.get(value);
  if (time === undefined) {
    if (!ISO_DATETIME.test(value)) return value;
    time = Date.parse(value);
    if (parsedTimes.size >= PARSED_TIMES_MAX) parsedTimes.clear();
    parsedTimes.set(value, time);
  }
  return new Date(time);
}
