/**
 * Per-token rate limits (issue 8), off unless configured: executions on the master
 * (`RATE_LIMIT_EXEC_PER_MIN`) and every other write (`RATE_LIMIT_WRITES_PER_MIN`), counted per
 * token name, so one script cannot flood the master or the store for everyone. Reads are never
 * limited here (their cost is bounded per request: docs/limits.md).
 *
 * A token bucket per name and kind: up to a minute's allowance at once, refilled evenly. Over the
 * limit a request is a 429 with `Retry-After`, the seconds until it would pass (RFC 6585 §4).
 * Counts live in this process: several instances each allow the limit.
 */
import type { RequestHandler } from 'express';
import { TooManyRequests, type Authenticator } from '@fleet/engine';

export interface RateLimitOptions {
  /** Writes (POST/PUT/PATCH/DELETE other than executions) per token per minute; 0 = unlimited. */
  readonly writesPerMin: number;
  /** Executions (`POST /api/hosts/{id}`, `/api/hosts/{id}/all_status`, `/api/groups/{id}`) per token per minute; 0 = unlimited. */
  readonly execPerMin: number;
  readonly authenticator: Authenticator;
  /** Milliseconds (tests pass a clock). */
  readonly now?: () => number;
}

type Kind = 'exec' | 'writes';

/** Routes that run a Salt function through the master (resources/hosts.ts, groups.ts). */
const EXEC_ROUTES: readonly RegExp[] = [
  /^\/api\/hosts\/[^/]+(?:\/all_status)?\/?$/,
  /^\/api\/groups\/[^/]+\/?$/,
];
const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** 429 with the seconds to wait. */
export class RateLimited extends TooManyRequests {}

interface Bucket {
  tokens: number;
  at: number;
}

/** What a request counts against, if anything. */
function kindOf(method: string, path: string): Kind | undefined {
  if (!WRITE_METHODS.has(method) || !path.startsWith('/api/')) return undefined;
  return method === 'POST' && EXEC_ROUTES.some((r) => r.test(path)) ? 'exec' : 'writes';
}

/** The middleware; a no-op when both limits are 0. Mount it on the app (it reads the whole path), before `/api`. */
export function rateLimits(options: RateLimitOptions): RequestHandler {
  const now = options.now ?? Date.now;
  const perMin: Record<Kind, number> = { exec: options.execPerMin, writes: options.writesPerMin };
  const variable: Record<Kind, string> = {
    exec: 'RATE_LIMIT_EXEC_PER_MIN',
    writes: 'RATE_LIMIT_WRITES_PER_MIN',
  };
  const buckets = new Map<string, Bucket>();
  if (perMin.exec === 0 && perMin.writes === 0) return (_req, _res, next) => next();
  return (req, _res, next) => {
    const kind = kindOf(req.method, req.path);
    const limit = kind === undefined ? 0 : perMin[kind];
    if (kind === undefined || limit === 0) return next();
    let name: string;
    try {
      name = options.authenticator.authenticate(req.get('authorization')).name;
    } catch {
      // Not authenticated: the API answers the 401 itself; nothing to count against.
      return next();
    }
    const key = `${kind}\u0000${name}`;
    const t = now();
    const rate = limit / 60_000;
    const bucket = buckets.get(key) ?? { tokens: limit, at: t };
    bucket.tokens = Math.min(limit, bucket.tokens + (t - bucket.at) * rate);
    bucket.at = t;
    buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return next();
    }
    const waitS = Math.max(1, Math.ceil((1 - bucket.tokens) / rate / 1000));
    const what = kind === 'exec' ? 'executions' : 'writes';
    next(
      new RateLimited(
        `Too many ${what} by token "${name}": the limit is ${limit} a minute (${variable[kind]}); retry in ${waitS} s`,
        waitS,
      ),
    );
  };
}
