/**
 * Request metrics: each answer counted and timed by route template (`/api/hosts/:id`, never the
 * path itself, which would grow a label value per item), method and status. A request no route
 * took (a 404 of an unknown path, a refusal before the route) is `unmatched`.
 */
import type { Request, RequestHandler } from 'express';
import type { Metrics } from './metrics';

const segments = (path: string): string[] => path.split('/').filter(Boolean);

/**
 * The template of the route that answered: its own path (`/:id`, as `req.route` keeps it) under
 * the fixed mount points of the routers it lies in (`/api/hosts`), read off the request's path,
 * since the routers have restored `req.baseUrl` by the time the answer is finished.
 */
export function routeTemplate(req: Request): string {
  const route: unknown = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof route !== 'string') return 'unmatched';
  const own = segments(route);
  const path = segments(req.originalUrl.split('?')[0] ?? '');
  const mount = path.slice(0, Math.max(0, path.length - own.length));
  return `/${[...mount, ...own].join('/')}`;
}

/** The middleware; mount it first, so it sees every answer. */
export function requestMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      metrics.request(routeTemplate(req), req.method, res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };
}
