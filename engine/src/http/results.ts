/**
 * Rendering what a custom route or route group returns: items, lists and write results through the
 * one serializer of their resource (links, masked secrets, RFC 1123 dates), plain bodies as they
 * are (only for routes that declare their `response` schema), a bare status with no body.
 */
import type { Request, Response } from 'express';
import type { CompiledResource } from '../compile/compile';
import type { RouteResult, RouteSpec } from '../definition/routes';
import type { Doc, Projection } from '../store/port';
import { lastModifiedOf, setLastModified } from './conditional';
import type { ApiContext } from './context';
import { sendDownload } from './download';
import { collectionLinks } from './links';
import { renderItem, renderWrite } from './serialize';

/** A page of stored items, as the local API's `list` returns it. */
interface Page {
  readonly items: readonly Doc[];
  readonly total: number;
  readonly page: number;
  readonly maxResults: number;
}

/** Sends the collection envelope of a page; links repeat the query on `path` (relative to /api). */
export function sendList(api: ApiContext, req: Request, resp: Response, res: CompiledResource, list: Page, o: { path?: string; projection?: Projection } = {}): void {
  const opts = { mode: 'list' as const, registry: api.registry, ...(o.projection ? { projection: o.projection } : {}) };
  const items = list.items.map((d) => renderItem(res, d, opts));
  const path = o.path ?? res.name;
  const info = { page: list.page, maxResults: list.maxResults, total: list.total, defaultMaxResults: api.limits.defaultMaxResults };
  resp.setHeader('X-Total-Count', String(list.total));
  // Eve: the newest `_updated` of the page; no ETag, and never a 304 (conditional.ts).
  setLastModified(resp, lastModifiedOf(list.items));
  resp.json({ _items: items, _links: collectionLinks(path, res.name, req.query, info), _meta: { page: list.page, max_results: list.maxResults, total: list.total } });
}

/** Sends a route's result. `own` is the resource the route is mounted under, if any. */
export function sendResult(api: ApiContext, req: Request, resp: Response, route: RouteSpec, result: RouteResult, own?: CompiledResource): void {
  for (const [k, v] of Object.entries(result.headers ?? {})) resp.setHeader(k, v);
  const resourceOf = (name: string | undefined): CompiledResource => {
    if (name !== undefined) return api.registry.get(name);
    if (own === undefined) throw new Error(`${route.method.toUpperCase()} ${route.path}: a route group result must name its resource`);
    return own;
  };
  if ('item' in result) {
    const res = resourceOf(result.resource);
    resp.setHeader('ETag', `"${String(result.item._etag)}"`);
    setLastModified(resp, lastModifiedOf([result.item]));
    resp.status(result.status ?? 200).json(renderItem(res, result.item, { mode: 'item', registry: api.registry }));
    return;
  }
  if ('list' in result) {
    const path = `${req.baseUrl}${req.path}`.replace(/^\/api\//, '');
    sendList(api, req, resp, resourceOf(result.resource), result.list, { path });
    return;
  }
  if ('write' in result) {
    resp.setHeader('ETag', `"${String(result.write._etag)}"`);
    resp.status(result.status ?? 200).json(renderWrite(resourceOf(result.resource), result.write, api.registry));
    return;
  }
  if ('download' in result) {
    sendDownload(resp, result.download);
    return;
  }
  if ('body' in result) {
    // Only non-resource shapes are plain bodies, and each is declared (it feeds the OpenAPI document);
    // the registry refuses at start a route that declares none.
    resp.status(result.status ?? 200).json(result.body);
    return;
  }
  resp.status(result.status).end();
}
