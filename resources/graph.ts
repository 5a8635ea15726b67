/**
 * The graph route group (`/api/graph`; docs/graph.md): the group hierarchy as
 * ECharts-style nodes and edges from a root group, the gateways no group links, and the actions
 * that build the graph's groups from the hosts' outward addresses. Thin handlers: parse (the
 * engine, with the schemas), call one function of ./graph/, answer.
 */
import { defineGroupRoute, defineRoutes } from '@fleet/engine';
import type { z } from 'zod';
import { requestIps } from './graph/answer';
import { readJob, startBuild } from './graph/jobs';
import { graphOf, nodesOf, notLinked } from './graph/read';
import {
  actionBody,
  actionResponse,
  edgesResponse,
  graphResponse,
  jobResponse,
  nodesQuery,
  nodesResponse,
} from './graph/schemas';

const NOT_LINKED = '/not-linked';

export const graphRoutes = defineRoutes({
  base: 'graph',
  description:
    'The group graph: nodes and edges from a root group, unlinked gateways, and the actions that build the graph groups.',
  routes: [
    // Before `/:id`, which would read "not-linked" as a group id.
    defineGroupRoute({
      method: 'get',
      path: NOT_LINKED,
      role: 'viewer',
      summary: 'Gateway groups (type 3) that no group lists as a subgroup, as nodes',
      response: nodesResponse,
      handler: async ({ ctx }) => ({ body: { nodes: await notLinked(ctx) } }),
    }),
    defineGroupRoute({
      method: 'get',
      path: '/jobs/:id',
      role: 'viewer',
      summary: 'A request_ips job: state, progress and, once done, its summary',
      response: jobResponse,
      handler: async ({ params, ctx }) => ({ body: await readJob(ctx, params.id ?? '') }),
    }),
    defineGroupRoute({
      method: 'get',
      path: '/:id',
      role: 'viewer',
      summary:
        'The graph from a root group: one node per visit, depth first, and one groupLink edge per parent -> child',
      response: graphResponse,
      handler: async ({ params, ctx }) => ({ body: await graphOf(ctx, params.id ?? '') }),
    }),
    defineGroupRoute({
      method: 'get',
      path: '/:id/nodes',
      role: 'viewer',
      summary: 'The nodes of the graph from a root group; where={"type": n} keeps the nodes of one node type',
      query: nodesQuery,
      response: nodesResponse,
      handler: async ({ params, query, ctx }) => ({
        body: { nodes: await nodesOf(ctx, params.id ?? '', query.where) },
      }),
    }),
    defineGroupRoute({
      method: 'get',
      path: '/:id/edges',
      role: 'viewer',
      summary: 'The edges of the graph from a root group',
      response: edgesResponse,
      handler: async ({ params, ctx }) => ({ body: { edges: (await graphOf(ctx, params.id ?? '')).edges } }),
    }),
    defineGroupRoute({
      method: 'post',
      path: '',
      role: 'admin',
      summary:
        "request_ips: probes the hosts' outward addresses (the job's final state, or 202 and the job to poll); build_graph: replaces the groups of types 2-4 with a root over the gateways and the direct group",
      description:
        'Body {"action": "request_ips", "ip_resolver"?: URL} or {"action": "build_graph", "master": NAME}. request_ips runs as a job: the answer waits for it up to the server\'s bound (GRAPH_WAIT_S, 25 s by default; `Prefer: wait=N` shortens it) and is 200 with its final state (done or failed); past the bound, or with `Prefer: respond-async`, it is 202 with the running job and its Location (GET /api/graph/jobs/{id}). build_graph runs to its end (store work only).',
      body: actionBody,
      response: actionResponse,
      async handler({ body, ctx, preferences }) {
        if (body.action === 'request_ips') return requestIps(ctx, body.ip_resolver, preferences);
        const built = await startBuild(ctx, body.master ?? '');
        return {
          body: {
            _status: 'OK',
            _id: built.root._id,
            name: built.root.name,
            gateways: [...built.gateways],
            direct: built.direct,
            _links: { self: { title: 'Group', href: `groups/${built.root._id}` } },
          } satisfies z.infer<typeof actionResponse>,
        };
      },
    }),
  ],
});
