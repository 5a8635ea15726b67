/**
 * Helpers of the graph tests: groups created over HTTP, graph reads, and the node shape of the
 * spec ("graph node and edge") checked field by field and in the spec's order.
 */
import { auth, uniqueName, type TestServer } from '../helpers';

export interface Node {
  category: string;
  type: number;
  id: string;
  name: string;
  info: Record<string, unknown>;
  value: number;
  itemStyle: { color: string };
  symbolSize: number;
}

export interface Edge {
  type: string;
  source: string;
  target: string;
}

/** The spec's node fields, in its order. */
export const NODE_FIELDS = ['category', 'type', 'id', 'name', 'info', 'value', 'itemStyle', 'symbolSize'];

/** Creates a group (admin) and resolves its id. */
export async function group(s: TestServer, body: Record<string, unknown>): Promise<string> {
  const res = await s.request
    .post('/api/groups')
    .set(auth('admin'))
    .send({ name: uniqueName('g'), ...body });
  expect(res.status).toBe(201);
  return (res.body as { _id: string })._id;
}

/** GET /api/graph/{id} as a viewer; expects 200. */
export async function graph(s: TestServer, id: string): Promise<{ nodes: Node[]; edges: Edge[] }> {
  const res = await s.request.get(`/api/graph/${id}`).set(auth('viewer'));
  expect(res.status).toBe(200);
  expect(Object.keys(res.body as object)).toEqual(['nodes', 'edges']);
  return res.body as { nodes: Node[]; edges: Edge[] };
}

/** The ids of the nodes, in order. */
export const ids = (nodes: readonly Node[]): string[] => nodes.map((n) => n.id);

/** The edges as `source>target` strings, in order. */
export const links = (edges: readonly Edge[]): string[] => edges.map((e) => `${e.source}>${e.target}`);
