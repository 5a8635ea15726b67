/**
 * Group membership: static members (hosts whose `groups` list the group), rule matches (type 1:
 * `info.regex` on the host name, anchored at its start as Salt's `E@` is, and `info.grain`
 * equality on dotted grain keys), and everything of the nested subgroups. Nothing is matched per
 * request: static members come from the element index of the hosts' `groups`, rule matches from
 * the keys kept per host (upkeep.ts). Hosts hidden by soft delete never count.
 */
import { type CallContext, type ItemOfFields, systemContext } from '@fleet/engine';
import { hosts } from '../hosts';
import { host_rules } from './derived';
import { type groupFields, groupsRef } from './fields';
import { ruleKey, ruleOf } from './rules';
import { ensureComputed } from './upkeep';

type Group = ItemOfFields<typeof groupFields>;

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
  const keys = [
    ...new Set(
      tree.flatMap((g) => {
        const rule = ruleOf(g.info);
        return rule === null ? [] : [ruleKey(rule)];
      }),
    ),
  ];
  await ensureComputed(ctx.runtime, keys);
  const api = ctx.runtime.resources.of(hosts);
  const [members, matched, hidden] = await Promise.all([
    api.ids({ groups: { $in: tree.map((g) => g._id) } }, ctx),
    keys.length === 0
      ? []
      : ctx.runtime.resources
          .of(host_rules)
          .ids({ rules: { $in: keys } }, systemContext(ctx.runtime, ctx.now)),
    keys.length === 0 ? [] : api.ids({ _soft_deleted: true }, ctx),
  ]);
  const names = new Set(members);
  const gone = new Set(hidden);
  for (const name of matched) if (!gone.has(name)) names.add(name);
  return [...names].sort();
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
