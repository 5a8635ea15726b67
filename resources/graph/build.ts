/**
 * The groups the graph builds: gateways (type 3, one per outward
 * address of NAT'd hosts, `info.ip`, its hosts as static members), the direct-attached group
 * (type 4, the hosts no probe found behind a NAT) and the master root (type 2, named after the
 * master, whose subgroups are the gateways and the direct group).
 *
 * Their ids are derived from what they stand for (the address; "root"; "direct"), so building
 * twice changes the same groups instead of making new ones, two writers cannot create one
 * gateway twice, and a container (type 0) that lists the root keeps it. Written as the system
 * principal: the route is admin-only, and the system may name ids.
 */
import { createHash } from 'node:crypto';
import { NotFound, systemContext, type CallContext, type ItemOfFields } from '@fleet/engine';
import { groupsRef, type groupFields } from '../groups/fields';
import { hosts } from '../hosts';
import { GATEWAY } from './read';

type Group = ItemOfFields<typeof groupFields>;

export const ROOT = 2 as const;
export const DIRECT = 4 as const;

/** A 24-hex id derived from what a built group stands for. */
export function builtGroupId(what: string): string {
  return createHash('sha1').update(`fleet-graph:${what}`).digest('hex').slice(0, 24);
}

export const ROOT_ID = builtGroupId('root');
export const DIRECT_ID = builtGroupId('direct');
export const gatewayId = (ip: string): string => builtGroupId(`gateway:${ip}`);

/** Hosts behind a NAT, by outward address (sorted ids; hosts hidden by soft delete left out). */
async function natHosts(ctx: CallContext): Promise<Map<string, string[]>> {
  const found = await ctx.runtime.resources
    .of(hosts)
    .find({ where: { nat: true }, projection: { ip: 1 }, sort: [['_id', 1]] }, ctx);
  const byIp = new Map<string, string[]>();
  for (const h of found)
    if (typeof h.ip === 'string' && h.ip !== '') byIp.set(h.ip, [...(byIp.get(h.ip) ?? []), h._id]);
  return byIp;
}

/** The static members of each group, sorted. */
async function membersOf(ctx: CallContext, ids: readonly string[]): Promise<Map<string, string[]>> {
  const found = await ctx.runtime.resources
    .of(hosts)
    .find({ where: { groups: { $in: [...ids] } }, projection: { groups: 1 }, sort: [['_id', 1]] }, ctx);
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const h of found) for (const g of h.groups) out.get(g)?.push(h._id);
  return out;
}

const same = (a: readonly string[] | undefined, b: readonly string[]): boolean =>
  a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

/** What the gateways are after a reconciliation. */
export interface Gateways {
  /** Gateway ids by address, addresses sorted. */
  readonly byIp: ReadonlyMap<string, string>;
  /** Gateways made by this call. */
  readonly created: readonly string[];
}

/**
 * Makes the gateways match the hosts: one per outward address of NAT'd hosts, with exactly those
 * hosts as members; a missing one is created (not linked anywhere). With `prune`, gateways whose
 * address no NAT'd host has any more (and extra ones for one address) are deleted.
 */
export async function reconcileGateways(ctx: CallContext, o: { prune: boolean }): Promise<Gateways> {
  const sys = systemContext(ctx.runtime, ctx.now);
  const api = ctx.runtime.resources.of(groupsRef);
  const wanted = await natHosts(sys);
  const existing = await api.find({ where: { type: GATEWAY }, sort: [['_id', 1]] }, sys);
  const byIp = new Map<string, string>();
  const stale: string[] = [];
  const ipOf = (g: Group): string => (typeof g.info.ip === 'string' ? g.info.ip : '');
  // The derived id first: of two gateways for one address, the one building made is kept.
  const derived = (g: Group): boolean => g._id === gatewayId(ipOf(g));
  for (const g of [...existing.filter(derived), ...existing.filter((g) => !derived(g))]) {
    const ip = ipOf(g);
    if (wanted.has(ip) && !byIp.has(ip)) byIp.set(ip, g._id);
    else stale.push(g._id);
  }
  const members = await membersOf(sys, [...byIp.values()]);
  const created: string[] = [];
  for (const ip of [...wanted.keys()].sort()) {
    const hostIds = wanted.get(ip) ?? [];
    const id = byIp.get(ip);
    if (id === undefined) {
      const made = await api.create(
        { _id: gatewayId(ip), name: ip, type: GATEWAY, info: { ip }, hosts: hostIds },
        sys,
      );
      byIp.set(ip, made._id);
      created.push(made._id);
    } else if (!same(members.get(id), hostIds)) await api.patch(id, { hosts: hostIds }, sys);
  }
  if (o.prune && stale.length > 0) await api.deleteMany({ _id: { $in: stale } }, sys);
  return { byIp: new Map([...byIp].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), created };
}

/** Creates the group with this id, or replaces it (static members kept unless `hosts` is given). */
async function putGroup(
  ctx: CallContext,
  id: string,
  data: { name: string; type: 2 | 4; subgroups: string[]; info: Record<string, never>; hosts?: string[] },
): Promise<Group> {
  const api = ctx.runtime.resources.of(groupsRef);
  try {
    await api.get(id, ctx);
  } catch (err) {
    if (!(err instanceof NotFound)) throw err;
    return api.create({ _id: id, ...data }, ctx);
  }
  return api.replace(id, data, ctx);
}

/** What build_graph made. */
export interface BuiltGraph {
  readonly root: Group;
  readonly gateways: readonly string[];
  readonly direct: string;
}

/**
 * build_graph: the gateways reconciled (stale ones deleted), the direct group set to the hosts
 * not behind a NAT, and one root named `master` over them; every other group of types 2 and 4 is
 * deleted (relations pull it from its parents). Groups of types 0 and 1 are not written.
 */
export async function buildGraph(ctx: CallContext, master: string): Promise<BuiltGraph> {
  const sys = systemContext(ctx.runtime, ctx.now);
  const gateways = await reconcileGateways(sys, { prune: true });
  const direct = await ctx.runtime.resources
    .of(hosts)
    .find({ where: { nat: { $ne: true } }, projection: { _id: 1 }, sort: [['_id', 1]] }, sys);
  await putGroup(sys, DIRECT_ID, {
    name: 'direct',
    type: DIRECT,
    subgroups: [],
    info: {},
    hosts: direct.map((h) => h._id),
  });
  const subgroups = [...gateways.byIp.values(), DIRECT_ID];
  const root = await putGroup(sys, ROOT_ID, { name: master, type: ROOT, subgroups, info: {} });
  await ctx.runtime.resources
    .of(groupsRef)
    .deleteMany({ type: { $in: [ROOT, DIRECT] }, _id: { $nin: [ROOT_ID, DIRECT_ID] } }, sys);
  return { root, gateways: [...gateways.byIp.values()], direct: DIRECT_ID };
}
