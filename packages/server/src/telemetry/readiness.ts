/**
 * `GET /api/health/ready`: whether this instance can serve, part by part, each with its state and
 * age. `/api/health` stays the cheap liveness check (the store answers); readiness also looks at
 * the peers and the background duties. `ok` when every part is; `degraded` when a peer or a duty
 * is down but the API serves (answered 200: a balancer keeps the instance); `unavailable` (503)
 * only when the store cannot be read or written. It needs no token, so it carries states and
 * ages only: no address, no error text (which may name one), no secret.
 */
import { systemContext, type Engine, type Runtime } from '@fleet/engine';
import { duties, vpn_managers } from '@fleet/resources';
import type { Prober } from './probe';

/** A part's state; `off` when it is not configured. */
type State = 'ok' | 'down' | 'failed' | 'stale' | 'never' | 'off' | 'elsewhere';

/** One part of the answer. */
export interface Part {
  readonly state: State;
  /** Seconds since the part's last sign (a probe, a run's end, an event), when there is one. */
  readonly age_s?: number;
  readonly [detail: string]: unknown;
}

/** The event stream as this instance sees it. */
export interface EventsView {
  /** Whether this instance is the deployment's reader. */
  reading(): boolean;
  connected(): boolean;
}

/** What readiness reads. */
export interface ReadinessSources {
  readonly engine: Engine;
  readonly storeKind: string;
  readonly prober: Prober;
  /** The salt-api's URL (SALT_API_URL); unset: the master parts are `off`. */
  readonly saltUrl?: string;
  readonly syncIntervalS: number;
  readonly events?: EventsView;
  /** When this instance last received a salt event (epoch ms). */
  readonly lastEventAt: () => number | undefined;
}

const ageOf = (ms: number | undefined): number | undefined =>
  ms === undefined ? undefined : Math.max(0, Math.round((Date.now() - ms) / 100) / 10);

const withAge = (state: State, at: number | undefined): Part => {
  const age = ageOf(at);
  return age === undefined ? { state } : { state, age_s: age };
};

/**
 * The store: a read and a write now; and, for a store with background work (MongoDB's index
 * builds and backfills), its state (`ready`, `working`, `degraded`) and how many tasks it has,
 * never their text (which names collections and fields).
 */
async function storePart(s: ReadinessSources): Promise<Part> {
  const h = await s.engine.health();
  const work = h.background;
  return {
    state: h.readable && h.writable ? 'ok' : 'down',
    kind: s.storeKind,
    readable: h.readable,
    writable: h.writable,
    ...(work ? { background: work.state, tasks: work.tasks } : {}),
    age_s: 0,
  };
}

/** Each duty's last run: `ok`, `failed`, `never` (held but not run yet), with its end's age. */
async function dutyParts(runtime: Runtime): Promise<Record<string, Part>> {
  const items = await runtime.resources.of(duties).find({ limit: 100 }, systemContext(runtime));
  const parts: Record<string, Part> = {};
  for (const d of items) {
    const finished = d.last_finished?.getTime();
    const running =
      d.last_started !== null && (finished === undefined || d.last_started.getTime() > finished);
    const state: State = finished === undefined ? 'never' : d.last_error === null ? 'ok' : 'failed';
    parts[d._id] = { ...withAge(state, finished), running, held_for_s: ageOf(d.since?.getTime()) ?? null };
  }
  return parts;
}

/** The sync's last run, `stale` when none ended for three intervals. */
function syncPart(s: ReadinessSources, dutiesParts: Record<string, Part>): Part {
  if (s.saltUrl === undefined) return { state: 'off' };
  const run = dutiesParts['fleet-sync'];
  if (run === undefined || run.state === 'never') return { state: 'never' };
  const stale = (run.age_s ?? 0) > 3 * s.syncIntervalS;
  return { state: stale && run.state === 'ok' ? 'stale' : run.state, age_s: run.age_s };
}

function eventsPart(s: ReadinessSources): Part {
  if (s.saltUrl === undefined || s.events === undefined) return { state: 'off' };
  if (!s.events.reading()) return { state: 'elsewhere' };
  const last = ageOf(s.lastEventAt());
  return {
    state: s.events.connected() ? 'ok' : 'down',
    last_event_age_s: last ?? null,
  };
}

async function masterPart(s: ReadinessSources): Promise<Part> {
  if (s.saltUrl === undefined) return { state: 'off' };
  const p = await s.prober.probe(s.saltUrl);
  return withAge(p.reachable ? 'ok' : 'down', p.at);
}

/** Every VPN manager by `_id` (never its address): reachable or not. */
async function vpnParts(s: ReadinessSources): Promise<Record<string, Part>> {
  const runtime = s.engine.runtime;
  const managers = await runtime.resources
    .of(vpn_managers)
    .find({ projection: { dashboard_address: 1 }, limit: 1000 }, systemContext(runtime));
  const parts = await Promise.all(
    managers.map(async (m) => {
      const p = await s.prober.probe(m.dashboard_address);
      return [m._id, withAge(p.reachable ? 'ok' : 'down', p.at)] as const;
    }),
  );
  return Object.fromEntries(parts);
}

/** The readiness answer; `status` is `ok`, `degraded` or `unavailable`. */
export async function readinessReport(s: ReadinessSources): Promise<Record<string, unknown>> {
  const store = await storePart(s);
  if (store.state !== 'ok') return { status: 'unavailable', parts: { store } };
  const [dutiesParts, master, vpn] = await Promise.all([
    dutyParts(s.engine.runtime),
    masterPart(s),
    vpnParts(s),
  ]);
  const parts = {
    store,
    master,
    sync: syncPart(s, dutiesParts),
    events: eventsPart(s),
    vpn_managers: vpn,
    duties: dutiesParts,
  };
  const bad = (p: Part): boolean => p.state === 'down' || p.state === 'failed' || p.state === 'stale';
  const degraded =
    store['background'] === 'degraded' ||
    [parts.master, parts.sync, parts.events].some(bad) ||
    Object.values(vpn).some(bad) ||
    Object.values(dutiesParts).some(bad);
  return { status: degraded ? 'degraded' : 'ok', checked: new Date().toISOString(), parts };
}
