/**
 * The Express application: security headers, request ids and JSON request logs, CORS,
 * `/api/health`, the docs page, the engine's `/api` router (with per-token rate limits as its
 * admission policy), then the one error handler.
 */
import { hkdfSync, randomUUID } from 'node:crypto';
import express, { type Express, type RequestHandler } from 'express';
import { apiRouter, errorHandler, notFoundHandler, type Authenticator, type Engine } from '@fleet/engine';
import type { Logger } from 'pino';
import type { Config } from './config';
import { requestFraming } from './client-errors';
import { docsPage } from './docs-page';
import type { Buckets } from './rate-counts';
import { rateLimits } from './ratelimit';
import { securityHeaders } from './security-headers';
import { VERSION } from './version';
import type { Metrics } from './telemetry/metrics';
import { requestMetrics } from './telemetry/requests';

export interface AppOptions {
  readonly engine: Engine;
  readonly config: Config;
  readonly authenticator: Authenticator;
  readonly log: Logger;
  /** The health report; `status: "ok"` answers 200, anything else 503. */
  readonly health: () => Promise<Record<string, unknown>>;
  /** The readiness report (`/api/health/ready`); `status: "unavailable"` answers 503, else 200. */
  readonly ready?: () => Promise<Record<string, unknown>>;
  /** Where requests and rate-limit refusals are counted. */
  readonly metrics?: Metrics;
  /** The server's secret key (SECRET_KEY or the key file): media links are signed with a key derived from it. */
  readonly secretKey: string;
  /** Where the rate limits count (rate-counts.ts; default: this process alone). */
  readonly rateBuckets?: Buckets;
}

/**
 * The key that signs media links: derived from the secret key (HKDF, RFC 5869) under its own
 * label, so it is never the key that seals secret fields and a link says nothing about that one.
 */
export function mediaSigningKey(secretKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, 'fleet-api', 'media-links/v1', 32));
}

/** Seconds a balancer should wait before asking an unhealthy instance again. */
const HEALTH_RETRY_AFTER_S = 10;

/**
 * Logs one JSON line per request: id, method, path (no query: it may hold filters), status, time.
 * Below the `info` level a request costs its id and nothing else (no clock read, no listener, no
 * log object): the level is read per request, so a level changed at run time counts at once.
 */
function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = (typeof given === 'string' ? given.slice(0, 64) : '') || randomUUID();
    res.setHeader('X-Request-Id', id);
    if (!log.isLevelEnabled('info')) return next();
    const started = process.hrtime.bigint();
    // Read now: routers rewrite req.url (and so req.path) to the part below their mount point.
    const path = req.path;
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(
        { reqId: id, method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    });
    next();
  };
}

/** Response headers a cross-origin caller may read (the Fetch standard's safelist is only the basic ones). */
const EXPOSED_HEADERS =
  'ETag, Last-Modified, Location, X-Total-Count, X-Deleted-Count, X-Request-Id, Retry-After, Content-Disposition, WWW-Authenticate';
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** What CORS_ORIGINS, CORS_ALLOWED_HEADERS and CORS_MAX_AGE_S configure. */
export interface CorsOptions {
  readonly origins: readonly string[];
  /** Unset: the headers the preflight asks for. */
  readonly allowedHeaders?: readonly string[];
  readonly maxAgeS: number;
}

/**
 * CORS as the Fetch standard's CORS protocol (https://fetch.spec.whatwg.org/#http-cors-protocol):
 * a listed origin gets `Access-Control-Allow-Origin` and the exposed headers on every answer; its
 * preflights (OPTIONS) are answered here with the methods, the allowed headers and a
 * `Access-Control-Max-Age`, so a browser asks once per URL for that long instead of before every
 * call. No credentials mode: the API authenticates with a bearer header, never a cookie.
 */
export function cors(options: CorsOptions): RequestHandler {
  const any = options.origins.includes('*');
  return (req, res, next) => {
    const origin = req.get('origin');
    if (!origin || !(any || options.origins.includes(origin))) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.vary('Origin');
    if (req.method !== 'OPTIONS') {
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      return next();
    }
    res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    const asked = req.get('access-control-request-headers');
    if (options.allowedHeaders)
      res.setHeader('Access-Control-Allow-Headers', options.allowedHeaders.join(', '));
    else {
      // The answer depends on the question: caches must keep one per set of asked headers.
      res.vary('Access-Control-Request-Headers');
      if (asked) res.setHeader('Access-Control-Allow-Headers', asked);
    }
    res.setHeader('Access-Control-Max-Age', String(options.maxAgeS));
    res.status(204).end();
  };
}

/** Builds the application. */
export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // Paths match as documented, case included; the API's routers do the same (engine http/api.ts).
  app.set('case sensitive routing', true);
  app.set('etag', false);
  app.set('query parser', 'simple');
  const metrics = options.metrics;
  if (metrics) app.use(requestMetrics(metrics));
  app.use(securityHeaders());
  app.use(requestLog(options.log));
  app.use(requestFraming());
  const { CORS_ORIGINS, CORS_ALLOWED_HEADERS, CORS_MAX_AGE_S } = options.config;
  if (CORS_ORIGINS.length > 0)
    app.use(
      cors({
        origins: CORS_ORIGINS,
        maxAgeS: CORS_MAX_AGE_S,
        ...(CORS_ALLOWED_HEADERS ? { allowedHeaders: CORS_ALLOWED_HEADERS } : {}),
      }),
    );
  app.get('/api/health', async (_req, res) => {
    const status = await options.health();
    if (status.status !== 'ok') res.setHeader('Retry-After', String(HEALTH_RETRY_AFTER_S));
    res.status(status.status === 'ok' ? 200 : 503).json(status);
  });
  const ready = options.ready;
  if (ready)
    app.get('/api/health/ready', async (_req, res) => {
      const report = await ready();
      if (report.status === 'unavailable') res.setHeader('Retry-After', String(HEALTH_RETRY_AFTER_S));
      res
        .status(report.status === 'unavailable' ? 503 : 200)
        .setHeader('Cache-Control', 'no-store')
        .json(report);
    });
  // `_links.parent` of every page is `/`: the root sends a client to the home document, at the
  // path its relative hrefs resolve against.
  app.get('/', (_req, res) => {
    res.status(302).location('/api/').end();
  });
  app.use('/api/docs', docsPage());
  const admit = rateLimits({
    writesPerMin: options.config.RATE_LIMIT_WRITES_PER_MIN,
    execPerMin: options.config.RATE_LIMIT_EXEC_PER_MIN,
    ...(options.rateBuckets ? { buckets: options.rateBuckets } : {}),
    ...(metrics ? { onRefused: (kind: 'exec' | 'writes') => metrics.rateLimited(kind) } : {}),
  });
  app.use(
    '/api',
    apiRouter(options.engine, {
      authenticator: options.authenticator,
      limits: {
        defaultMaxResults: 25,
        paginationLimit: options.config.PAGINATION_LIMIT,
        maxUploadBytes: options.config.MAX_UPLOAD_BYTES,
      },
      mediaLinks: {
        key: mediaSigningKey(options.secretKey),
        ttlSeconds: options.config.MEDIA_LINK_TTL_S,
        ...(options.config.PUBLIC_URL === undefined ? {} : { publicUrl: options.config.PUBLIC_URL }),
      },
      ...(admit ? { admit } : {}),
      version: VERSION,
    }),
  );
  app.use(notFoundHandler);
  app.use(errorHandler(options.log, options.config.MAX_UPLOAD_BYTES));
  return app;
}
