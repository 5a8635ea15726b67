/**
 * The `/api` router: the home document, every resource's router, the media endpoint. JSON body
 * parsing is limited; the error handler is mounted by the caller after its own routes.
 */
import express, { Router } from 'express';
import type { Engine } from '../engine';
import { NotFound } from '../errors';
import { openApiDocument } from '../openapi';
import { assertJsonBounds, BODY_BOUNDS } from '../query/bounds';
import type { MediaInfo } from '../store/port';
import type { Authenticator } from './auth';
import { requireRole } from '../ops/access';
import { handlersDecideFreshness } from './conditional';
import type { ApiContext, HttpLimits } from './context';
import { resourceRouter } from './router';
import { groupRouter } from './routes';

export interface ApiOptions {
  readonly authenticator: Authenticator;
  readonly limits: HttpLimits;
  /** Largest JSON body accepted (bytes). */
  readonly jsonLimitBytes?: number;
}

/**
 * Uploaded types a browser may show in place: raster images and PDF. Anything else (HTML, SVG,
 * XML, scripts) is a download: served inline from the API's origin it would run as the API's page
 * (issue 8: an operator's `text/html` upload was stored script).
 */
const INLINE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf']);

/** A media type as RFC 9110 §8.3.1 writes one (`type/subtype; params`), printable ASCII only. */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*;[\x20-\x7e]*)?$/;

/** RFC 8187 `ext-value` of a filename: attr-chars stay, everything else is %-encoded. */
function extValue(filename: string): string {
  return `UTF-8''${encodeURIComponent(filename).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** The headers of a media download: its type, inline only for the allow-list, and a sandbox. */
export function mediaHeaders(info: MediaInfo): Record<string, string> {
  const contentType = MEDIA_TYPE.test(info.contentType) ? info.contentType : 'application/octet-stream';
  const essence = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return {
    'Content-Type': contentType,
    'Content-Length': String(info.length),
    'Last-Modified': info.uploadedAt.toUTCString(),
    'Content-Disposition': `${INLINE_TYPES.has(essence) ? 'inline' : 'attachment'}; filename*=${extValue(info.filename)}`,
    // Even shown in place, the bytes run nothing and reach nothing (https://www.w3.org/TR/CSP3/#directive-sandbox).
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'X-Content-Type-Options': 'nosniff',
  };
}

/** Builds the `/api` router of an engine. */
export function apiRouter(engine: Engine, options: ApiOptions): Router {
  const api: ApiContext = { registry: engine.registry, runtime: engine.runtime, authenticator: options.authenticator, limits: options.limits };
  const router = Router();
  router.use(handlersDecideFreshness);
  router.use(express.json({ limit: options.jsonLimitBytes ?? 1024 * 1024, type: ['application/json', 'application/*+json'] }));
  // Bounded before anything walks the body recursively (validation, merge, etag, the store's JSON):
  // a body nested 10,000 deep overflowed the stack further on (issue 8). JSON.parse itself does not recurse.
  router.use((req, _res, next) => {
    if (req.body !== undefined) assertJsonBounds(req.body, 'body', BODY_BOUNDS);
    next();
  });

  const openapi = openApiDocument(engine.registry, { title: 'Fleet API', version: '1.0.0' });
  router.get('/docs/openapi.json', (_req, res) => {
    res.json(openapi);
  });

  router.get('/', (req, res) => {
    requireRole(options.authenticator.authenticate(req.get('authorization')), 'viewer', 'GET /');
    const child = [...engine.registry.resources.values()].map((r) => ({ title: r.name, href: r.name }));
    res.json({ _links: { child } });
  });

  router.get('/media/:id', async (req, res) => {
    requireRole(options.authenticator.authenticate(req.get('authorization')), 'viewer', 'GET /media/{id}');
    const found = await engine.runtime.media.open(String(req.params.id));
    if (!found) throw new NotFound(`Media "${String(req.params.id)}" was not found`);
    for (const [name, value] of Object.entries(mediaHeaders(found.info))) res.setHeader(name, value);
    await new Promise<void>((resolve, reject) => {
      found.stream.on('error', reject).pipe(res).on('finish', resolve).on('error', reject);
    });
  });

  for (const res of engine.registry.resources.values()) router.use(`/${res.name}`, resourceRouter(api, res));
  for (const group of engine.registry.groups.values()) router.use(`/${group.base}`, groupRouter(api, group));
  return router;
}
