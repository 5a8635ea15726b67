/**
 * The engine: compiles the definitions and route groups, builds every resource's local API over
 * the store, and declares the collections. The store stays inside: everything else — the HTTP
 * layer, hooks, custom routes, integrations — reads and writes through the local API of the
 * runtime, and reaches media and leases through their own narrow services.
 */
import { randomUUID } from 'node:crypto';
import type { Registry } from './compile/registry';
import { createRegistry } from './compile/registry';
import type { AnyResourceDefinition, SecretBox } from './definition/define';
import type { CallContext, Principal, Runtime, Services, Settings } from './definition/local-api';
import type { Log } from './log';
import type { RouteGroup } from './definition/routes';
import { HttpError } from './errors';
import { stampNow } from './ops/clock';
import { createLocalApi } from './ops/collection';
import { resealStore, storeHoldsSealed } from './secrets';
import type { Store } from './store/port';
import { checkSchema, migrateStore, type SchemaOptions } from './migrations/run';

/** The lease the write probe of `health()` takes: one tiny versioned row, in every store. */
const PROBE_LEASE = 'fleet-health-probe';
/** How long a successful write probe answers for the checks after it (a failed one is tried again each time). */
const WRITE_PROBE_MS = 1000;

/** Why the store failed, in our words: a typed error's message, never a driver's text. */
function problemOf(err: unknown): string {
  return err instanceof HttpError ? err.message : 'the store did not answer';
}

/** The principal of work the service does by itself (boot, sync, scheduler, snapshots). */
export const SYSTEM: Principal = Object.freeze({ name: 'system', role: 'admin', system: true });

/** A call of the service's own work, at `now` (default: this second). */
export function systemContext(runtime: Runtime, now: Date = stampNow()): CallContext {
  return { principal: SYSTEM, now, runtime };
}

export interface Engine {
  readonly registry: Registry;
  readonly runtime: Runtime;
  /** Creates every collection and its indexes in the store, and the initial items. */
  ensureCollections(): Promise<void>;
  /** Whether the store answers a read (for `/api/health`). */
  ping(): Promise<boolean>;
  /** Whether the store answers a read and takes a write (`/api/health`); a failure says why, in our words. */
  health(): Promise<StoreHealth>;
  /**
   * Whether any stored item holds a sealed secret (`enc:v1:...`): the boot refuses to make up a
   * new key then, since every stored secret would become unreadable (secrets/rotation.ts).
   */
  hasSealedSecrets(): Promise<boolean>;
  /**
   * Seals every stored secret again with this engine's box, opening each with `previous` (key
   * rotation, with the service stopped: `fleet-api rotate-key`; secrets/rotation.ts). A value
   * already sealed with this box (a rotation cut short, run again) is kept. Resolves how many
   * items were rewritten.
   */
  resealSecrets(previous: SecretBox): Promise<number>;
}

/** What `/api/health` reports of the store. */
export interface StoreHealth {
  readonly readable: boolean;
  readonly writable: boolean;
  /** Why not, when it is not: our sentence (a store fault's message), never a driver's text. */
  readonly problem?: string;
  /**
   * The store's background work (MongoDB's index builds and backfills), when it has any: its state
   * and how many tasks it holds, never their text (which names collections and fields).
   */
  readonly background?: { readonly state: string; readonly tasks: number };
}

export interface EngineOptions {
  readonly definitions: readonly AnyResourceDefinition[];
  readonly routeGroups?: readonly RouteGroup[];
  readonly store: Store;
  readonly secrets: SecretBox;
  readonly log: Log;
  readonly services?: Services;
  readonly config?: Settings;
  /** The release and its migrations: the store's schema is checked and brought up to date (migrations/). */
  readonly schema?: SchemaOptions;
}

/** Builds the engine; nothing touches the store until `ensureCollections`. */
export function createEngine(options: EngineOptions): Engine {
  const { store } = options;
  const probeHolder = `health-${randomUUID()}`;
  const registry = createRegistry(options.definitions, options.routeGroups);
  const runtime: Runtime = {
    resources: createLocalApi({ registry, store, secrets: options.secrets }),
    media: store.media,
    leases: store.leases,
    log: options.log,
    services: options.services ?? {},
    config: options.config ?? {},
  };
  // One item's id by the primary key: a real read of the store that costs the same at any size
  // (a count of 1,000,000 actions took ~50 ms, and the probe's own write made every count anew).
  const probed = registry.resources.keys().next().value ?? 'settings';
  const readProbe = () => store.find(probed, {}, { limit: 1, projection: { _id: 1 } });
  // A lease that expires at once: any instance takes it again, and it is a real write. A success
  // holds for WRITE_PROBE_MS: each write makes the embedded store count every list anew.
  let wroteAt = Number.NEGATIVE_INFINITY;
  const writeProbe = async () => {
    if (performance.now() - wroteAt < WRITE_PROBE_MS) return;
    await store.leases.acquire(PROBE_LEASE, probeHolder, 1);
    wroteAt = performance.now();
  };
  return {
    registry,
    runtime,
    async ensureCollections() {
      const names = [...registry.resources.keys()];
      if (options.schema) await checkSchema(store, names, options.schema);
      for (const res of registry.resources.values()) {
        await store.ensureCollection(res.collection);
        // Items written without the soft-delete flag (by hand, by an older version) get `false`,
        // so the `{flag: false}` scope of every read still shows them. `null` matches missing.
        // A store that can does it in the background (a large collection must not fail the start).
        const flag = res.softDelete?.field;
        if (flag) {
          const [unflagged, set] = [{ [flag]: null }, { $set: { [flag]: false } }];
          if (store.backfill) await store.backfill(res.name, unflagged, set);
          else await store.update(res.name, unflagged, set, { multi: true });
        }
      }
      if (options.schema) {
        const { schema, log } = options;
        await migrateStore({
          store,
          log,
          schema,
          resourceNames: names,
          systemCall: () => systemContext(runtime),
        });
      }
      const ctx = systemContext(runtime);
      for (const res of registry.resources.values()) {
        const items = res.def.initialItems?.(runtime.config) ?? [];
        const ids = items.map((item) => item._id);
        if (ids.some((id) => typeof id !== 'string'))
          throw new Error(`${res.name}: initial items need a string _id`);
        const present = new Set(
          (await store.find(res.name, { _id: { $in: ids } }, { projection: { _id: 1 } })).map((d) => d._id),
        );
        const missing = items.filter((item) => !present.has(String(item._id)));
        if (missing.length === 0) continue;
        await runtime.resources
          .get(res.name)
          .createMany(missing, ctx)
          .catch(async (err: unknown) => {
            // Another instance starting on the same store created them first: nothing to do.
            if ((await store.count(res.name, { _id: { $in: ids } })) < ids.length) throw err;
          });
      }
    },
    async ping() {
      try {
        await readProbe();
        return true;
      } catch {
        return false;
      }
    },
    health: coalesced(async () => {
      try {
        await readProbe();
      } catch (err) {
        return { readable: false, writable: false, problem: problemOf(err) };
      }
      const work = store.status?.();
      const background = work ? { background: { state: work.state, tasks: work.tasks.length } } : {};
      try {
        await writeProbe();
        return { readable: true, writable: true, ...background };
      } catch (err) {
        return { readable: true, writable: false, problem: problemOf(err), ...background };
      }
    }),
    hasSealedSecrets: () => storeHoldsSealed(store, registry),
    resealSecrets: (previous) => resealStore(store, registry, options.secrets, previous),
  };
}

/** One run at a time: callers arriving while it runs share its answer (health checks come in bursts). */
function coalesced<T>(run: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };
}
