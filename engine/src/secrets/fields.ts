/**
 * The secret fields of a resource, and everything done to them: sealed before they are stored,
 * masked (`********`) in what any caller reads, opened only for the system principal that asks,
 * sealed again under a new key. Every operation is the one walk of walk.ts over the resource's
 * secret paths, compiled once per resource.
 */
import type { SecretBox } from '../definition/define';
import { isSealed } from './box';
import { rewriteSecrets, secretTree, type SecretTree } from './walk';

/** The mask a secret reads back as. */
export const MASK = '********';

/** What can be done to the secret fields of one resource's documents (copies; the input is never changed). */
export interface SecretFields {
  /** The dotted secret paths. */
  readonly paths: readonly string[];
  /** Whether the resource has no secret field (every operation returns the document as it is). */
  readonly none: boolean;
  /** Each string secret sealed (a value already sealed is kept). */
  seal<T>(doc: T, box: SecretBox): T;
  /** Each secret with a value masked, whatever its type. */
  mask<T>(doc: T): T;
  /** Each string secret opened; any other value masked. */
  reveal<T>(doc: T, box: SecretBox): T;
  /** Each sealed secret replaced by `reseal(value)` (key rotation). */
  reseal<T>(doc: T, reseal: (sealed: string) => string): T;
  /** Whether any secret holds a sealed value. */
  holdsSealed(doc: unknown): boolean;
}

function compile(paths: readonly string[]): SecretFields {
  const tree: SecretTree = secretTree(paths);
  return {
    paths,
    none: paths.length === 0,
    seal: (doc, box) => rewriteSecrets(doc, tree, (v) => (typeof v === 'string' ? box.seal(v) : v)),
    mask: (doc) => rewriteSecrets(doc, tree, () => MASK),
    reveal: (doc, box) => rewriteSecrets(doc, tree, (v) => (typeof v === 'string' ? box.open(v) : MASK)),
    reseal: (doc, reseal) => rewriteSecrets(doc, tree, (v) => (isSealed(v) ? reseal(v) : v)),
    holdsSealed(doc) {
      let found = false;
      rewriteSecrets(doc, tree, (v) => {
        found ||= isSealed(v);
        return v;
      });
      return found;
    },
  };
}

/** Compiled per array of paths (a compiled resource has one, frozen). */
const compiled = new WeakMap<readonly string[], SecretFields>();

/** The secret fields of the documents whose secret paths are `paths` (`res.secretPaths`). */
export function secretFields(paths: readonly string[]): SecretFields {
  let fields = compiled.get(paths);
  if (fields === undefined) {
    fields = compile(paths);
    compiled.set(paths, fields);
  }
  return fields;
}

/**
 * Seals the secrets of a freshly built document in place (the write path's own copy): each
 * top-level field holding a secret is replaced by its sealed copy.
 */
export function sealSecrets(doc: Record<string, unknown>, paths: readonly string[], box: SecretBox): void {
  const sealed = secretFields(paths).seal(doc, box);
  if (sealed !== doc) Object.assign(doc, sealed);
}
