/**
 * What the HTTP layer needs: the registry, the runtime, the authenticator, the limits, the
 * admission policy and the gate of large reads.
 */
import type { Registry } from '../compile/registry';
import type { Principal, Runtime } from '../definition/local-api';
import type { ReadAdmission } from '../fair/admission';
import type { Authenticator } from './auth';

export interface HttpLimits {
  readonly defaultMaxResults: number;
  readonly paginationLimit: number;
  readonly maxUploadBytes: number;
}

/**
 * A request as the router matched it, for an admission policy: its method and its route's one
 * identity (`POST /hosts/:id`, the action named in role errors), whatever spelling of the path
 * reached it, and whether the route runs commands on hosts (`RouteSpec.execution`).
 */
export interface AdmittedRequest {
  readonly method: string;
  readonly action: string;
  readonly execution: boolean;
}

/**
 * Decides, once the caller is authenticated and its role checked, whether the request may run
 * now (per-token rate limits); throws an `HttpError` (a 429) to refuse it.
 */
export type Admission = (principal: Principal, request: AdmittedRequest) => void;

export interface ApiContext {
  readonly registry: Registry;
  readonly runtime: Runtime;
  readonly authenticator: Authenticator;
  readonly limits: HttpLimits;
  readonly admit?: Admission;
  /** The gate of large reads (fair/admission.ts), one per router. */
  readonly readAdmission: ReadAdmission;
}
