/**
 * What runs beside the API in every instance, and stops before the store closes: the stored
 * tokens' refresh, the integrations (salt-api, VPN), the snapshot loop and the rate limits'
 * shared counts. The once-per-deployment duties among them run on the instance holding their
 * lease (docs/scaling.md); this process's holder name is made here.
 */
import { holderName, leaseTimes } from '@fleet/duties';
import type { Engine, ReloadableAuthenticator, Services } from '@fleet/engine';
import type { Logger } from 'pino';
import type { Config } from './config';
import { startIntegrations } from './integrations';
import { sharedBuckets, type Buckets } from './rate-counts';
import { startSnapshotLoop } from './snapshots';
import { startStoredTokens } from './stored-tokens';
import type { Metrics } from './telemetry/metrics';
import type { EventsView } from './telemetry/readiness';

/** Work that runs beside the API and stops before the store closes. */
export interface Background {
  readonly holder: string;
  /** The rate limits' counts, shared with the other instances (when a limit is set). */
  readonly rateBuckets?: Buckets;
  /** The event stream's reader, when a master is configured (readiness). */
  readonly events?: EventsView;
  stop(): Promise<void>;
}

/** What the background reports to: the metrics, and the last event's time (readiness). */
export interface Observers {
  readonly metrics: Metrics;
  readonly onEvent: (tag: string) => void;
}

/**
 * The stored tokens' refresh (first read before the server listens), the integrations (salt-api,
 * VPN) and the snapshot loop. Every process starts every duty; each runs on the instance holding
 * its lease (docs/scaling.md).
 */
export async function startBackground(
  s: { readonly config: Config; readonly log: Logger },
  engine: Engine,
  services: Services,
  authenticator: ReloadableAuthenticator,
  observers?: Observers,
): Promise<Background> {
  const log = s.log;
  const tokens = await startStoredTokens({
    runtime: engine.runtime,
    authenticator,
    intervalMs: s.config.TOKEN_REFRESH_S * 1000,
    log: log.child({ component: 'tokens' }),
  });
  const duty = { holder: holderName(), times: leaseTimes(Math.round(s.config.LEASE_TTL_S * 1000)) };
  const integrations = await startIntegrations({
    config: s.config,
    log,
    services,
    runtime: engine.runtime,
    duty,
    ...(observers ?? {}),
  }).catch(async (err: unknown) => {
    await tokens.stop();
    throw err;
  });
  const snapshotLog = log.child({ component: 'snapshots' });
  const snapshots = startSnapshotLoop({
    runtime: engine.runtime,
    log: snapshotLog,
    intervalMs: s.config.SNAPSHOT_INTERVAL_S * 1000,
    retentionDays: s.config.SNAPSHOT_RETENTION_DAYS,
    duty: { ...duty, runtime: engine.runtime, log: snapshotLog },
  });
  const rateBuckets = rateCounts(s, engine, duty.holder);
  return {
    holder: duty.holder,
    ...(rateBuckets ? { rateBuckets } : {}),
    ...(integrations.events ? { events: integrations.events } : {}),
    async stop() {
      await Promise.all([integrations.stop(), snapshots.stop(), tokens.stop(), rateBuckets?.stop()]);
    },
  };
}

/** The rate limits' counts shared through the store, when a limit is set. */
function rateCounts(
  s: { readonly config: Config; readonly log: Logger },
  engine: Engine,
  holder: string,
): ReturnType<typeof sharedBuckets> | undefined {
  const limited = s.config.RATE_LIMIT_WRITES_PER_MIN > 0 || s.config.RATE_LIMIT_EXEC_PER_MIN > 0;
  if (!limited) return undefined;
  return sharedBuckets({ runtime: engine.runtime, log: s.log.child({ component: 'ratelimit' }), holder });
}
