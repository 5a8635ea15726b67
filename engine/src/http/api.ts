/**
 * The `/api` router: the home document, the OpenAPI document, every resource's router, the media
 * endpoint. JSON body parsing is limited; the error handler is mounted by the caller after its
 * own routes.
 *
 * Paths match as the API documents them, case included (`/api/hosts`, never `/API/HOSTS`), as
 * Eve's (werkzeug's) routing does: resource names and item ids are case-sensitive, and a route has
 * one spelling, so what a policy keyed on routes (rate limits) counts is what ran. Express matches
 * without case by default; every router of the API turns that off.
 */
import express, { Router, type Request, type RequestHandler } from 'express';
import type { Registry } from '../compile/registry';
import type { Engine } from '../engine';
import { NotFound, Unauthorized } from '../errors';
import { ReadAdmission, type AdmissionLimits } from '../fair/admission';
import { openApiDocument } from '../openapi';
import { assertBodyBounds, MAX_BODY_TEXT_BYTES } from '../query/bounds';
import { single } from '../query/params';
import type { MediaInfo } from '../store/port';
import type { Authenticator } from './auth';
import { requireRole } from '../ops/access';
import { handlersDecideFreshness } from './conditional';
import { refuseDeclaredOver } from './declared-length';
import type { Admission, ApiContext, HttpLimits } from './context';
import {
  EXPIRES_PARAM,
  mediaLinks,
  SIGNATURE_PARAM,
  type MediaLinkOptions,
  type MediaLinks,
} from './media-links';
import { resourceRouter } from './router';
import { groupRouter } from './routes';
import { renderMediaWith } from './render';

export interface ApiOptions {
  readonly authenticator: Authenticator;
  readonly limits: HttpLimits;
  /** Largest JSON body accepted (bytes). */
  readonly jsonLimitBytes?: number;
  /**
   * Media fields read back as signed links that open without a token (media-links.ts); without
   * this option they read back as `/api/media/<id>`, which needs the bearer header.
   */
  readonly mediaLinks?: MediaLinkOptions;
  /** Asked about every request a route's guard lets through (per-token rate limits). */
  readonly admit?: Admission;
  /** The release, the OpenAPI document's `info.version` (default 0.0.0). */
  readonly version?: string;
  /** The budgets of large reads per token and per process (fair/admission.ts; default DEFAULT_ADMISSION). */
  readonly readAdmission?: AdmissionLimits;
}

/**
 * Uploaded types a browser may show in place: raster images and PDF. Anything else (HTML, SVG,
 * XML, scripts) is a download: served inline from the API's origin it would run as the API's page
 * (an operator's `text/html` upload was stored script).
 */
const INLINE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
]);

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

/** How a media read was let in: a bearer token, or a signed link (with the caching its expiry allows). */
type MediaReader = { readonly by: 'bearer' } | { readonly by: 'link'; readonly cacheControl: string };

/**
 * Who may read a media file: a bearer token of any role, or, without an `Authorization` header, a
 * signed link's parameters. A bad or expired link is a 401 saying how to get a fresh one.
 */
function mediaReader(
  authenticator: Authenticator,
  links: MediaLinks | undefined,
): (req: Request, id: string) => MediaReader {
  return (req, id) => {
    const header = req.get('authorization');
    const expires = single(req.query, EXPIRES_PARAM);
    const signature = single(req.query, SIGNATURE_PARAM);
    if (header !== undefined || links === undefined || (expires === undefined && signature === undefined)) {
      requireRole(authenticator.authenticate(header), 'viewer', 'GET /media/{id}');
      return { by: 'bearer' };
    }
    const verdict = links.verify(id, expires, signature);
    if (verdict === 'expired')
      throw new Unauthorized('This media link has expired: read its item again for a fresh link');
    if (verdict === 'invalid' || expires === undefined)
      throw new Unauthorized('This media link is not valid: read its item again for a fresh link');
    return { by: 'link', cacheControl: links.cacheControl(expires) };
  };
}

/**
 * Item GETs of resources with media fields are never answered 304: the client's copy would keep
 * links that have expired since. Their validators are dropped, so the item is rendered afresh.
 */
