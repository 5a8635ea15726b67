/**
 * Mounting declared routes: custom routes under their resource and the routes of route groups.
 * The engine authenticates, checks the role, validates a declared body (422) or query (400) with
 * its Zod schema, calls the handler without Express, and renders what it returns.
 */
import { Router, type IRouter } from 'express';
import type { z } from 'zod';
import type { CompiledResource } from '../compile/compile';
import { parseWith } from '../compile/zod';
import type { CustomRoute, RouteGroup, RouteRequest, RouteResult, RouteSpec } from '../definition/routes';
import { BadRequest, MethodNotAllowed, Unprocessable } from '../errors';
import type { ApiContext } from './context';
import { callContext, guard, jsonObject } from './handlers';
import { parsePrefer } from './prefer';
import { sendResult } from './results';

function parseBody(schema: z.ZodType | undefined, body: unknown, where: string): unknown {
  if (schema === undefined) return body;
  // As for a resource's writes: a body that is not a JSON object, where one is declared, is a 400.
  const parsed = parseWith(schema, schema.def.type === 'object' ? jsonObject(body ?? {}) : (body ?? {}));
  if (parsed.ok) return parsed.data;
  throw new Unprocessable(
    `${where}: the body has ${Object.keys(parsed.issues).length} invalid field(s)`,
    parsed.issues,
  );
}

/** The query as the handler declared it: parsed by its schema (a route made with defineRoute), else raw. */
function parseQuery(schema: z.ZodType | undefined, query: RouteRequest['query']): RouteRequest['query'] {
  if (schema === undefined) return query;
  const parsed = parseWith(schema, query);
  if (parsed.ok) return parsed.data as RouteRequest['query'];
  const [key, message] = Object.entries(parsed.issues)[0] ?? ['query', 'invalid'];
  throw new BadRequest(`${key}: ${message}`);
}

/** The shared part: guard, parse, call, render. */
function mount(
  api: ApiContext,
  router: IRouter,
  route: RouteSpec,
  action: string,
  call: (req: RouteRequest) => Promise<RouteResult>,
  own?: CompiledResource,
): void {
  router[route.method](
    route.path === '' ? '/' : route.path,
    guard(api, route.role, action, route.execution === true),
    async (req, resp) => {
      const params = Object.fromEntries(Object.entries(req.params).map(([k, v]) => [k, String(v)]));
      const ifMatch = req.get('if-match');
      const result = await call({
        params,
        query: parseQuery(route.query, req.query as RouteRequest['query']),
        body: parseBody(route.body, req.body, action),
        ...(ifMatch === undefined ? {} : { ifMatch }),
        preferences: parsePrefer(req.get('prefer')),
        ctx: callContext(api, resp),
      });
      await sendResult(api, req, resp, route, result, own);
    },
  );
}

/** Mounts a custom route of `res` on its router. */
export function mountRoute(
  api: ApiContext,
  router: IRouter,
  route: CustomRoute,
  res: CompiledResource,
): void {
  const resource = api.runtime.resources.get(res.name);
  mount(
    api,
    router,
    route,
    `${route.method.toUpperCase()} /${res.name}${route.path}`,
    (args) => route.handler({ ...args, resource }),
    res,
  );
}

/** The router of a route group, mounted at `/<base>`. */
export function groupRouter(api: ApiContext, group: RouteGroup): Router {
  // Paths match as written, case included (api.ts).
  const router = Router({ caseSensitive: true });
  const methods = new Map<string, string[]>();
  for (const route of group.routes) {
    mount(api, router, route, `${route.method.toUpperCase()} /${group.base}${route.path}`, (args) =>
      route.handler(args),
    );
    const path = route.path === '' ? '/' : route.path;
    methods.set(path, [...(methods.get(path) ?? []), route.method.toUpperCase()]);
  }
  for (const [path, allowed] of methods) {
    router.all(path, () => {
      throw new MethodNotAllowed(allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed);
    });
  }
  return router;
}
