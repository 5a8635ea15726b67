/**
 * The graph's request and response shapes (spec "graph node and edge", "Graph" endpoints), as Zod
 * schemas: the engine validates the bodies and queries with them and they describe the routes in
 * the OpenAPI document. Field order is the spec's.
 */
import { isPlainObject } from '@fleet/engine';
import { z } from 'zod';

const isIntegerList = (v: unknown): v is number[] =>
  Array.isArray(v) && v.length > 0 && v.every((t) => Number.isInteger(t));

/** A graph node (spec table "Node"). */
export const graphNode = z.object({
  category: z.literal('group'),
  type: z.union([z.literal(0), z.literal(1)]).describe('1 for a rule group (type 1), else 0'),
  id: z.string().describe('The group id'),
  name: z.string(),
  info: z
    .record(z.string(), z.unknown())
    .describe('{} or the rule (regex / grain); a gateway carries its ip'),
  value: z.union([z.literal(0), z.literal(1)]),
  itemStyle: z.object({ color: z.string().describe('CSS hex colour, fixed per group type') }),
  symbolSize: z.union([z.literal(0), z.literal(10)]),
});

/** A graph edge (spec table "Edge"). */
export const graphEdge = z.object({
  type: z.literal('groupLink'),
  source: z.string().describe('The parent group id'),
  target: z.string().describe('The subgroup id'),
});

export const graphResponse = z.object({ nodes: z.array(graphNode), edges: z.array(graphEdge) });
export const nodesResponse = z.object({ nodes: z.array(graphNode) });
export const edgesResponse = z.object({ edges: z.array(graphEdge) });

const NODES_WHERE =
  'GET /graph/{id}/nodes takes {"type": n} or {"type": {"$in": [n, ...]}} (n: 0 or 1, the node type)';

/** The node types a `where` names (spec: "accepts type, integer"); null when absent. */
const nodeTypes = z.string().transform((raw, ctx): number[] | null => {
  let where: unknown;
  try {
    where = JSON.parse(raw);
  } catch {
    where = undefined;
  }
  const type = isPlainObject(where) && Object.keys(where).join() === 'type' ? where.type : undefined;
  const list = isPlainObject(type) && Object.keys(type).join() === '$in' ? type.$in : [type];
  if (isIntegerList(list)) return list;
  ctx.addIssue({ code: 'custom', message: NODES_WHERE });
  return z.NEVER;
});

/** The query of GET /graph/{id}/nodes. */
export const nodesQuery = z.object({
  where: nodeTypes.optional().describe('{"type": n}: only the nodes of this node type'),
});

/** What POST /graph accepts; the rules between fields are checked by {@link checkAction}. */
export const actionBody = z
  .strictObject({
    action: z.enum(['request_ips', 'build_graph']),
    ip_resolver: z
      .string()
      .max(2048)
      .optional()
      .describe(
        'request_ips only: URL of the IP resolver (http or https); default settings.addresses.resolver_address',
      ),
    master: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("build_graph only: the master name, the root group's name"),
  })
  .superRefine((body, ctx) => {
    if (body.action === 'build_graph' && body.master === undefined)
      ctx.addIssue({ code: 'custom', path: ['master'], message: 'required field' });
    if (body.action === 'build_graph' && body.ip_resolver !== undefined)
      ctx.addIssue({ code: 'custom', path: ['ip_resolver'], message: 'only with action request_ips' });
    if (body.action === 'request_ips' && body.master !== undefined)
      ctx.addIssue({ code: 'custom', path: ['master'], message: 'only with action build_graph' });
  });

/** A request_ips job as GET /graph/jobs/{id} (and the POST that starts it) answers it. */
export const jobResponse = z.object({
  _id: z.string(),
  action: z.literal('request_ips'),
  state: z.enum(['running', 'done', 'failed']),
  resolver: z.string().describe('The resolver, without its query'),
  total: z.number().int().describe('Hosts considered'),
  targeted: z.number().int().describe('Hosts probed (accepted key, up)'),
  skipped: z.number().int().describe('Hosts not probed: key not accepted, or down'),
  probed: z.number().int().describe('Hosts probed so far'),
  resolved: z.number().int(),
  failed: z.number().int(),
  nat: z.number().int().describe('Resolved hosts behind a NAT'),
  direct: z.number().int().describe('Resolved hosts whose outward address is their own'),
  gateways_created: z.array(z.string()).describe('Ids of the gateway groups this run created (not linked)'),
  failures: z
    .array(z.object({ host: z.string(), reason: z.string() }))
    .describe('The first 100 failed hosts and why'),
  error: z.string().nullable().describe('Why the job stopped, when it failed'),
  started: z.string(),
  updated: z.string(),
  finished: z.string().nullable(),
  _links: z.object({ self: z.object({ title: z.string(), href: z.string() }) }),
});

/** What POST /graph build_graph answers. */
export const buildResponse = z.object({
  _status: z.literal('OK'),
  _id: z.string().describe('The root group (type 2)'),
  name: z.string(),
  gateways: z.array(z.string()).describe("The gateway groups (type 3), the root's subgroups"),
  direct: z.string().describe("The direct-attached group (type 4), the root's last subgroup"),
  _links: z.object({ self: z.object({ title: z.string(), href: z.string() }) }),
});

/**
 * What POST /graph answers: request_ips' job when it ended within the wait (200) or still running
 * (202, `x-status` for the OpenAPI document), or build_graph's root (200).
 */
export const actionResponse = z.union([
  jobResponse.extend({ _status: z.literal('OK') }).meta({ 'x-status': 202 }),
  jobResponse.extend({ _status: z.literal('OK'), state: z.enum(['done', 'failed']) }),
  buildResponse,
]);
