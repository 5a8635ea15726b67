/**
 * The group graph as nodes and edges (spec "graph node and edge"): depth first
 * from the root, subgroups in their stored order; one node per visit, so a group reached from two
 * parents appears twice (the spec: "a rule-defined group may appear more than once"); one
 * `groupLink` edge per parent -> child link, however often the parent is visited. Pure: the groups
 * are read before (./read.ts).
 *
 * Writes refuse cycles, but the traversal does not rely on it: a subgroup already on the current
 * path is not entered again. Visits multiply along shared subgroups (a lattice of n levels of two
 * groups that both list the next two is 2^n visits), so depth and node count are bounded, and a
 * graph past a bound is a 422 saying which, never a stalled server.
 */
import { Unprocessable } from '@fleet/engine';
import type { z } from 'zod';
import type { graphEdge, graphNode } from './schemas';

export type GraphNode = z.infer<typeof graphNode>;
export type GraphEdge = z.infer<typeof graphEdge>;

/** The fields of a group the graph reads. */
export interface GraphGroup {
  readonly _id: string;
  readonly name: string;
  readonly type: number;
  readonly subgroups: readonly string[];
  readonly info: Readonly<Record<string, unknown>>;
}

/** Groups on one path from the root, the root included. */
export const MAX_GRAPH_DEPTH = 64;
/** Nodes of one graph (visits). */
export const MAX_GRAPH_NODES = 20_000;

interface NodeStyle {
  readonly type: 0 | 1;
  readonly value: 0 | 1;
  readonly symbolSize: 0 | 10;
  /** ECharts' default palette, one colour per group type, so a type reads the same in every graph. */
  readonly color: string;
}

/** Node fields by group type (rule groups value 1 / symbolSize 10, the others 0 / 0). */
export const NODE_STYLES = {
  0: { type: 0, value: 0, symbolSize: 0, color: '#5470c6' }, // container
  1: { type: 1, value: 1, symbolSize: 10, color: '#91cc75' }, // rule
  2: { type: 0, value: 0, symbolSize: 0, color: '#ee6666' }, // master root
  3: { type: 0, value: 0, symbolSize: 0, color: '#fac858' }, // gateway
  4: { type: 0, value: 0, symbolSize: 0, color: '#73c0de' }, // direct-attached
} as const satisfies Record<0 | 1 | 2 | 3 | 4, NodeStyle>;

/** NODE_STYLES looked up by any group type: an unknown one has no style (and gets the container's). */
const STYLE_OF: Readonly<Partial<Record<number, NodeStyle>>> = NODE_STYLES;

/** The node of one visit of a group. */
export function nodeOf(group: GraphGroup): GraphNode {
  const style = STYLE_OF[group.type] ?? NODE_STYLES[0];
  return {
    category: 'group',
    type: style.type,
    id: group._id,
    name: group.name,
    info: { ...group.info },
    value: style.value,
    itemStyle: { color: style.color },
    symbolSize: style.symbolSize,
  };
}

/** One group being visited: its children are entered from `next` on. */
interface Frame {
  readonly group: GraphGroup;
  next: number;
}

/** Limits of one traversal (the defaults unless a caller, such as a test, narrows them). */
export interface GraphBounds {
  readonly depth: number;
  readonly nodes: number;
}

/** The graph from `root`: nodes in depth-first pre-order, edges in the order first met. */
export function renderGraph(
  root: GraphGroup,
  groups: ReadonlyMap<string, GraphGroup>,
  bounds: GraphBounds = { depth: MAX_GRAPH_DEPTH, nodes: MAX_GRAPH_NODES },
): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const nodes: GraphNode[] = [nodeOf(root)];
  const edges: GraphEdge[] = [];
  const linked = new Set<string>();
  const stack: Frame[] = [{ group: root, next: 0 }];
  const onPath = new Set<string>([root._id]);
  for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
    const childId = frame.group.subgroups[frame.next++];
    if (childId === undefined) {
      stack.pop();
      onPath.delete(frame.group._id);
      continue;
    }
    const child = groups.get(childId);
    // A dangling id (deleted meanwhile) or a way back up the path is not followed.
    if (child === undefined || onPath.has(childId)) continue;
    const link = `${frame.group._id} ${childId}`;
    if (!linked.has(link)) {
      linked.add(link);
      edges.push({ type: 'groupLink', source: frame.group._id, target: childId });
    }
    if (stack.length + 1 > bounds.depth)
      throw new Unprocessable(
        `graph: the groups below ${root._id} nest deeper than ${bounds.depth} levels; the graph is not drawn`,
      );
    if (nodes.length + 1 > bounds.nodes) {
      throw new Unprocessable(
        `graph: the graph of ${root._id} has more than ${bounds.nodes} nodes (one per visit: a subgroup shared by several parents is drawn under each); draw a smaller part of it`,
      );
    }
    nodes.push(nodeOf(child));
    stack.push({ group: child, next: 0 });
    onPath.add(childId);
  }
  return { nodes, edges };
}
