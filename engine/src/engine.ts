/**
 * The engine: compiles the definitions and route groups, builds every resource's local API over
 * the store, and declares the collections. The store stays inside: everything else — the HTTP
 * layer, hooks, custom routes, integrations — reads and writes through the local API of the
 * runtime, and reaches media and leases through their own narrow services.
 */
import type { Registry } from './compile/registry';
import { createRegistry } from './compile/registry';
import type { CallContext, Log, Principal, AnyResourceDefinition, Runtime, SecretBox } from './definition/define';
import type { RouteGroup } from './definition/routes';
import { stampNow } from './ops/clock';
import { createLocalApi } from './ops/collection';
import type { Store } from './store/port';

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
}

export interface EngineOptions {
  readonly definitions: readonly AnyResourceDefinition[];
  readonly routeGroups?: readonly RouteGroup[];
  readonly store: Store;
  readonly secrets: SecretBox;
  readonly log: Log;
  readonly services?: ReadonlyMap<string, unknown>;
  readonly config?: Readonly<Record<string, unknown>>;
}

/** Builds the engine; nothing touches the store until `ensureCollections`. */
export function createEngine(options: EngineOptions): Engine {
  const { store } = options;
  const registry = createRegistry(options.definitions, options.routeGroups);
  const runtime: Runtime = {
    resources: createLocalApi({ registry, store, secrets: options.secrets }),
    media: store.media,
    leases: store.leases,
    log: options.log,
    services: options.services ?? new Map(),
    config: options.config ?? {},
  };
  return {
    registry,
    runtime,
    async ensureCollections() {
      for (const res of registry.resources.values()) {
        await store.ensureCollection(res.collection);
        // Items written without the soft-delete flag (by hand, by an older version) get `false`,
        // so the `{flag: false}` scope of every read still shows them. `null` matches missing.
        const flag = res.softDelete?.field;
        if (flag) await store.update(res.name, { [flag]: null }, { $set: { [flag]: false } }, { multi: true });
      }
      const ctx = systemContext(runtime);
      for (const res of registry.resources.values()) {
        const items = res.def.initialItems?.(runtime.config) ?? [];
        const ids = items.map((item) => item._id);
        if (ids.some((id) => typeof id !== 'string')) throw new Error(`${res.name}: initial items need a string _id`);
        const present = new Set((await store.find(res.name, { _id: { $in: ids } }, { projection: { _id: 1 } })).map((d) => d._id));
        const missing = items.filter((item) => !present.has(String(item._id)));
        if (missing.length > 0) await runtime.resources.get(res.name).createMany(missing, ctx);
      }
    },
    async ping() {
      try {
        await store.count(registry.resources.keys().next().value ?? 'settings', {});
        return true;
      } catch {
        return false;
      }
    },
  };
}
