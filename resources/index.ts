/**
 * The package's doors: every resource (registered in registry.ts, one line each), the route groups,
 * and the ports the integrations implement.
 */
import type { AnyResourceDefinition, RouteGroup } from '@fleet/engine';
import { graphRoutes } from './graph';
import { masterRoutes } from './master';
import * as registered from './registry';

export * from './registry';

/** Every resource of the API, sorted by name. */
export const allResources: readonly AnyResourceDefinition[] = Object.values(registered).sort((a, b) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
);

/** Routes under a path of their own, not one collection's. */
export const allRouteGroups: readonly RouteGroup[] = [graphRoutes, masterRoutes];

export {
  EXEC_CLIENTS,
  executionRequest,
  executionResponse,
  master,
  masterIfRunning,
  SALT_FUNCTION,
  type ExecClient,
  type ExecutionBody,
  type ExecutionRequest,
  type ExecutionResponse,
  type MasterService,
  type MonitoringAction,
  type PatchDownload,
} from './ports/master';
export type { OutwardAnswer, OutwardRequest } from './ports/master';
export { cronError, nextRun, type Schedule } from './tasks/schedule';
export { tokenNameProblem, TOKEN_NAME_RULE } from './api_tokens';

/** The store's migrations, in order (docs/upgrading.md). */
export { allMigrations } from './migrations';
/** The compact host-list history (snapshot loop, migration, seed): docs/statistics.md. */
export * as snapshotHistory from './hosts_statistic/history';
export {
  vpn,
  reconcileResponse,
  type VpnService,
  type AccountRecord,
  type OrganizationRecord,
  type PortForward,
  type ReconcileReport,
} from './ports/vpn';
