/**
 * Compiled resource -> Express router. Handlers are thin: parse, call one operation, render.
 * Custom routes are mounted first so `/hosts/statistics/online` is never read as an item id.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { CompiledResource } from '../compile/compile';
import type { CallContext, CustomRoute, Principal, ReadScope } from '../definition/define';
import type { Role } from '../definition/fields';
import { BadRequest, MethodNotAllowed, Unprocessable, UnsupportedMediaType } from '../errors';
import { stampNow } from '../ops/clock';
import { etagMatches } from '../ops/etag';
import type { FullResourceOps } from '../ops/resource-ops';
import { parseItemParams, parseListParams, single } from '../query/params';
import type { Doc, Projection } from '../store/port';
import { requireRole } from './auth';
import type { ApiContext } from './context';
import { resolveEmbedded } from './embed';
import { collectionLinks } from './links';
import { multipartBody, multipartParser } from './multipart';
import { renderItem, renderWrite } from './serialize';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

function callContext(api: ApiContext, res: Response): CallContext {
  return { principal: res.locals.principal as Principal, now: stampNow(), runtime: api.runtime };
}

/** Authenticates and checks the role; stores the principal for the handler. */
function guard(api: ApiContext, role: Role, action: string): RequestHandler {
  return (req, res, next) => {
    const principal = api.authenticator.authenticate(req.get('authorization'));
    requireRole(principal, role, action);
    res.locals.principal = principal;
    next();
  };
}

