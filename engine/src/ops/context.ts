/**
 * What the operations of every resource share: the registry, the store (only the engine holds it),
 * the secret box, and the local API of the other resources (embedded reads, relation checks).
 */
import type { CompiledResource } from '../compile/compile';
import type { Registry } from '../compile/registry';
import type { SecretBox } from '../definition/define';
import type { Store } from '../store/port';

export interface OpsDeps {
  readonly registry: Registry;
  readonly store: Store;
  readonly secrets: SecretBox;
}

/** The deps and the compiled resource an operation runs on. */
export interface OpsScope extends OpsDeps {
  readonly res: CompiledResource;
}
