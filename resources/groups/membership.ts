/**
 * Group membership: static members (hosts whose `groups` list the group), rule matches (type 1:
 * `info.regex` on the host name, anchored at its start as Salt's `E@` is, and `info.grain`
 * equality on dotted grain keys), and everything of the nested subgroups. Read through the local
 * API, so hosts hidden by soft delete never count.
 */
import type { CallContext, Filter, ItemOfFields } from '@fleet/engine';
import { hosts } from '../hosts';
import { type groupFields, groupsRef } from './fields';

type Group = ItemOfFields<typeof groupFields>;

/** The filter matching a rule group's hosts; null when the group has no rule. */
export function ruleFilter(group: Pick<Group, 'info'>): Filter | null {
  const info = group.info;
  const parts: Filter[] = [];
  if (typeof info.regex === 'string' && info.regex !== '')
    parts.push({ _id: { $regex: `^(?:${info.regex})` } });
  for (const [key, value] of Object.entries(info.grain ?? {})) parts.push({ [`grain.${key}`]: value });
  if (parts.length === 0) return null;
  return parts.length === 1 ? (parts[0] ?? null) : { $and: parts };
}

/** The groups of these ids (each once). */
async function groupsById(ctx: CallContext, ids: readonly string[]): Promise<Group[]> {
  return ctx.runtime.resources.of(groupsRef).find({ where: { _id: { $in: [...new Set(ids)] } } }, ctx);
}

/** The group and every group nested below it (each once), breadth first. */
export async function groupTree(ctx: CallContext, root: Group): Promise<Group[]> {
  const seen = new Map<string, Group>([[root._id, root]]);
  let frontier = [root];
  while (frontier.length > 0) {
    const ids = frontier.flatMap((g) => g.subgroups).filter((id) => !seen.has(id));
    if (ids.length === 0) break;
    const found = await groupsById(ctx, ids);
    for (const g of found) seen.set(g._id, g);
    frontier = found;
  }
  return [...seen.values()];
}

/** Host names of a group and all its nested subgroups: sorted, unique, soft-deleted excluded. */
export async function hostnamesOf(ctx: CallContext, root: Group): Promise<string[]> {
  const tree = await groupTree(ctx, root);
  const branches: Filter[] = [{ groups: { $in: tree.map((g) => g._id) } }];
  for (const g of tree) {
    const rule = ruleFilter(g);
    if (rule) branches.push(rule);
  }
  const found = await ctx.runtime.resources
    .of(hosts)
    .find({ where: { $or: branches }, projection: { _id: 1 }, sort: [['_id', 1]] }, ctx);
  return found.map((h) => h._id);
}

/** Whether adding `subgroups` under `groupId` would close a cycle. */
export async function wouldCycle(
  ctx: CallContext,
  groupId: string,
  subgroups: readonly string[],
): Promise<boolean> {
  if (subgroups.includes(groupId)) return true;
  const seen = new Set<string>();
  let frontier = [...subgroups];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const g of await groupsById(ctx, frontier)) {
      for (const id of g.subgroups) {
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
