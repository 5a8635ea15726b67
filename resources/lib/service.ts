/**
 * Typed lookup of the integrations the server registers in `runtime.services` (a map of unknown
 * values, filled by packages/server/src/integrations.ts): a service is taken as `T` only once every
 * method `T` declares is checked to be a function, so a wrong registration fails loudly here.
 */
import type { CallContext } from '@fleet/engine';

/** Every method name of `T`, each listed once: leaving one out is a type error. */
export type MethodNames<T> = { readonly [K in keyof T]-?: true };

/** `value` has every method named in `methods`. */
export function hasMethods<T>(value: unknown, methods: MethodNames<T>): value is T {
  if (typeof value !== 'object' || value === null) return false;
  return Object.keys(methods).every((name) => typeof Reflect.get(value, name) === 'function');
}

/** The service registered under `name`, undefined when none is; throws when it lacks a method of `T`. */
export function lookupService<T>(
  ctx: Pick<CallContext, 'runtime'>,
  name: string,
  methods: MethodNames<T>,
): T | undefined {
  const service = ctx.runtime.services.get(name);
  if (service === undefined) return undefined;
  if (!hasMethods<T>(service, methods))
    throw new Error(`the service registered as "${name}" does not implement it`);
  return service;
}
