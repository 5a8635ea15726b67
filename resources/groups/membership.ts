/**
 * Group membership: static members (hosts whose `groups` list the group), rule matches (type 1:
 * `info.regex` on the host name, anchored at its start as Salt's `E@` is, and `info.grain`
 * equality on dotted grain keys), and everything of the nested subgroups.
 */
import type { Doc, Filter, Store } from '@fleet/engine';

/** The filter matching a rule group's hosts; null when the group has no rule. */
export function ruleFilter(group: Doc): Filter | null {
  const info = group.info as { regex?: unknown; grain?: unknown } | undefined;
  if (!info || typeof info !== 'object') return null;
  const parts: Filter[] = [];
  if (typeof info.regex === 'string' && info.regex !== '') parts.push({ _id: { $regex: `^(?:${info.regex})` } });
  if (info.grain && typeof info.grain === 'object') {
    for (const [key, value] of Object.entries(info.grain as Record<string, unknown>)) parts.push({ [`grain.${key}`]: value });
  }
  if (parts.length === 0) return null;
  return parts.length === 1 ? (parts[0] as Filter) : { $and: parts };
}

/** The group and every group nested below it (each once), depth first. */
export async function groupTree(store: Store, root: Doc): Promise<Doc[]> {
  const seen = new Map<string, Doc>([[root._id, root]]);
  let frontier = [root];
  while (frontier.length > 0) {
    const ids = frontier.flatMap((g) => (Array.isArray(g.subgroups) ? (g.subgroups as string[]) : [])).filter((id) => !seen.has(id));
    if (ids.length === 0) break;
    const found = await store.find('groups', { _id: { $in: [...new Set(ids)] } });
    for (const g of found) seen.set(g._id, g);
    frontier = found;
  }
  return [...seen.values()];
}

/** Host names of a group and all its nested subgroups: sorted, unique, soft-deleted excluded. */
export async function hostnamesOf(store: Store, root: Doc): Promise<string[]> {
  const groups = await groupTree(store, root);
  const branches: Filter[] = [{ groups: { $in: groups.map((g) => g._id) } }];
  for (const g of groups) {
    const rule = ruleFilter(g);
    if (rule) branches.push(rule);
  }
  const hosts = await store.find('hosts', { $and: [{ $or: branches }, { _soft_deleted: { $ne: true } }] }, { projection: { _id: 1 }, sort: [['_id', 1]] });
  return hosts.map((h) => h._id);
}

/** Whether adding `subgroups` under `groupId` would close a cycle. */
export async function wouldCycle(store: Store, groupId: string, subgroups: readonly string[]): Promise<boolean> {
  if (subgroups.includes(groupId)) return true;
  const seen = new Set<string>();
  let frontier = [...subgroups];
  while (frontier.length > 0) {
    const found = await store.find('groups', { _id: { $in: frontier } }, { projection: { subgroups: 1 } });
    const next: string[] = [];
    for (const g of found) {
      for (const id of (g.subgroups as string[] | undefined) ?? []) {
        if (id === groupId) return true;
        if (!seen.has(id)) {
          seen.add(id);
          next.push(id);
        }
      }
    }
    frontier = next;
  }
  return false;
}
