/**
 * Dotted paths (`vpnsrv_representation.otp_secret`, `grain.gpus.model`) as a tree of their
 * segments, for walks that follow several paths at once. A leaf ends a path and covers whatever
 * is below it (`grain` and `grain.cpu_model`: the whole `grain`).
 */

/** A node: a path ends here (`leaf`: nothing below it), or goes on into `children`. */
export interface PathTree {
  readonly leaf: boolean;
  readonly children: ReadonlyMap<string, PathTree>;
}

interface Node {
  leaf: boolean;
  readonly children: Map<string, Node>;
}

/** The tree of `paths`. */
export function pathTree(paths: readonly string[]): PathTree {
  const root: Node = { leaf: false, children: new Map() };
  for (const path of paths) {
    let node = root;
    for (const segment of path.split('.')) {
      if (node.leaf) break;
      let child = node.children.get(segment);
      if (child === undefined) {
        child = { leaf: false, children: new Map() };
        node.children.set(segment, child);
      }
      node = child;
    }
    node.leaf = true;
    node.children.clear();
  }
  return root;
}

/** A record a path goes into: an object, not an array, not a Date. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}
