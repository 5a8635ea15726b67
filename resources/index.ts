/**
 * Every resource of the API, and the route groups. Adding a resource = one definition file + one
 * line here.
 */
import type { AnyResourceDefinition, RouteGroup } from '@fleet/engine';
import { actions } from './actions';
import { alerts } from './alerts';
import { api_tokens } from './api_tokens';
import { failed_patches } from './failed_patches';
import { files } from './files';
import { graphRoutes } from './graph';
import { graph_jobs } from './graph/graph_jobs';
import { groups } from './groups';
import { hosts } from './hosts';
import { hosts_history } from './hosts_history';
import { hosts_statistic } from './hosts_statistic';
import { masterRoutes } from './master';
import { nodegroups } from './nodegroups';
import { settings } from './settings';
import { tasks } from './tasks';
import { updates } from './updates';
import { vpn_managers } from './vpn_managers';
import { vpn_organizations } from './vpn_organizations';

export const allResources: readonly AnyResourceDefinition[] = [
  actions,
  alerts,
  api_tokens,
  failed_patches,
  files,
  graph_jobs,
  groups,
  hosts,
  hosts_history,
  hosts_statistic,
  nodegroups,
  settings,
  tasks,
  updates,
  vpn_managers,
  vpn_organizations,
];

/** Routes under a path of their own, not one collection's. */
export const allRouteGroups: readonly RouteGroup[] = [graphRoutes, masterRoutes];

export {
  actions,
  alerts,
  api_tokens,
  failed_patches,
  files,
  groups,
  hosts,
  hosts_history,
  hosts_statistic,
  nodegroups,
  settings,
  tasks,
  updates,
  vpn_managers,
  vpn_organizations,
};

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
  type ReconcileReport,
} from './ports/vpn';
