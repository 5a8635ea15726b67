/**
 * How POST /api/graph answers `request_ips`. The spec's client reads the result from the answer,
 * so the request waits for the job, up to a bound (GRAPH_WAIT_S, default 25 s: under the usual
 * 30 s of a proxy), and answers its final state with 200. Past the bound, or when the client
 * asks not to wait (`Prefer: respond-async`, RFC 7240 §4.1), it answers 202 with the job and its
 * `Location` to poll. `Prefer: wait=N` (§4.3) shortens the bound. Waiting holds no thread: the
 * request is a pending promise beside the job's own.
 */
import type { CallContext, RouteResult, Settings } from '@fleet/engine';
import { readJob, startRequestIps, type JobBody } from './jobs';

/** The bound when the server sets none (GRAPH_WAIT_S). */
export const DEFAULT_WAIT_S = 25;

/** The bound of this request, in ms: the server's, shortened by `Prefer: wait`; 0 with respond-async. */
export function waitMs(
  ctx: { readonly runtime: { readonly config: Readonly<Settings> } },
  preferences: ReadonlyMap<string, string>,
): number {
  if (preferences.has('respond-async')) return 0;
  const set = ctx.runtime.config.graphWaitS;
  const bound = set !== undefined && Number.isFinite(set) && set >= 0 ? set : DEFAULT_WAIT_S;
  const asked = Number(preferences.get('wait'));
  const seconds =
    preferences.has('wait') && Number.isFinite(asked) && asked >= 0 ? Math.min(asked, bound) : bound;
  return seconds * 1000;
}

/** Whether `run` settles within `ms` (the timer is cleared as soon as it does). */
async function settlesWithin(run: Promise<void>, ms: number): Promise<boolean> {
  if (ms <= 0) return false;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      run.then(
        () => true as const,
        () => true as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts request_ips; answers its final state (200) or the running job to poll (202). */
export async function requestIps(
  ctx: CallContext,
  resolver: string | undefined,
  preferences: ReadonlyMap<string, string> = new Map(),
): Promise<RouteResult & { body: JobBody & { _status: 'OK' } }> {
  const started = await startRequestIps(ctx, resolver);
  if (await settlesWithin(started.run, waitMs(ctx, preferences))) {
    const job = await readJob(ctx, started.job._id);
    return { body: { _status: 'OK', ...job } };
  }
  const applied: Record<string, string> = preferences.has('respond-async')
    ? { 'Preference-Applied': 'respond-async' }
    : {};
  return {
    status: 202,
    headers: { Location: `/api/${started.job._links.self.href}`, ...applied },
    body: { _status: 'OK', ...started.job },
  };
}

declare module '@fleet/engine' {
  interface Settings {
    /** GRAPH_WAIT_S: how long request_ips waits for its job before answering 202 (default 25 s). */
    readonly graphWaitS?: number;
  }
}
