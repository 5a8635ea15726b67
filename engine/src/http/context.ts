/** What the HTTP layer needs: the registry, the runtime, the authenticator and the limits. */
import type { Registry } from '../compile/registry';
import type { Runtime } from '../definition/define';
import type { Authenticator } from './auth';

export interface HttpLimits {
  readonly defaultMaxResults: number;
  readonly paginationLimit: number;
  readonly maxUploadBytes: number;
}

export interface ApiContext {
  readonly registry: Registry;
  readonly runtime: Runtime;
  readonly authenticator: Authenticator;
  readonly limits: HttpLimits;
}
