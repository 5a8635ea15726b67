/**
 * The graph reads (GET /graph/{id}, /nodes, /edges, /not-linked): groups read through the local
 * API as the caller, then drawn by ./render.ts.
 */
import type { CallContext } from '@fleet/engine';
import { groupsRef } from '../groups/fields';
import { groupTree } from '../groups/membership';
import { nodeOf, renderGraph, type GraphBounds, type GraphEdge, type GraphNode } from './render';

/** Group type of the gateways. */
export const GATEWAY = 3;

/** The graph from group `rootId` (404 when there is no such group). */
export async function graphOf(
  ctx: CallContext,
  rootId: string,
  bounds?: GraphBounds,
): Promise<{ nodes: GraphNode[]; edges: GraphEdge[] }> {
  const root = await ctx.runtime.resources.of(groupsRef).get(rootId, ctx);
  // Every group below the root, each read once, one query per level.
  const tree = await groupTree(ctx, root);
  return renderGraph(root, new Map(tree.map((g) => [g._id, g])), bounds);
}

/** The nodes of the graph from `rootId`, only those of the given node types when `types` is set. */
export async function nodesOf(
  ctx: CallContext,
  rootId: string,
  types: readonly number[] | null | undefined,
): Promise<GraphNode[]> {
  const { nodes } = await graphOf(ctx, rootId);
  return types ? nodes.filter((n) => types.includes(n.type)) : nodes;
}

/** Gateway groups that no group lists as a subgroup, by name. */
export async function notLinked(ctx: CallContext): Promise<GraphNode[]> {
  const api = ctx.runtime.resources.of(groupsRef);
  const gateways = await api.find(
    {
      where: { type: GATEWAY },
      sort: [
        ['name', 1],
        ['_id', 1],
      ],
    },
    ctx,
  );
  if (gateways.length === 0) return [];
  const parents = await api.find(
    { where: { subgroups: { $in: gateways.map((g) => g._id) } }, projection: { subgroups: 1 } },
    ctx,
  );
  const linked = new Set(parents.flatMap((p) => p.subgroups));
  return gateways.filter((g) => !linked.has(g._id)).map(nodeOf);
}
