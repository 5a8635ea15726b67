/**
 * The Express application: security headers, request ids and JSON request logs, CORS,
 * `/api/health`, per-token rate limits, the engine's `/api` router, then the one error handler.
 */
import { randomUUID } from 'node:crypto';
import express, { type Express, type RequestHandler } from 'express';
import { apiRouter, errorHandler, notFoundHandler, type Authenticator, type Engine } from '@fleet/engine';
import type { Logger } from 'pino';
import type { Config } from './config';
import { rateLimits } from './ratelimit';
import { securityHeaders } from './security-headers';

export interface AppOptions {
  readonly engine: Engine;
  readonly config: Config;
  readonly authenticator: Authenticator;
  readonly log: Logger;
  /** The health report; `status: "ok"` answers 200, anything else 503. */
  readonly health: () => Promise<Record<string, unknown>>;
}

/** Seconds a balancer should wait before asking an unhealthy instance again. */
const HEALTH_RETRY_AFTER_S = 10;

/** Logs one JSON line per request: id, method, path (no query: it may hold filters), status, time. */
function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const id = (req.get('x-request-id') ?? '').slice(0, 64) || randomUUID();
    const started = process.hrtime.bigint();
    // Read now: routers rewrite req.url (and so req.path) to the part below their mount point.
    const path = req.path;
    res.setHeader('X-Request-Id', id);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ reqId: id, method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}

function cors(origins: readonly string[]): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin');
    if (origin && (origins.includes('*') || origins.includes(origin))) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, If-Match, If-None-Match, X-Request-Id');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
      res.setHeader('Access-Control-Expose-Headers', 'ETag, X-Total-Count, X-Request-Id, Location');
      if (req.method === 'OPTIONS') {
        res.status(204).end();
        return;
      }
    }
    next();
  };
}

/** Builds the application. */
export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(securityHeaders());
  app.use(requestLog(options.log));
  if (options.config.CORS_ORIGINS.length > 0) app.use(cors(options.config.CORS_ORIGINS));
  app.get('/api/health', async (_req, res) => {
    const status = await options.health();
    if (status.status !== 'ok') res.setHeader('Retry-After', String(HEALTH_RETRY_AFTER_S));
    res.status(status.status === 'ok' ? 200 : 503).json(status);
  });
  app.use(
    rateLimits({
      writesPerMin: options.config.RATE_LIMIT_WRITES_PER_MIN,
      execPerMin: options.config.RATE_LIMIT_EXEC_PER_MIN,
      authenticator: options.authenticator,
    }),
  );
  app.use(
    '/api',
    apiRouter(options.engine, {
      authenticator: options.authenticator,
      limits: { defaultMaxResults: 25, paginationLimit: options.config.PAGINATION_LIMIT, maxUploadBytes: options.config.MAX_UPLOAD_BYTES },
    }),
  );
  app.use(notFoundHandler);
  app.use(errorHandler(options.log, options.config.MAX_UPLOAD_BYTES));
  return app;
}