function flag(value: unknown): boolean {
  return typeof value === 'string' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Everything `query` carries besides the common parameters, as single strings (for hooks). */
function extraParams(query: Request['query']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** The store projection: the client's (meta fields always kept), plus list-hidden fields left out unless asked for. */
function storeProjection(res: CompiledResource, projection: Projection | undefined, mode: 'list' | 'item'): Projection | undefined {
  if (projection && Object.values(projection).includes(1)) return { ...projection, _created: 1, _updated: 1, _etag: 1 };
  const hidden = mode === 'list' ? Object.fromEntries(res.hiddenInList.map((f) => [f, 0 as const])) : {};
  const merged = { ...hidden, ...projection };
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/** Builds the router of one resource. */
export function resourceRouter(api: ApiContext, res: CompiledResource): Router {
  const router = Router();
  const ops = api.runtime.resources.get(res.name) as FullResourceOps;
  const m = res.def.methods;
  const titles = (name: string) => api.registry.get(name).itemTitle;
  const scopeOf = (req: Request): ReadScope => ({ showDeleted: res.softDelete ? flag(req.query[res.softDelete.param]) : false });
  const allowed: Record<'/' | '/:id', string[]> = { '/': [], '/:id': [] };
  const add = (method: Method, path: '/' | '/:id', role: Role | undefined, action: string, ...handlers: RequestHandler[]) => {
    if (!role) return;
    allowed[path].push(method.toUpperCase());
    router[method](path, guard(api, role, action), ...handlers);
  };

  for (const route of res.def.routes ?? []) mountCustom(api, router, res, route);

  const render = async (req: Request, docs: Doc[], mode: 'list' | 'item', embedded: readonly string[], projection?: Projection) => {
    const ctx = callContext(api, req.res as Response);
    if (res.def.hooks?.afterRead) await res.def.hooks.afterRead({ docs, params: extraParams(req.query), ctx });
    const embeddedDocs = embedded.length > 0 ? await resolveEmbedded({ res, docs, fields: embedded, registry: api.registry, runtime: api.runtime }) : undefined;
    const opts = { mode, titles, ...(projection ? { projection } : {}), ...(embeddedDocs ? { embedded: embeddedDocs } : {}) };
    return docs.map((d) => renderItem(res, d, opts));
  };

  add('get', '/', m.list, `GET /${res.name}`, async (req, resp) => {
    const p = parseListParams(res, req.query, api.limits);
    const projection = storeProjection(res, p.projection, 'list');
    const sort = p.sort ?? res.def.defaultSort ?? [];
    const query = { filter: p.where ?? {}, sort, page: p.page, maxResults: p.maxResults, ...(projection ? { projection } : {}) };
    const { items, total } = await ops.list(query, scopeOf(req));
    const rendered = await render(req, items, 'list', p.embedded, p.projection);
    const info = { page: p.page, maxResults: p.maxResults, total, defaultMaxResults: api.limits.defaultMaxResults };
    resp.setHeader('X-Total-Count', String(total));
    resp.json({ _items: rendered, _links: collectionLinks(res.name, res.name, req.query, info), _meta: { page: p.page, max_results: p.maxResults, total } });
  });

  add('post', '/', m.create, `POST /${res.name}`, ...createHandlers(api, res, ops));

  add('delete', '/', m.deleteMany, `DELETE /${res.name}`, async (req, resp) => {
    const raw = single(req.query, 'where');
    if (raw === undefined) throw new BadRequest('where: required to delete several items (e.g. where={"type": 2})');
    const p = parseListParams(res, { where: raw }, api.limits);
    const deleted = await ops.removeMany(p.where ?? {}, callContext(api, resp));
    resp.setHeader('X-Deleted-Count', String(deleted));
    resp.status(204).end();
  });

  add('put', '/', m.updateByBody, `PUT /${res.name}`, requireJson, async (req, resp) => {
    const body = writeBody(res, req.body);
    const id = body._id;
    if (typeof id !== 'string' || id === '') throw new BadRequest('PUT: the body must name the item by "_id"');
    const { _id: _omit, ...fields } = body;
    const doc = await ops.patch(id, fields, callContext(api, resp), req.get('if-match'));
    resp.setHeader('ETag', `"${String(doc._etag)}"`);
    resp.json(renderWrite(res, doc, titles));
  });

  add('get', '/:id', m.get, `GET /${res.name}/{id}`, async (req, resp) => {
    const p = parseItemParams(res, req.query);
    const doc = await ops.get(String(req.params.id), scopeOf(req));
    const etag = `"${String(doc._etag)}"`;
    resp.setHeader('ETag', etag);
    const inm = req.get('if-none-match');
    // Quoted or not, weak or strong, as If-Match accepts them (RFC 9110 §13.1.2 compares weakly).
    if (inm && etagMatches(inm, String(doc._etag))) {
      resp.status(304).end();
      return;
    }
    const [item] = await render(req, [doc], 'item', p.embedded, p.projection);
    // afterRead may have changed the item (an alert marked as read): the header follows the body.
    resp.setHeader('ETag', `"${String(doc._etag)}"`);
    resp.json(item);
  });

  for (const [method, role, op] of [
    ['patch', m.patch, 'patch'],
    ['put', m.replace, 'replace'],
  ] as const) {
    add(method, '/:id', role, `${method.toUpperCase()} /${res.name}/{id}`, requireJson, async (req, resp) => {
      const doc = await ops[op](String(req.params.id), writeBody(res, req.body), callContext(api, resp), req.get('if-match'));
      resp.setHeader('ETag', `"${String(doc._etag)}"`);
      resp.json(renderWrite(res, doc, titles));
    });
  }

  add('delete', '/:id', m.delete, `DELETE /${res.name}/{id}`, async (req, resp) => {
    await ops.remove(String(req.params.id), callContext(api, resp), req.get('if-match'));
    resp.status(204).end();
  });

  for (const path of ['/', '/:id'] as const) {
    router.all(path, () => {
      throw new MethodNotAllowed(allowed[path].includes('GET') ? [...allowed[path], 'HEAD'] : allowed[path]);
    });
  }
  return router;
}

const requireJson: RequestHandler = (req, _res, next) => {
  if (!req.is('application/json')) throw new UnsupportedMediaType('Send the body as application/json');
  next();
};

function jsonObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequest('The body must be a JSON object');
  return body as Record<string, unknown>;
}

/** A write body; media fields come only as uploads (an id given as text could point at another item's bytes). */
function writeBody(res: CompiledResource, body: unknown): Record<string, unknown> {
  const fields = jsonObject(body);
  const given = res.mediaFields.filter((name) => name in fields);
  if (given.length > 0) {
    throw new Unprocessable(`${res.name}: upload ${given.join(', ')} as a file part of multipart/form-data`, Object.fromEntries(given.map((n) => [n, 'must be uploaded as a file'])));
  }
  return fields;
}

/** POST: one JSON object, a JSON array (all or nothing), or multipart for resources with media. */
function createHandlers(api: ApiContext, res: CompiledResource, ops: FullResourceOps): RequestHandler[] {
  const titles = (name: string) => api.registry.get(name).itemTitle;
  const upload = res.mediaFields.length > 0 ? multipartParser(res, api.limits.maxUploadBytes) : undefined;
  const parse: RequestHandler = (req, resp, next) => {
    if (req.is('multipart/form-data') && upload) return upload(req, resp, next);
    if (!req.is('application/json')) {
      throw new UnsupportedMediaType(upload ? 'Send application/json or multipart/form-data' : 'Send the body as application/json');
    }
    next();
  };
  const create: RequestHandler = async (req, resp) => {
    const ctx = callContext(api, resp);
    let stored: string[] = [];
    let bodies: Record<string, unknown>[];
    if (req.is('multipart/form-data')) {
      const files = req.files as Record<string, Express.Multer.File[]> | undefined;
      const parsed = await multipartBody(res, writeBody(res, req.body ?? {}), files, api.runtime.store.media);
      stored = parsed.stored;
      bodies = [parsed.body];
    } else if (Array.isArray(req.body)) {
      if (req.body.length === 0) throw new BadRequest('Empty bulk insert');
      bodies = req.body.map((b: unknown) => writeBody(res, b));
    } else bodies = [writeBody(res, req.body)];
    try {
      const docs = await ops.createMany(bodies, ctx);
      const first = docs[0];
      if (first) resp.setHeader('Location', `/api/${res.name}/${first._id}`);
      resp.status(201).json(Array.isArray(req.body) ? { _status: 'OK', _items: docs.map((d) => renderWrite(res, d, titles)) } : renderWrite(res, first as Doc, titles));
    } catch (err) {
      await Promise.all(stored.map((id) => api.runtime.store.media.delete(id)));
      throw err;
    }
  };
  return [parse, create];
}

/** Mounts a custom route: auth, then the definition's handler with a framework-free request. */
function mountCustom(api: ApiContext, router: Router, res: CompiledResource, route: CustomRoute): void {
  router[route.method](route.path, guard(api, route.role, `${route.method.toUpperCase()} /${res.name}${route.path}`), async (req, resp) => {
    const params = Object.fromEntries(Object.entries(req.params).map(([k, v]) => [k, String(v)]));
    const result = await route.handler({ params, query: req.query as Record<string, string | string[] | undefined>, body: req.body as unknown, ctx: callContext(api, resp) });
    for (const [k, v] of Object.entries(result.headers ?? {})) resp.setHeader(k, v);
    resp.status(result.status ?? 200);
    if (result.body === undefined) resp.end();
    else resp.json(result.body);
  });
}
