/**
 * The registry: every compiled resource by name, with the cross-resource checks done once at boot
 * (a relation must point at a registered resource).
 */
import type { AnyResourceDefinition } from '../definition/define';
import { routeAnswerError, type RouteGroup } from '../definition/routes';
import { compileResource, type CompiledResource, type Reference } from './compile';

/** A reference pointing at a resource, seen from its target (what a delete must look at). */
export interface Referrer {
  readonly from: CompiledResource;
  readonly ref: Reference;
}

export interface Registry {
  readonly resources: ReadonlyMap<string, CompiledResource>;
  /** Route groups (`/graph`, `/master`) by base path. */
  readonly groups: ReadonlyMap<string, RouteGroup>;
  get(name: string): CompiledResource;
  /** The references pointing at `name`, from every resource (itself included). */
  referrers(name: string): readonly Referrer[];
}

/** Compiles and cross-checks the definitions and route groups; throws naming the first problem. */
export function createRegistry(
  definitions: readonly AnyResourceDefinition[],
  routeGroups: readonly RouteGroup[] = [],
): Registry {
  const resources = new Map<string, CompiledResource>();
  for (const def of definitions) {
    if (resources.has(def.name)) throw new Error(`resource "${def.name}" is defined twice`);
    resources.set(def.name, compileResource(def));
  }
  const referrers = new Map<string, Referrer[]>();
  for (const res of resources.values()) {
    for (const ref of res.references) {
      if (!resources.has(ref.to))
        throw new Error(`${res.name}.${ref.path} refers to unknown resource "${ref.to}"`);
      referrers.set(ref.to, [...(referrers.get(ref.to) ?? []), { from: res, ref }]);
    }
  }
  const groups = new Map<string, RouteGroup>();
  for (const group of routeGroups) {
    if (resources.has(group.base) || groups.has(group.base))
      throw new Error(`route group "${group.base}" clashes with a resource or another group`);
    for (const route of group.routes) {
      const why = routeAnswerError(route);
      if (why) throw new Error(`route group ${group.base}: ${why}`);
    }
    groups.set(group.base, group);
  }
  return Object.freeze({
    resources,
    groups,
    referrers: (name: string) => referrers.get(name) ?? [],
    get(name: string): CompiledResource {
      const res = resources.get(name);
      if (!res) throw new Error(`unknown resource "${name}"`);
      return res;
    },
  });
}
