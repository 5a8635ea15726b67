/**
 * The one walk over a document's secret fields. The secret paths of a resource (`password`,
 * `vpnsrv_representation.otp_secret`) are compiled once into a tree of their segments; a walk
 * follows it, entering every element of an array met on the way, and hands each value found at a
 * secret path (null and undefined aside) to a function that returns its replacement. Only the
 * objects and arrays on the way to a changed value are copied: the document given is never
 * changed, and is returned as it is when nothing changed.
 */
import { isRecord, pathTree, type PathTree } from '../query/path-tree';

/** The tree of a resource's secret paths. */
export type SecretTree = PathTree;

/** The tree of dotted secret paths. */
export const secretTree = (paths: readonly string[]): SecretTree => pathTree(paths);

/** What to put in place of a secret's value (a non-null value found at a secret path). */
export type SecretRewrite = (value: unknown) => unknown;

function rewriteArray(node: readonly unknown[], tree: SecretTree, rewrite: SecretRewrite): unknown {
  let out: unknown[] | undefined;
  for (let i = 0; i < node.length; i += 1) {
    const next = rewriteIn(node[i], tree, rewrite);
    if (next !== node[i]) (out ??= [...node])[i] = next;
  }
  return out ?? node;
}

function rewriteIn(node: unknown, tree: SecretTree, rewrite: SecretRewrite): unknown {
  if (Array.isArray(node)) return rewriteArray(node, tree, rewrite);
  if (!isRecord(node)) return node;
  let out: Record<string, unknown> | undefined;
  for (const [key, child] of tree.children) {
    if (!Object.hasOwn(node, key)) continue;
    const value = node[key];
    let next: unknown;
    if (child.leaf) next = value === null || value === undefined ? value : rewrite(value);
    else next = rewriteIn(value, child, rewrite);
    if (next !== value) (out ??= { ...node })[key] = next;
  }
  return out ?? node;
}

/** `doc` with every secret value replaced by `rewrite(value)` (copied where changed, else `doc` itself). */
export function rewriteSecrets<T>(doc: T, tree: SecretTree, rewrite: SecretRewrite): T {
  return tree.children.size === 0 ? doc : (rewriteIn(doc, tree, rewrite) as T);
}
