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
import { renderText } from './render';
import { sendPage } from './render/page';
import { collectionLinks } from './links';

/** A page of stored items, as the local API's `list` returns it. */
interface Page {
  readonly items: readonly Doc[];
  readonly total: number;
  readonly page: number;
  readonly maxResults: number;
}

/** Whether the application asks Express for another JSON layout than `JSON.stringify`'s. */
function ownJsonLayout(req: Request): boolean {
  const app = req.app as { get?: (setting: string) => unknown } | undefined;
  return (
    app?.get !== undefined &&
    (app.get('json spaces') !== undefined ||
      app.get('json replacer') !== undefined ||
      app.get('json escape') === true)
  );
}

/**
 * Sends a JSON text as `res.json` would send the value it was made from (type, length, no body on
 * HEAD), with no ETag: a collection has none in Eve, and an item's is its stored `_etag`, set by
 * the handler; Express's own is a hash of the body per request. An application that asks Express
 * for another JSON layout (`json spaces`, `json replacer`, `json escape`) gets the value through
 * `res.json`.
 */
export function sendJson(req: Request, resp: Response, text: string, status = 200): void {
  if (ownJsonLayout(req)) {
    resp.status(status).json(JSON.parse(text));
    return;
  }
  resp.statusCode = status;
  resp.setHeader('Content-Type', 'application/json; charset=utf-8');
  resp.setHeader('Content-Length', Buffer.byteLength(text, 'utf8'));
  if (req.method === 'HEAD') resp.end();
  else resp.end(text, 'utf8');
}

/**
 * Sends the collection envelope of a page (links repeat the query on `path`, relative to /api),
 * its items rendered in slices and, for a large page, streamed (render/page.ts).
 */
export async function sendList(
  api: ApiContext,
  req: Request,
  resp: Response,
  res: CompiledResource,
  list: Page,
  o: { path?: string; projection?: Projection; embedded?: readonly string[] } = {},
): Promise<void> {
  // Only the resource's own list handler says what it embedded; a route's page may hold items it changed.
  const reuse = o.embedded !== undefined && o.embedded.length === 0;
  const opts = {
    mode: 'list' as const,
    registry: api.registry,
    reuse,
    ...(o.projection ? { projection: o.projection } : {}),
  };
  const path = o.path ?? res.name;
  const info = {
    page: list.page,
    maxResults: list.maxResults,
    total: list.total,
    defaultMaxResults: api.limits.defaultMaxResults,
  };
  resp.setHeader('X-Total-Count', String(list.total));
  // Eve: the newest `_updated` of the page; no ETag, and never a 304 (conditional.ts).
  setLastModified(resp, lastModifiedOf(list.items));
  const links = JSON.stringify(collectionLinks(path, res.name, req.query, info));
  const meta = JSON.stringify({ page: list.page, max_results: list.maxResults, total: list.total });
  await sendPage(
    resp,
    { res, docs: list.items, options: opts },
    { head: '{"_items":[', tail: `],"_links":${links},"_meta":${meta}}` },
    { stream: req.method === 'GET' && !ownJsonLayout(req), whole: (text) => sendJson(req, resp, text) },
  );
}

/** Sends a route's result. `own` is the resource the route is mounted under, if any. */
export async function sendResult(
  api: ApiContext,
  req: Request,
  resp: Response,
  route: RouteSpec,
  result: RouteResult,
  own?: CompiledResource,
): Promise<void> {
  for (const [k, v] of Object.entries(result.headers ?? {})) resp.setHeader(k, v);
  const resourceOf = (name: string | undefined): CompiledResource => {
    if (name !== undefined) return api.registry.get(name);
    if (own === undefined)
      throw new Error(
        `${route.method.toUpperCase()} ${route.path}: a route group result must name its resource`,
      );
    return own;
  };
  if ('item' in result) {
    const res = resourceOf(result.resource);
    resp.setHeader('ETag', `"${String(result.item._etag)}"`);
    setLastModified(resp, lastModifiedOf([result.item]));
    sendJson(
      req,
      resp,
      renderText(res, result.item, { mode: 'item', registry: api.registry }),
      result.status ?? 200,
    );
    return;
  }
  if ('list' in result) {
    const path = `${req.baseUrl}${req.path}`.replace(/^\/api\//, '');
    await sendList(api, req, resp, resourceOf(result.resource), result.list, { path });
    return;
  }
  if ('write' in result) {
    resp.setHeader('ETag', `"${String(result.write._etag)}"`);
    sendJson(
      req,
      resp,
      renderText(resourceOf(result.resource), result.write, { mode: 'write', registry: api.registry }),
      result.status ?? 200,
    );
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
