/**
 * Who may call which operation: a user principal needs the role the definition gives the matching
 * method; an operation the definition does not offer is closed to users. The system principal
 * (the service's own work) may call every operation.
 */
import type { CompiledResource } from '../compile/compile';
import type { Methods } from '../definition/define';
import type { Principal } from '../definition/local-api';
import { ROLES, type Role } from '../definition/fields';
import { Forbidden } from '../errors';

/** The operations of the local API, by the method whose role guards them. */
export type Operation = 'list' | 'get' | 'create' | 'patch' | 'replace' | 'delete' | 'deleteMany' | 'upsert';

const METHOD_OF: Readonly<Record<Operation, (m: Methods) => Role | undefined>> = {
  list: (m) => m.list,
  get: (m) => m.get,
  create: (m) => m.create,
  patch: (m) => m.patch ?? m.updateByBody,
  replace: (m) => m.replace,
  delete: (m) => m.delete,
  deleteMany: (m) => m.deleteMany,
  upsert: () => undefined,
};

/** Throws 403 unless `principal` has at least `required`. */
export function requireRole(principal: Principal, required: Role, action: string): void {
  if (principal.system === true) return;
  if (ROLES.indexOf(principal.role) < ROLES.indexOf(required)) {
    throw new Forbidden(`${action} needs the ${required} role; this token has ${principal.role}`);
  }
}

/** Throws 403 unless `principal` may run `op` on the resource. */
export function authorize(res: CompiledResource, op: Operation, principal: Principal): void {
  if (principal.system === true) return;
  const role = METHOD_OF[op](res.def.methods);
  if (role === undefined)
    throw new Forbidden(`${res.name}: ${op} is done by the service itself, not through the API`);
  requireRole(principal, role, `${op} of ${res.name}`);
}

/** Whether the principal is the service itself. */
export function isSystem(principal: Principal): boolean {
  return principal.system === true;
}
