/**
 * Per-token rate limits, off unless configured: executions on the master
 * (`RATE_LIMIT_EXEC_PER_MIN`) and every other write (`RATE_LIMIT_WRITES_PER_MIN`), counted per
 * token name, so one script cannot flood the master or the store for everyone. Reads are never
 * limited here (their cost is bounded per request: docs/limits.md).
 *
 * The limits are the engine's admission policy: asked by the guard of the route the router
 * matched, after authentication and the role check, with that route's one identity. So what is
 * counted is what runs, whatever spelling of the path reached it; a path that matches no route
 * runs nothing and counts nothing.
 *
 * A token bucket per name and kind: up to a minute's allowance at once, refilled evenly. Over the
 * limit a request is a 429 with `Retry-After`, the seconds until it would pass (RFC 6585 §4).
 * Where the counts live is rate-counts.ts: shared by every instance on the store (the server's
 * default), or this process's alone.
 */
import { TooManyRequests, type Admission, type AdmittedRequest } from '@fleet/engine';
import { localBuckets, type Buckets } from './rate-counts';

export interface RateLimitOptions {
  /** Writes (POST/PUT/PATCH/DELETE other than executions) per token per minute; 0 = unlimited. */
  readonly writesPerMin: number;
  /** Executions (routes declared `execution`: running a Salt function on hosts) per token per minute; 0 = unlimited. */
  readonly execPerMin: number;
  /** Milliseconds (tests pass a clock). */
  readonly now?: () => number;
  /** Where the counts live (default: this process's memory). */
  readonly buckets?: Buckets;
  /** Told of every refusal (metrics). */
  readonly onRefused?: (kind: 'exec' | 'writes') => void;
}

type Kind = 'exec' | 'writes';

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** 429 with the seconds to wait. */
export class RateLimited extends TooManyRequests {}

/** What a request counts against, if anything. */
function kindOf(request: AdmittedRequest): Kind | undefined {
  if (!WRITE_METHODS.has(request.method)) return undefined;
  return request.execution ? 'exec' : 'writes';
}

const VARIABLE: Readonly<Record<Kind, string>> = {
  exec: 'RATE_LIMIT_EXEC_PER_MIN',
  writes: 'RATE_LIMIT_WRITES_PER_MIN',
};

/** The admission policy of the limits; undefined when both are 0 (nothing to count). */
export function rateLimits(options: RateLimitOptions): Admission | undefined {
  const now = options.now ?? Date.now;
  const perMin: Record<Kind, number> = { exec: options.execPerMin, writes: options.writesPerMin };
  const buckets = options.buckets ?? localBuckets();
  if (perMin.exec === 0 && perMin.writes === 0) return undefined;
  return (principal, request) => {
    const kind = kindOf(request);
    const limit = kind === undefined ? 0 : perMin[kind];
    if (kind === undefined || limit === 0) return;
    const waitS = buckets.take(`${kind}\u0000${principal.name}`, limit, now());
    if (waitS === 0) return;
    const what = kind === 'exec' ? 'executions' : 'writes';
    options.onRefused?.(kind);
    throw new RateLimited(
      `Too many ${what} by token "${principal.name}": the limit is ${limit} a minute (${VARIABLE[kind]}); retry in ${waitS} s`,
      waitS,
    );
  };
}
