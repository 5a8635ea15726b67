/**
 * `embedded`: replaces reference ids by the referenced items, one `$in` query per relation.
 * Soft-deleted or missing targets are not found, so a dangling reference stays an id.
 */
import type { CompiledResource } from '../compile/compile';
import type { Registry } from '../compile/registry';
import type { Runtime } from '../definition/define';
import type { FullResourceOps } from '../ops/resource-ops';
import type { Doc } from '../store/port';
import { renderItem } from './serialize';

/** Rendered targets by relation field, then by id. */
export async function resolveEmbedded(args: {
  res: CompiledResource;
  docs: readonly Doc[];
  fields: readonly string[];
  registry: Registry;
  runtime: Runtime;
}): Promise<Map<string, Map<string, Record<string, unknown>>>> {
  const out = new Map<string, Map<string, Record<string, unknown>>>();
  const titles = (name: string) => args.registry.get(name).itemTitle;
  for (const field of args.fields) {
    const rel = args.res.relations.find((r) => r.field === field);
    if (!rel) continue;
    const ids = new Set<string>();
    for (const doc of args.docs) {
      const value = doc[field];
      for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'string') ids.add(id);
    }
    const target = args.registry.get(rel.to);
    const targetOps = args.runtime.resources.get(rel.to) as FullResourceOps;
    const found = ids.size === 0 ? [] : await args.runtime.store.find(rel.to, targetOps.scoped({ _id: { $in: [...ids] } }));
    const opts = { mode: 'embedded' as const, titles };
    out.set(field, new Map(found.map((d) => [d._id, renderItem(target, d, opts)])));
  }
  return out;
}
