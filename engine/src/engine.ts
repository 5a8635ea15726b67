/**
 * The engine: compiles the definitions, builds each resource's operations over the store, and
 * declares the collections. One object the server wires and every integration receives.
 */
import type { Registry } from './compile/registry';
import { createRegistry } from './compile/registry';
import type { Log, Principal, ResourceDefinition, Runtime, SecretBox } from './definition/define';
import { stampNow } from './ops/clock';
import { createResourceOps, type FullResourceOps } from './ops/resource-ops';
import type { Store } from './store/port';

/** The principal of work the server does by itself (boot, sync, scheduler). */
export const SYSTEM: Principal = { name: 'system', role: 'admin' };

export interface Engine {
  readonly registry: Registry;
  readonly runtime: Runtime;
  /** The operations of a resource (throws for an unknown name). */
  ops(name: string): FullResourceOps;
  /** Creates every collection and its indexes in the store. */
  ensureCollections(): Promise<void>;
}

export interface EngineOptions {
  readonly definitions: readonly ResourceDefinition[];
  readonly store: Store;
  readonly secrets: SecretBox;
  readonly log: Log;
  readonly services?: ReadonlyMap<string, unknown>;
  readonly config?: Readonly<Record<string, unknown>>;
}

/** Builds the engine; nothing touches the store until `ensureCollections`. */
export function createEngine(options: EngineOptions): Engine {
  const registry = createRegistry(options.definitions);
  const opsByName = new Map<string, FullResourceOps>();
  const resources = {
    get(name: string): FullResourceOps {
      const found = opsByName.get(name);
      if (!found) throw new Error(`unknown resource "${name}"`);
      return found;
    },
  };
  const runtime: Runtime = {
    store: options.store,
    resources,
    secrets: options.secrets,
    log: options.log,
    services: options.services ?? new Map(),
    config: options.config ?? {},
  };
  for (const res of registry.resources.values()) opsByName.set(res.name, createResourceOps(res, runtime));
  return {
    registry,
    runtime,
    ops: (name) => resources.get(name),
    async ensureCollections() {
      for (const res of registry.resources.values()) {
        await options.store.ensureCollection(res.collection);
        // Items written without the soft-delete flag (by hand, by an older version) get `false`,
        // so the `{flag: false}` scope of every read still shows them. `null` matches missing.
        const flag = res.softDelete?.field;
        if (flag) await options.store.update(res.name, { [flag]: null }, { $set: { [flag]: false } }, { multi: true });
      }
      const ctx = { principal: SYSTEM, now: stampNow(), runtime };
      for (const res of registry.resources.values()) {
        for (const item of res.def.initialItems?.(runtime.config) ?? []) {
          const id = item._id;
          if (typeof id !== 'string') throw new Error(`${res.name}: initial items need a string _id`);
          if ((await options.store.count(res.name, { _id: id })) === 0) await resources.get(res.name).createMany([item], ctx);
        }
      }
    },
  };
}