function freshMediaLinks(registry: Registry, router: Router): void {
  const dropValidators: RequestHandler = (req, _res, next) => {
    delete req.headers['if-none-match'];
    delete req.headers['if-modified-since'];
    next();
  };
  for (const res of registry.resources.values())
    if (res.mediaFields.length > 0) router.get(`/${res.name}/:id`, dropValidators);
}

/** The OpenAPI document the router serves (and `fleet openapi` writes); `version` is the release's. */
export function apiDocument(registry: Registry, version = '0.0.0'): Record<string, unknown> {
  return openApiDocument(registry, { title: 'Fleet API', version });
}

/** Builds the `/api` router of an engine. */
export function apiRouter(engine: Engine, options: ApiOptions): Router {
  const api: ApiContext = {
    registry: engine.registry,
    runtime: engine.runtime,
    authenticator: options.authenticator,
    limits: options.limits,
    ...(options.admit ? { admit: options.admit } : {}),
    readAdmission: new ReadAdmission(options.readAdmission),
  };
  const router = Router({ caseSensitive: true });
  router.use(handlersDecideFreshness);
  const jsonLimit = options.jsonLimitBytes ?? MAX_BODY_TEXT_BYTES;
  // A body announced larger than any parser here takes is refused before it is read (uploads: multipart.ts).
  const textLimit = Math.max(jsonLimit, MAX_BODY_TEXT_BYTES);
  router.use((req, _res, next) => {
    if (!req.is('multipart/form-data')) refuseDeclaredOver(req, textLimit, `the ${textLimit} bytes allowed`);
    next();
  });
  router.use(express.json({ limit: jsonLimit, type: ['application/json', 'application/*+json'] }));
  // Bounded before anything walks the body recursively (validation, merge, etag, the store's JSON):
  // a body nested 10,000 deep overflowed the stack further on. JSON.parse itself does not recurse.
  router.use((req, _res, next) => {
    if (req.body !== undefined) assertBodyBounds(req.body);
    next();
  });

  const openapi = apiDocument(engine.registry, options.version);
  // `/openapi.json` is where generators look first; `/docs/openapi.json` stays as an alias.
  for (const path of ['/openapi.json', '/docs/openapi.json']) {
    router.get(path, (_req, res) => {
      res.json(openapi);
    });
  }

  const links = options.mediaLinks ? mediaLinks(options.mediaLinks) : undefined;
  if (links) {
    renderMediaWith(engine.registry, (id) => links.href(id));
    freshMediaLinks(engine.registry, router);
  }
  const mediaReaderOf = mediaReader(options.authenticator, links);

  router.get('/', (req, res) => {
    requireRole(options.authenticator.authenticate(req.get('authorization')), 'viewer', 'GET /');
    // Only what a client may call: internal resources (no HTTP methods) and those without a list stay out.
    const child = [...engine.registry.resources.values()]
      .filter((r) => r.def.methods.list !== undefined)
      .map((r) => ({ title: r.name, href: r.name }));
    res.json({ _links: { child } });
  });

  router.get('/media/:id', async (req, res) => {
    const id = String(req.params.id);
    const reader = mediaReaderOf(req, id);
    const found = await engine.runtime.media.open(id);
    if (!found) throw new NotFound(`Media "${id}" was not found`);
    for (const [name, value] of Object.entries(mediaHeaders(found.info))) res.setHeader(name, value);
    // A signed link is made to be opened from the client's page (`<img src>`), which is often on
    // another origin: CORP same-origin would block that load (https://fetch.spec.whatwg.org/#cross-origin-resource-policy-header).
    if (reader.by === 'link') {
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.setHeader('Cache-Control', reader.cacheControl);
    }
    await new Promise<void>((resolve, reject) => {
      found.stream.on('error', reject).pipe(res).on('finish', resolve).on('error', reject);
    });
  });

  for (const res of engine.registry.resources.values()) router.use(`/${res.name}`, resourceRouter(api, res));
  for (const group of engine.registry.groups.values()) router.use(`/${group.base}`, groupRouter(api, group));
  return router;
}
