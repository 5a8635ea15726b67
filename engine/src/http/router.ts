/**
 * Compiled resource -> Express router. Handlers are thin: parse, call one operation of the local
 * API, render. Custom routes are mounted first, in their order, so `/hosts/statistics/online` is
 * never read as an item id.
 */
import { Router, type RequestHandler } from 'express';
import type { CompiledResource } from '../compile/compile';
import type { Role } from '../definition/fields';
import { BadRequest, MethodNotAllowed } from '../errors';
import { readCost } from '../fair/admission';
import { parseItemParams, parseListParams, single } from '../query/params';
import { lastModifiedOf, notModified, setLastModified } from './conditional';
import type { ApiContext } from './context';
import { createHandlers } from './create';
import { acceptBody, callContext, extraParams, guard, ifMatchOf, showDeleted, writeBody } from './handlers';
import { renderText } from './render';
import { sendJson, sendList } from './results';
import { mountRoute } from './routes';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Builds the router of one resource. */
export function resourceRouter(api: ApiContext, res: CompiledResource): Router {
  // Paths match as written, case included (api.ts).
  const router = Router({ caseSensitive: true });
  const collection = api.runtime.resources.get(res.name);
  const m = res.def.methods;
  const allowed: Record<'/' | '/:id', string[]> = { '/': [], '/:id': [] };
  const add = (
    method: Method,
    path: '/' | '/:id',
    role: Role | undefined,
    action: string,
    ...handlers: RequestHandler[]
  ) => {
    if (!role) return;
    allowed[path].push(method.toUpperCase());
    router[method](path, guard(api, role, action), ...handlers);
  };

  for (const route of res.def.routes ?? []) mountRoute(api, router, route, res);

  add('get', '/', m.list, `GET /${res.name}`, async (req, resp) => {
    const p = parseListParams(res, req.query, api.limits);
    const ctx = callContext(api, resp);
    // Large pages are admitted by their cost, per token (fair/admission.ts).
    const ticket = await api.readAdmission.admit(ctx.principal.name, readCost(p.maxResults));
    try {
      const list = await collection.list(
        {
          ...(p.where ? { where: p.where } : {}),
          ...(p.sort ? { sort: p.sort } : {}),
          ...(p.projection ? { projection: p.projection } : {}),
          embedded: p.embedded,
          page: p.page,
          maxResults: p.maxResults,
          showDeleted: showDeleted(res, req),
          params: extraParams(req.query),
        },
        ctx,
      );
      await sendList(api, req, resp, res, list, {
        embedded: p.embedded,
        ...(p.projection ? { projection: p.projection } : {}),
      });
    } finally {
      ticket.release();
    }
  });

  add('post', '/', m.create, `POST /${res.name}`, ...createHandlers(api, res));

  add('delete', '/', m.deleteMany, `DELETE /${res.name}`, async (req, resp) => {
    const raw = single(req.query, 'where');
    if (raw === undefined)
      throw new BadRequest('where: required to delete several items (e.g. where={"type": 2})');
    const p = parseListParams(res, { where: raw }, api.limits);
    const deleted = await collection.deleteMany(p.where ?? {}, callContext(api, resp));
    resp.setHeader('X-Deleted-Count', String(deleted));
    resp.status(204).end();
  });

  add('put', '/', m.updateByBody, `PUT /${res.name}`, acceptBody(res), async (req, resp) => {
    const body = writeBody(res, req.body);
    const id = body._id;
    if (typeof id !== 'string' || id === '')
      throw new BadRequest('PUT: the body must name the item by "_id"');
    const { _id: _omit, ...fields } = body;
    const doc = await collection.patch(id, fields, callContext(api, resp), ifMatchOf(req));
    resp.setHeader('ETag', `"${doc._etag}"`);
    sendJson(req, resp, renderText(res, doc, { mode: 'write', registry: api.registry }));
  });

  add('get', '/:id', m.get, `GET /${res.name}/{id}`, async (req, resp) => {
    const p = parseItemParams(res, req.query);
    const doc = await collection.get(String(req.params.id), callContext(api, resp), {
      showDeleted: showDeleted(res, req),
      embedded: p.embedded,
      params: extraParams(req.query),
      ...(p.projection ? { projection: p.projection } : {}),
    });
    const lastModified = lastModifiedOf([doc], p.embedded);
    resp.setHeader('ETag', `"${doc._etag}"`);
    setLastModified(resp, lastModified);
    if (notModified(req, { etag: String(doc._etag), lastModified })) {
      resp.status(304).end();
      return;
    }
    const reuse = p.embedded.length === 0;
    sendJson(
      req,
      resp,
      renderText(res, doc, {
        mode: 'item',
        registry: api.registry,
        reuse,
        ...(p.projection ? { projection: p.projection } : {}),
      }),
    );
  });

  for (const [method, role, op] of [
    ['patch', m.patch, 'patch'],
    ['put', m.replace, 'replace'],
  ] as const) {
    add(
      method,
      '/:id',
      role,
      `${method.toUpperCase()} /${res.name}/{id}`,
      acceptBody(res),
      async (req, resp) => {
        const doc = await collection[op](
          String(req.params.id),
          writeBody(res, req.body),
          callContext(api, resp),
          ifMatchOf(req),
        );
        resp.setHeader('ETag', `"${doc._etag}"`);
        sendJson(req, resp, renderText(res, doc, { mode: 'write', registry: api.registry }));
      },
    );
  }

  add('delete', '/:id', m.delete, `DELETE /${res.name}/{id}`, async (req, resp) => {
    await collection.delete(String(req.params.id), callContext(api, resp), ifMatchOf(req));
    resp.status(204).end();
  });

  for (const path of ['/', '/:id'] as const) {
    router.all(path, () => {
      throw new MethodNotAllowed(allowed[path].includes('GET') ? [...allowed[path], 'HEAD'] : allowed[path]);
    });
  }
  return router;
}
