/**
 * The registry: every compiled resource by name, with the cross-resource checks done once at boot
 * (a relation must point at a registered resource).
 */
import type { ResourceDefinition } from '../definition/define';
import { compileResource, type CompiledResource } from './compile';

export interface Registry {
  readonly resources: ReadonlyMap<string, CompiledResource>;
  get(name: string): CompiledResource;
}

/** Compiles and cross-checks the definitions; throws naming the first problem. */
export function createRegistry(definitions: readonly ResourceDefinition[]): Registry {
  const resources = new Map<string, CompiledResource>();
  for (const def of definitions) {
    if (resources.has(def.name)) throw new Error(`resource "${def.name}" is defined twice`);
    resources.set(def.name, compileResource(def));
  }
  for (const res of resources.values()) {
    for (const rel of res.relations) {
      if (!resources.has(rel.to)) throw new Error(`${res.name}.${rel.field} refers to unknown resource "${rel.to}"`);
    }
  }
  return Object.freeze({
    resources,
    get(name: string): CompiledResource {
      const res = resources.get(name);
      if (!res) throw new Error(`unknown resource "${name}"`);
      return res;
    },
  });
}
