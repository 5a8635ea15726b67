/**
 * The `/api` router: the home document, every resource's router, the media endpoint. JSON body
 * parsing is limited; the error handler is mounted by the caller after its own routes.
 */
import express, { Router } from 'express';
import type { Engine } from '../engine';
import { NotFound } from '../errors';
import { openApiDocument } from '../openapi';
import type { Authenticator } from './auth';
import { requireRole } from '../ops/access';
import type { ApiContext, HttpLimits } from './context';
import { resourceRouter } from './router';
import { groupRouter } from './routes';

export interface ApiOptions {
  readonly authenticator: Authenticator;
  readonly limits: HttpLimits;
  /** Largest JSON body accepted (bytes). */
  readonly jsonLimitBytes?: number;
}

/** Builds the `/api` router of an engine. */
export function apiRouter(engine: Engine, options: ApiOptions): Router {
  const api: ApiContext = { registry: engine.registry, runtime: engine.runtime, authenticator: options.authenticator, limits: options.limits };
  const router = Router();
  router.use(express.json({ limit: options.jsonLimitBytes ?? 1024 * 1024, type: ['application/json', 'application/*+json'] }));

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
    res.setHeader('Content-Type', found.info.contentType);
    res.setHeader('Content-Length', String(found.info.length));
    res.setHeader('Last-Modified', found.info.uploadedAt.toUTCString());
    res.setHeader('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(found.info.filename)}`);
    await new Promise<void>((resolve, reject) => {
      found.stream.on('error', reject).pipe(res).on('finish', resolve).on('error', reject);
    });
  });

  for (const res of engine.registry.resources.values()) router.use(`/${res.name}`, resourceRouter(api, res));
  for (const group of engine.registry.groups.values()) router.use(`/${group.base}`, groupRouter(api, group));
  return router;
}
