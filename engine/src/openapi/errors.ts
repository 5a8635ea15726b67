/**
 * The error statuses each operation can answer, from what it is and what its resource declares:
 * the guard (401, 403), the query parsers (400), the lookup (404), body parsing and validation
 * (400, 413, 415, 422), `If-Match` (412), unique fields, restricting references and state rules
 * (409), the rate limits on writes and the budget of large reads (429), the store (503) and the
 * peers hooks and routes call (502, 503, 504). The HTTP test suite checks every answer it gets against this list
 * (test/helpers/openapi-check.ts): a status missing here fails the test that met it.
 */
import type { CompiledResource } from '../compile/compile';
import type { Registry } from '../compile/registry';
import type { Role } from '../definition/fields';
import type { RouteSpec } from '../definition/routes';

/** The generic operations of a resource (its `methods`). */
export type ResourceOperation =
  'list' | 'get' | 'create' | 'patch' | 'replace' | 'delete' | 'deleteMany' | 'updateByBody';

/** Every authenticated call: no or unknown token, an unknown failure, the store unreachable. */
const ALWAYS = [401, 500, 503] as const;
/** What any request with a body may meet first: malformed JSON (400), too large (413). */
const BODY = [400, 413] as const;
/** Peers a hook or a route calls (the master, a VPN server): their error, absence or silence. */
const PEERS = [502, 503, 504] as const;

const isWrite = (op: ResourceOperation): boolean => op !== 'list' && op !== 'get';

/** 403 is possible when the role is above the lowest, or a parameter needs more. */
function roleErrors(role: Role, raisedBy: readonly Role[] = []): number[] {
  return role !== 'viewer' || raisedBy.some((r) => r !== 'viewer') ? [403] : [];
}

/** Whether a write may be refused as a conflict: a unique field, or a hook that may refuse. */
function mayConflict(res: CompiledResource, op: ResourceOperation, registry: Registry): boolean {
  const hooks = res.def.hooks ?? {};
  if (op === 'delete')
    return (
      registry.referrers(res.name).some((r) => r.ref.onDelete === 'restrict') ||
      hooks.beforeDelete !== undefined
    );
  return Object.values(res.def.fields).some((f) => f.unique === true) || hooks.prepare !== undefined;
}

/** Whether the operation runs hooks that may call a peer. */
function callsHooks(res: CompiledResource, op: ResourceOperation): boolean {
  const hooks = res.def.hooks ?? {};
  if (op === 'delete') return hooks.beforeDelete !== undefined || hooks.afterDelete !== undefined;
  if (op === 'deleteMany') return false;
  return isWrite(op) && (hooks.prepare !== undefined || hooks.afterWrite !== undefined);
}

const OWN: Readonly<Record<ResourceOperation, readonly number[]>> = {
  list: [400],
  get: [400, 404],
  create: [...BODY, 415, 422],
  patch: [...BODY, 404, 412, 415, 422],
  replace: [...BODY, 404, 412, 415, 422],
  updateByBody: [...BODY, 404, 412, 415, 422],
  delete: [404, 412],
  deleteMany: [400],
};

/** The error statuses of a generic operation of `res`. */
export function resourceErrors(args: {
  res: CompiledResource;
  op: ResourceOperation;
  role: Role;
  registry: Registry;
  paramRoles?: readonly Role[];
}): number[] {
  const { res, op, role, registry } = args;
  return [
    ...ALWAYS,
    ...OWN[op],
    ...roleErrors(role, args.paramRoles),
    ...(isWrite(op) || op === 'list' ? [429] : []),
    ...(isWrite(op) && mayConflict(res, op, registry) ? [409] : []),
    ...(callsHooks(res, op) ? PEERS : []),
  ];
}

/**
 * The error statuses of a declared route. Its handler may refuse in its own words anywhere (a
 * graph too large to draw is a 422, a VPN profile of an unattached organization a 409), so
 * every route may be a 400, 409 or 422; a route with a path parameter looks its item up (404); a
 * route that renders a write honours If-Match (412); writes and downloads call peers.
 */
export function routeErrors(route: RouteSpec): number[] {
  const write = route.method !== 'get';
  const params = /:\w+/.test(route.path);
  return [
    ...ALWAYS,
    400,
    409,
    422,
    ...roleErrors(route.role),
    ...(params ? [404] : []),
    ...(route.renders?.as === 'write' ? [412] : []),
    ...(write ? [...BODY, 429] : []),
    ...(write || route.download === true ? PEERS : []),
  ];
}
