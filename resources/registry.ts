/**
 * Every resource of the API, one line each: adding a resource is its definition file and one line
 * here (`fleet new-resource` writes both). Everything this file exports is a resource definition
 * (index.ts serves them all as `allResources`, sorted by name).
 */
export { actions } from './actions';
export { alerts } from './alerts';
export { api_tokens } from './api_tokens';
export { async_jobs } from './async_jobs';
export { duties } from './duties';
export { duty_requests } from './duty_requests';
export { failed_patches } from './failed_patches';
export { files } from './files';
export { graph_jobs } from './graph/graph_jobs';
export { groups } from './groups';
export { group_rules, host_rules } from './groups/derived';
export { hosts } from './hosts';
export { hosts_history } from './hosts_history';
export { hosts_statistic } from './hosts_statistic';
export { monitored_hosts } from './monitored_hosts';
export { nodegroups } from './nodegroups';
export { rate_counts } from './rate_counts';
export { settings } from './settings';
export { tasks } from './tasks';
export { updates } from './updates';
export { vpn_managers } from './vpn_managers';
export { vpn_organizations } from './vpn_organizations';
