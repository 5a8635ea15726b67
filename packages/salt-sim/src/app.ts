/**
 * The express application of the simulator: fault injection first, then CherryPy-like
 * headers and CORS (salt/netapi/rest_cherrypy/app.py), the raw body (1 MiB `max_request_body_size`),
 * the salt-api routes, 405/404 pages, and one error renderer.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { SimContext } from './context';
import { callFaultMiddleware, faultMiddleware, type Faults } from './controls';
import { CHERRYPY_VERSION, SimError, sendSimError, unexpectedError } from './http-errors';
import { saltApiRouter } from './routes';

const KNOWN_PATHS = /^\/(login|logout|token|run|events|stats|(minions|jobs|keys)(\/[^/]+)?|hook(\/.*)?)?$/;

function cherrypyHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Server', `CherryPy/${CHERRYPY_VERSION}`);
  res.setHeader('Allow', 'GET, HEAD, POST');
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
  // Sic: salt-api lists methods here, not header names.
  res.setHeader('Access-Control-Expose-Headers', 'GET, POST');
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Auth-Token, X-Requested-With');
    res.setHeader('Access-Control-Max-Age', '1400');
    res.status(200).end();
    return;
  }
  next();
}

/** The one error renderer; counts the 401s it sends. */
function errorHandler(ctx: SimContext) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    if (err instanceof SimError) {
      if (err.status === 401) ctx.stats.unauthorized += 1;
      return sendSimError(res, err);
    }
    const status = err !== null && typeof err === 'object' && 'status' in err ? Number(err.status) : 500;
    sendSimError(res, status === 413 ? new SimError(413) : unexpectedError());
  };
}

/** Assembles the simulator's express app. */
export function buildApp(ctx: SimContext, faults: Faults): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(faultMiddleware(ctx, faults));
  app.use(cherrypyHeaders);
  app.use(express.raw({ type: () => true, limit: 1_048_576 }));
  app.use(callFaultMiddleware(ctx, faults));
  app.use(saltApiRouter(ctx));
  app.use((req: Request, _res: Response, next: NextFunction) => {
    // MethodDispatcher: a known URL with a method it does not expose.
    if (KNOWN_PATHS.test(req.path)) next(new SimError(405));
    else next(new SimError(404, `The path '${req.path}' was not found.`));
  });
  app.use(errorHandler(ctx));
  return app;
}
