/**
 * Types of the Fleet API, generated from its OpenAPI document by openapi-typescript.
 * Do not edit: run `pnpm gen:client` (packages/client/src/generate.ts).
 */
export type $Read<T> = {
  readonly $read: T;
};
export type $Write<T> = {
  readonly $write: T;
};
export type Readable<T> =
  T extends $Write<unknown>
    ? never
    : T extends $Read<infer U>
      ? Readable<U>
      : T extends (infer E)[]
        ? Readable<E>[]
        : T extends object
          ? {
              [K in keyof T as NonNullable<T[K]> extends $Write<unknown> ? never : K]: Readable<T[K]>;
            }
          : T;
export type Writable<T> =
  T extends $Read<unknown>
    ? never
    : T extends $Write<infer U>
      ? Writable<U>
      : T extends (infer E)[]
        ? Writable<E>[]
        : T extends object
          ? {
              [K in keyof T as NonNullable<T[K]> extends $Read<unknown> ? never : K]: Writable<T[K]>;
            } & {
              [K in keyof T as NonNullable<T[K]> extends $Read<unknown> ? K : never]?: never;
            }
          : T;
export interface paths {
  '/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The server root: a redirect to the home document
     * @description Pages' `_links.parent` is `/`, the home: the root sends a client there (/api/, against which the home document's relative hrefs resolve).
     *
     *     No token needed.
     */
    get: operations['getRoot'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Health of the instance (for load balancers)
     * @description No token needed.
     */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/health/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness of the instance: each part with its state and age
     * @description The store, the master (reachable), the last sync, the event stream, each VPN manager and each background duty. 200 when the API serves (ok or degraded), 503 only when it cannot.
     *
     *     No token needed.
     */
    get: operations['getReadiness'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This document
     * @description No token needed.
     */
    get: operations['getOpenApiDocument'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/docs/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This document (the path it had first)
     * @description No token needed.
     */
    get: operations['getOpenApiDocumentAlias'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The resources a client may list, as links (hrefs relative to /api/)
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getHome'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/media/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The media id (from a media field's link) */
        id: string;
      };
      cookie?: never;
    };
    /**
     * The bytes of an uploaded file
     * @description With a bearer token, or with the expires and signature of the signed link a media field reads back as (no token: for <img src> and download links). Raster images and PDF are shown inline, anything else is an attachment.
     *
     *     Needs a bearer token of role viewer or higher.
     */
    get: operations['getMedia'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/actions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List actions
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['listActions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/actions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The action's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get one action
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getAction'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/alerts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List alerts
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['listAlerts'];
    put?: never;
    /**
     * Create alert items (one, or a JSON array of them)
     * @description Needs a bearer token of role operator or higher.
     */
    post: operations['createAlert'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/alerts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The alert's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get one alert
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getAlert'];
    put?: never;
    post?: never;
    /**
     * Delete a alert
     * @description Needs a bearer token of role admin or higher.
     */
    delete: operations['deleteAlert'];
    options?: never;
    head?: never;
    /**
     * Change fields of a alert (sub-documents merged)
     * @description Needs a bearer token of role operator or higher.
     */
    patch: operations['patchAlert'];
    trace?: never;
  };
  '/api/failed_patches': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List failed_patches
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['listFailedPatches'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/failed_patches/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The failed_patch's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get one failed_patch
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getFailedPatch'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/files': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List files
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['listFiles'];
    put?: never;
    /**
     * Create a file (multipart/form-data, with its files)
     * @description Needs a bearer token of role operator or higher.
     */
    post: operations['createFile'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/files/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The file's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get one file
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getFile'];
    put?: never;
    post?: never;
    /**
     * Delete a file
     * @description Needs a bearer token of role admin or higher.
     */
    delete: operations['deleteFile'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/groups': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List groups
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['listGroups'];
    put?: never;
    /**
     * Create group items (one, or a JSON array of them)
     * @description Needs a bearer token of role admin or higher.
     */
    post: operations['createGroup'];
    /**
     * Deletes every group of the given type(s): where={"type": n} or {"type": [n, ...]}
     * @description Needs a bearer token of role admin or higher.
     */
    delete: operations['deleteGroups'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/groups/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The group's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get one group
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getGroup'];
    put?: never;
    /**
     * Runs a Salt function on every host of the group (tgt: its host names, tgt_type: list)
     * @description Needs a bearer token of role operator or higher.
     */
    post: operations['postGroupsById'];
    /**
     * Delete a group
     * @description Needs a bearer token of role admin or higher.
     */
    delete: operations['deleteGroup'];
    options?: never;
    head?: never;
    /**
     * Change fields of a group (sub-documents merged)
     * @description Needs a bearer token of role admin or higher.
     */
    patch: operations['patchGroup'];
    trace?: never;
  };
  '/api/groups/{id}/subgroups': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * The ids of the direct subgroups of the group
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getGroupsByIdSubgroups'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/groups/{id}/hostnames': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Host names of the group and all its nested subgroups (static members and rule matches)
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getGroupsByIdHostnames'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/hosts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List hosts
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['listHosts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/hosts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The host's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get one host
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getHost'];
    put?: never;
    /**
     * Runs a Salt function on the host through the master (execution proxying): {exec_client, fun, arg, kwarg, ...}
     * @description Needs a bearer token of role operator or higher.
     */
    post: operations['postHostsById'];
    /**
     * Delete a host (soft delete: hidden, kept)
     * @description Needs a bearer token of role admin or higher.
     */
    delete: operations['deleteHost'];
    options?: never;
    head?: never;
    /**
     * Change fields of a host (sub-documents merged)
     * @description Needs a bearer token of role admin or higher.
     */
    patch: operations['patchHost'];
    trace?: never;
  };
  '/api/hosts/statistics/online': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Hosts up and down at each snapshot of the period
     * @description Aggregated over the host-list snapshots of the period; soft-deleted hosts are left out.
     *
     *     Needs a bearer token of role viewer or higher.
     */
    get: operations['getHostsStatisticsOnline'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/hosts/statistics/unique_online': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Hosts up at least once in the period, among all hosts seen in it
     * @description Aggregated over the host-list snapshots of the period; soft-deleted hosts are left out.
     *
     *     Needs a bearer token of role viewer or higher.
     */
    get: operations['getHostsStatisticsUniqueOnline'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/hosts/statistics/unique_updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Hosts whose last state.apply falls in the period, among all hosts seen in it
     * @description Aggregated over the host-list snapshots of the period; soft-deleted hosts are left out.
     *
     *     Needs a bearer token of role viewer or higher.
     */
    get: operations['getHostsStatisticsUniqueUpdated'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/hosts/statistics/unique_dist_upgraded': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Hosts whose last distribution upgrade falls in the period, among all hosts seen in it
     * @description Aggregated over the host-list snapshots of the period; soft-deleted hosts are left out.
     *
     *     Needs a bearer token of role viewer or higher.
     */
    get: operations['getHostsStatisticsUniqueDistUpgraded'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/hosts/statistics/new_hosts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Hosts first seen in the period
     * @description Aggregated over the host-list snapshots of the period; soft-deleted hosts are left out.
     *
     *     Needs a bearer token of role viewer or higher.
     */
    get: operations['getHostsStatisticsNewHosts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/hosts/{id}/all_status': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * status.all_status monitoring of the host: action start | stop | stop_all; without action, one sample now
     * @description Needs a bearer token of role operator or higher.
     */
    post: operations['postHostsByIdAllStatus'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/hosts/{id}/vpn_profile': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * The host's VPN client profile from its VPN server: one .ovpn (one server attached) or the server's .tar (several)
     * @description Needs a bearer token of role operator or higher.
     */
    get: operations['getHostsByIdVpnProfile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/hosts_statistic': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List hosts_statistic
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['listHostsStatistic'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/hosts_statistic/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The hosts_statistic's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get one hosts_statistic
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getHostsStatistic'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/nodegroups': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List nodegroups
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['listNodegroups'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/nodegroups/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The nodegroup's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get one nodegroup
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getNodegroup'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List settings
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['listSettings'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/settings/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The setting's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get one setting
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getSetting'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Change fields of a setting (sub-documents merged)
     * @description Needs a bearer token of role admin or higher.
     */
    patch: operations['patchSetting'];
    trace?: never;
  };
  '/api/tasks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List tasks
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['listTasks'];
    /**
     * Change the task named by _id in the body (merged as PATCH)
     * @description Needs a bearer token of role operator or higher.
     */
    put: operations['updateTask'];
    /**
     * Create task items (one, or a JSON array of them)
     * @description Needs a bearer token of role operator or higher.
     */
    post: operations['createTask'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/tasks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The task's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get one task
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getTask'];
    put?: never;
    post?: never;
    /**
     * Delete a task
     * @description Needs a bearer token of role operator or higher.
     */
    delete: operations['deleteTask'];
    options?: never;
    head?: never;
    /**
     * Change fields of a task (sub-documents merged)
     * @description Needs a bearer token of role operator or higher.
     */
    patch: operations['patchTask'];
    trace?: never;
  };
  '/api/tasks/{id}/{status}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
        /** @description The status */
        status: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Pauses (paused) or resumes (scheduled) a task; resuming recomputes next from now
     * @description Needs a bearer token of role operator or higher.
     */
    patch: operations['patchTasksByIdByStatus'];
    trace?: never;
  };
  '/api/updates': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List updates
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['listUpdates'];
    put?: never;
    /**
     * Downloads the patches from the master's file server (patches/), upserting each by name
     * @description Needs a bearer token of role operator or higher.
     */
    post: operations['postUpdates'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/updates/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The update's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get one update
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getUpdate'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Change fields of a update (sub-documents merged)
     * @description Needs a bearer token of role operator or higher.
     */
    patch: operations['patchUpdate'];
    trace?: never;
  };
  '/api/vpn_managers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List vpn_managers
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['listVpnManagers'];
    put?: never;
    /**
     * Create vpn_manager items (one, or a JSON array of them)
     * @description Needs a bearer token of role admin or higher.
     */
    post: operations['createVpnManager'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/vpn_managers/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The vpn_manager's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get one vpn_manager
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getVpnManager'];
    put?: never;
    post?: never;
    /**
     * Delete a vpn_manager
     * @description Needs a bearer token of role admin or higher.
     */
    delete: operations['deleteVpnManager'];
    options?: never;
    head?: never;
    /**
     * Change fields of a vpn_manager (sub-documents merged)
     * @description Needs a bearer token of role admin or higher.
     */
    patch: operations['patchVpnManager'];
    trace?: never;
  };
  '/api/vpn_managers/reconcile': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Compares every VPN manager with the store now: repairs what the store says should exist, reports the rest as alerts
     * @description Needs a bearer token of role admin or higher.
     */
    post: operations['postVpnManagersReconcile'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/vpn_managers/{id}/reconcile': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Compares one VPN manager with the store now
     * @description Needs a bearer token of role admin or higher.
     */
    post: operations['postVpnManagersByIdReconcile'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/vpn_organizations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List vpn_organizations
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['listVpnOrganizations'];
    put?: never;
    /**
     * Create vpn_organization items (one, or a JSON array of them)
     * @description Needs a bearer token of role admin or higher.
     */
    post: operations['createVpnOrganization'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/vpn_organizations/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The vpn_organization's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get one vpn_organization
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getVpnOrganization'];
    put?: never;
    post?: never;
    /**
     * Delete a vpn_organization
     * @description Needs a bearer token of role admin or higher.
     */
    delete: operations['deleteVpnOrganization'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/graph/not-linked': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Gateway groups (type 3) that no group lists as a subgroup, as nodes
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getGraphNotLinked'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/graph/jobs/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * A request_ips job: state, progress and, once done, its summary
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getGraphJobsById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/graph/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * The graph from a root group: one node per visit, depth first, and one groupLink edge per parent -> child
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getGraphById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/graph/{id}/nodes': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * The nodes of the graph from a root group; where={"type": n} keeps the nodes of one node type
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getGraphByIdNodes'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/graph/{id}/edges': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    /**
     * The edges of the graph from a root group
     * @description Needs a bearer token of role viewer or higher.
     */
    get: operations['getGraphByIdEdges'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/graph': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * request_ips: probes the hosts' outward addresses (the job's final state, or 202 and the job to poll); build_graph: replaces the groups of types 2-4 with a root over the gateways and the direct group
     * @description Body {"action": "request_ips", "ip_resolver"?: URL} or {"action": "build_graph", "master": NAME}. request_ips runs as a job: the answer waits for it up to the server's bound (GRAPH_WAIT_S, 25 s by default; `Prefer: wait=N` shortens it) and is 200 with its final state (done or failed); past the bound, or with `Prefer: respond-async`, it is 202 with the running job and its Location (GET /api/graph/jobs/{id}). build_graph runs to its end (store work only).
     *
     *     Needs a bearer token of role admin or higher.
     */
    post: operations['postGraph'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/master/sync': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Runs the fleet sync now (hosts, keys, nodegroups, missed job returns) and answers its report
     * @description Needs a bearer token of role admin or higher.
     */
    post: operations['postMasterSync'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Link: {
      title: string;
      /** @description Relative to /api/, no leading slash ("/", a page's parent, is the server root: it redirects to the home document) */
      href: string;
    };
    /** @description Links of a page; each href repeats the query (max_results when not the default, where, sort, page, then the rest), each value percent-encoded where a URL needs it: follow an href as given, resolved against /api/ */
    CollectionLinks: {
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "hosts",
       *       "href": "hosts?max_results=2"
       *     }
       */
      self: components['schemas']['Link'];
      /** @description The previous page (page > 1) */
      prev?: components['schemas']['Link'];
      /**
       * @description The next page, when there is one
       * @example {
       *       "title": "next page",
       *       "href": "hosts?max_results=2&page=2"
       *     }
       */
      next?: components['schemas']['Link'];
      /** @description The last page, when there is a next one */
      last?: components['schemas']['Link'];
    };
    Meta: {
      page: number;
      /** @description Items per page (default 25, capped by PAGINATION_LIMIT) */
      max_results: number;
      /** @description Items matching the query, on every page */
      total: number;
    };
    /**
     * @description One message per invalid field, nested like the document ({"info": {"regex": "..."}}); list elements by index
     * @example {
     *       "name": "required field",
     *       "info": {
     *         "regex": "max length is 256"
     *       }
     *     }
     */
    Issues: {
      [key: string]: string | components['schemas']['Issues'];
    };
    /**
     * @description Every error: {"_status": "ERR", "_error": {code, message}}, with `_issues` on most 422s
     * @example {
     *       "_status": "ERR",
     *       "_error": {
     *         "code": 404,
     *         "message": "The requested resource was not found"
     *       }
     *     }
     */
    Error: {
      /** @constant */
      _status: 'ERR';
      _error: {
        /** @description The HTTP status */
        code: number;
        message: string;
      };
      _issues?: components['schemas']['Issues'];
    };
    /** @description A create refused (422): nothing was stored. One document: _issues names each field. A bulk insert (a JSON array): _items, one entry per submitted document, in order */
    CreateError: {
      /** @constant */
      _status: 'ERR';
      _error: {
        /** @description The HTTP status */
        code: number;
        message: string;
      };
      _issues?: components['schemas']['Issues'];
      _items?: (
        | {
            /** @constant */
            _status: 'OK';
          }
        | {
            /** @constant */
            _status: 'ERR';
            _issues: components['schemas']['Issues'];
          }
      )[];
    };
    /** @description ok: the store answers a read and takes a write; otherwise which of the two fails */
    Health: {
      /** @enum {unknown} */
      status: 'ok' | 'unavailable';
      /**
       * @description The store kind: sqlite or mongodb
       * @example sqlite
       */
      store: string;
      /**
       * @description The release this instance runs (semver)
       * @example 1.0.0
       */
      version: string;
      readable?: boolean;
      writable?: boolean;
      problem?: string;
    };
    /** @description ok: every part is; degraded: a peer or a duty is down but the API serves; unavailable: the store cannot be read or written. States and ages only: no address, no error text, no secret. */
    Readiness: {
      /** @enum {unknown} */
      status: 'ok' | 'degraded' | 'unavailable';
      /** Format: date-time */
      checked?: string;
      parts: {
        store: components['schemas']['ReadinessPart'];
        master?: components['schemas']['ReadinessPart'];
        sync?: components['schemas']['ReadinessPart'];
        events?: components['schemas']['ReadinessPart'];
        /** @description Each VPN manager by _id: whether it accepts a connection */
        vpn_managers?: {
          [key: string]: components['schemas']['ReadinessPart'];
        };
        /** @description Each once-per-deployment duty by lease name: its last run */
        duties?: {
          [key: string]: components['schemas']['ReadinessPart'];
        };
      };
    };
    /** @description One part: its state (ok, down, failed, stale, never, off, elsewhere) and the age of its last sign */
    ReadinessPart: {
      /** @enum {unknown} */
      state: 'ok' | 'down' | 'failed' | 'stale' | 'never' | 'off' | 'elsewhere';
      /** @description Seconds since the part's last sign */
      age_s?: number;
    } & {
      [key: string]: unknown;
    };
    Home: {
      _links: {
        child: components['schemas']['Link'][];
      };
    };
    /** @description Completed remote actions, one per job and host. Every field is present unless a projection leaves it out; the meta fields and _links always are. */
    Action: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      jid?: string;
      /** @description Executed function, e.g. cmd.run */
      action?: string;
      host?: string | components['schemas']['HostEmbedded'] | null;
      state?: string;
      args?: ({
        __kwarg__?: boolean;
      } & {
        [key: string]: unknown;
      })[];
      /** @description Output of the action */
      return?: string | null;
      /** @description The job's outcome: its retcode is 0 (or, without a retcode, the minion reported success); null while unknown */
      success?: boolean | null;
      /** @description Name of the API token that started it; null for jobs started outside the service */
      user?: string | null;
      /** @description The master's account that published the job (for the service's own calls, its salt-api user) */
      salt_user?: string | null;
      _links: components['schemas']['ActionLinks'];
    };
    /** @description Action as embedded in another item (embedded=...): no _links, no list-hidden fields. */
    ActionEmbedded: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      jid?: string;
      /** @description Executed function, e.g. cmd.run */
      action?: string;
      /** @description Id of a hosts item */
      host?: string;
      state?: string;
      args?: ({
        __kwarg__?: boolean;
      } & {
        [key: string]: unknown;
      })[];
      /** @description Output of the action */
      return?: string | null;
      /** @description The job's outcome: its retcode is 0 (or, without a retcode, the minion reported success); null while unknown */
      success?: boolean | null;
      /** @description Name of the API token that started it; null for jobs started outside the service */
      user?: string | null;
      /** @description The master's account that published the job (for the service's own calls, its salt-api user) */
      salt_user?: string | null;
    };
    /** @description self always; parent and collection on item GETs; related when a reference has a value */
    ActionLinks: {
      /**
       * @example {
       *       "title": "Action",
       *       "href": "actions/6566d7e2a1b2c3d4e5f60718"
       *     }
       */
      self: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent?: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "actions",
       *       "href": "actions"
       *     }
       */
      collection?: components['schemas']['Link'];
      related?: components['schemas']['ActionRelated'];
    };
    /** @description A page of actions */
    ActionsPage: {
      _items: components['schemas']['Action'][];
      _links: components['schemas']['CollectionLinks'];
      _meta: components['schemas']['Meta'];
    };
    /** @description Links to the items the references name (only references that have a value) */
    ActionRelated: {
      /** @description The hosts item host names */
      host?: components['schemas']['Link'];
    };
    /** @description Notifications. GET with mark_as_read=1 marks the returned alerts as read. Every field is present unless a projection leaves it out; the meta fields and _links always are. */
    Alert: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      /** @description e.g. vnc.connect, host.down, host.up, key.changed, patch.failed, task.failed, master.unreachable */
      type?: string;
      /** @enum {string} */
      level?: 'info' | 'warning' | 'error' | 'critical';
      payload?: {
        hostname?: string;
        status?: string;
      } & {
        [key: string]: unknown;
      };
      read?: boolean;
      _links: components['schemas']['AlertLinks'];
    };
    /** @description self always; parent and collection on item GETs; related when a reference has a value */
    AlertLinks: {
      /**
       * @example {
       *       "title": "Alert",
       *       "href": "alerts/6566d7e2a1b2c3d4e5f60718"
       *     }
       */
      self: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent?: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "alerts",
       *       "href": "alerts"
       *     }
       */
      collection?: components['schemas']['Link'];
    };
    AlertWritten: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      _links: components['schemas']['AlertLinks'];
      /** @constant */
      _status: 'OK';
    };
    /** @description A page of alerts */
    AlertsPage: {
      _items: components['schemas']['Alert'][];
      _links: components['schemas']['CollectionLinks'];
      _meta: components['schemas']['Meta'];
    };
    AlertCreate: {
      /** @description e.g. vnc.connect, host.down, host.up, key.changed, patch.failed, task.failed, master.unreachable */
      type: string;
      /**
       * @description Default: "info"
       * @example info
       * @enum {string}
       */
      level?: 'info' | 'warning' | 'error' | 'critical';
      /**
       * @description Default: {}
       * @example {}
       */
      payload?: {
        hostname?: string;
        status?: string;
      } & {
        [key: string]: unknown;
      };
      /**
       * @description Default: false
       * @example false
       */
      read?: boolean;
    };
    AlertPatch: {
      read?: boolean;
      /** @description Not changed by PATCH: refused (422) */
      type?: $Read<unknown>;
      /** @description Not changed by PATCH: refused (422) */
      level?: $Read<unknown>;
      /** @description Not changed by PATCH: refused (422) */
      payload?: $Read<unknown>;
    };
    /** @description Failed patch runs: state.apply jobs with a failed step. Every field is present unless a projection leaves it out; the meta fields and _links always are. */
    FailedPatch: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      jid?: string;
      action?: string;
      host?: string | components['schemas']['HostEmbedded'] | null;
      state?: string;
      /** @description Patch (state) name */
      patch?: string;
      return?: ({
        comment?: string;
        name?: string;
        /** @description Time of day HH:MM:SS.ffffff */
        start_time?: string;
        result?: boolean | null;
        duration?: number;
        __run_num__?: number;
        __sls__?: string | null;
        changes?: {
          pid?: number;
          retcode?: number;
          stderr?: string;
          stdout?: string;
        } & {
          [key: string]: unknown;
        };
        __id__?: string;
        cmd?: string;
      } & {
        [key: string]: unknown;
      })[];
      _links: components['schemas']['FailedPatchLinks'];
    };
    /** @description self always; parent and collection on item GETs; related when a reference has a value */
    FailedPatchLinks: {
      /**
       * @example {
       *       "title": "Failed_patch",
       *       "href": "failed_patches/6566d7e2a1b2c3d4e5f60718"
       *     }
       */
      self: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent?: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "failed_patches",
       *       "href": "failed_patches"
       *     }
       */
      collection?: components['schemas']['Link'];
      related?: components['schemas']['FailedPatchRelated'];
    };
    /** @description A page of failed_patches */
    FailedPatchesPage: {
      _items: components['schemas']['FailedPatch'][];
      _links: components['schemas']['CollectionLinks'];
      _meta: components['schemas']['Meta'];
    };
    /** @description Links to the items the references name (only references that have a value) */
    FailedPatchRelated: {
      /** @description The hosts item host names */
      host?: components['schemas']['Link'];
    };
    /** @description Uploaded files. POST multipart/form-data with `name` and `data` (the file). Every field is present unless a projection leaves it out; the meta fields and _links always are. */
    File: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      name?: string;
      /**
       * @description Link to the bytes: /api/media/<id>, signed (?expires=...&signature=...) so a browser opens it without a token; absolute (https://...) when the server knows its public URL (PUBLIC_URL). Resolve a path against the server's origin, not against /api
       * @example /api/media/6566d7e2a1b2c3d4e5f60718?expires=1795000000&signature=…
       * @example https://fleet.example.com/api/media/6566d7e2a1b2c3d4e5f60718?expires=1795000000&signature=…
       */
      data?: string;
      _links: components['schemas']['FileLinks'];
    };
    /** @description self always; parent and collection on item GETs; related when a reference has a value */
    FileLinks: {
      /**
       * @example {
       *       "title": "File",
       *       "href": "files/6566d7e2a1b2c3d4e5f60718"
       *     }
       */
      self: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent?: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "files",
       *       "href": "files"
       *     }
       */
      collection?: components['schemas']['Link'];
    };
    FileWritten: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      _links: components['schemas']['FileLinks'];
      /** @constant */
      _status: 'OK';
    };
    /** @description A page of files */
    FilesPage: {
      _items: components['schemas']['File'][];
      _links: components['schemas']['CollectionLinks'];
      _meta: components['schemas']['Meta'];
    };
    FileUpload: {
      name?: string;
      /** @description The file (a part of multipart/form-data) */
      data: Blob;
    };
    /** @description Groups of hosts: containers, rule groups, and the graph groups built by POST /api/graph. Every field is present unless a projection leaves it out; the meta fields and _links always are. */
    Group: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      name?: string;
      /**
       * @description 0 container, 1 rule, 2 master root, 3 gateway, 4 direct-attached
       * @enum {integer}
       */
      type?: 0 | 1 | 2 | 3 | 4;
      subgroups?: (string | components['schemas']['GroupEmbedded'])[];
      /** @description Rule of a type 1 group: regex on the host name and/or grain equalities */
      info?: {
        regex?: string;
        grain?: {
          [key: string]: unknown;
        };
        ip?: string;
      };
      _links: components['schemas']['GroupLinks'];
    };
    /** @description Group as embedded in another item (embedded=...): no _links, no list-hidden fields. */
    GroupEmbedded: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      name?: string;
      /**
       * @description 0 container, 1 rule, 2 master root, 3 gateway, 4 direct-attached
       * @enum {integer}
       */
      type?: 0 | 1 | 2 | 3 | 4;
      subgroups?: string[];
      /** @description Rule of a type 1 group: regex on the host name and/or grain equalities */
      info?: {
        regex?: string;
        grain?: {
          [key: string]: unknown;
        };
        ip?: string;
      };
    };
    /** @description self always; parent and collection on item GETs; related when a reference has a value */
    GroupLinks: {
      /**
       * @example {
       *       "title": "Group",
       *       "href": "groups/6566d7e2a1b2c3d4e5f60718"
       *     }
       */
      self: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent?: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "groups",
       *       "href": "groups"
       *     }
       */
      collection?: components['schemas']['Link'];
      related?: components['schemas']['GroupRelated'];
    };
    GroupWritten: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      _links: components['schemas']['GroupLinks'];
      /** @constant */
      _status: 'OK';
    };
    /** @description A page of groups */
    GroupsPage: {
      _items: components['schemas']['Group'][];
      _links: components['schemas']['CollectionLinks'];
      _meta: components['schemas']['Meta'];
    };
    /** @description Links to the items the references name (only references that have a value) */
    GroupRelated: {
      /** @description The groups items subgroups names */
      subgroups?: components['schemas']['Link'][];
    };
    GroupCreate: {
      name: string;
      /**
       * @description 0 container, 1 rule, 2 master root, 3 gateway, 4 direct-attached. Default: 0
       * @example 0
       * @enum {integer}
       */
      type?: 0 | 1 | 2 | 3 | 4;
      /**
       * @description Default: []
       * @example []
       */
      subgroups?: string[];
      /**
       * @description Rule of a type 1 group: regex on the host name and/or grain equalities. Default: {}
       * @example {}
       */
      info?: {
        regex?: string;
        grain?: {
          [key: string]: unknown;
        };
        ip?: string;
      };
      /** @description Host names to make the static members (write only) */
      hosts?: $Write<string[]>;
    };
    GroupPatch: {
      name?: string;
      /**
       * @description 0 container, 1 rule, 2 master root, 3 gateway, 4 direct-attached
       * @enum {integer}
       */
      type?: 0 | 1 | 2 | 3 | 4;
      subgroups?: string[];
      /** @description Rule of a type 1 group: regex on the host name and/or grain equalities */
      info?: {
        regex?: string;
        grain?: {
          [key: string]: unknown;
        };
        ip?: string;
      };
      /** @description Host names to make the static members (write only) */
      hosts?: $Write<string[]>;
    };
    /** @description Hosts (minions) of the master. Filled by the fleet sync; DELETE hides a host until show_soft_deleted is given. Every field is present unless a projection leaves it out (grain, all_status: in item GETs, and in lists only when a projection asks for them); the meta fields and _links always are. */
    Host: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      /** @description Salt version of the minion */
      version?: $Read<string>;
      ip?: $Read<string>;
      nodegroups?: $Read<(string | components['schemas']['NodegroupEmbedded'])[]>;
      /** @description Ids of the groups the host is a static member of */
      groups?: (string | components['schemas']['GroupEmbedded'])[];
      /** @description Host attributes reported by the minion (grains.items) */
      grain?: $Read<
        {
          cpu_model?: string;
          cpuarch?: string;
          virtual?: string;
          kernel?: string;
          kernelrelease?: string;
          os?: string;
          os_family?: string;
          osrelease?: string;
          oscodename?: string;
          osfinger?: string;
          lsb_distrib_id?: string;
          osfullname?: string;
          host?: string;
          domain?: string;
          localhost?: string;
          ip?: string;
          mem_total?: number;
          num_cpus?: number;
          num_gpus?: number;
          gpus?: {
            model?: string;
            vendor?: string;
          }[];
          serialnumber?: string | null;
          biosversion?: string | null;
          lsb_distrib_description?: string | null;
          ip_interfaces?: {
            [key: string]: unknown;
          };
        } & {
          [key: string]: unknown;
        }
      >;
      /** @description RFC 1123 date */
      last_distupgrade?: $Read<string | null>;
      /** @description RFC 1123 date */
      last_stateapply?: $Read<string | null>;
      /** @enum {string} */
      status?: $Read<'up' | 'down'>;
      /** @description RFC 1123 date */
      heartbeat?: $Read<string | null>;
      /** @enum {string} */
      key?: $Read<'accepted' | 'pending' | 'rejected' | 'denied'>;
      last_action?: $Read<string | components['schemas']['ActionEmbedded'] | null>;
      /** @description The outward address (POST /api/graph request_ips) is not one of its own */
      nat?: $Read<boolean>;
      fingerprint?: $Read<string | null>;
      /** @description A second key the master refused for this id while its key is accepted (a reinstalled host, or someone posing as it): the master keeps it in minions_denied; null when there is none */
      denied_fingerprint?: $Read<string | null>;
      fingerprint_history?: $Read<
        {
          /**
           * @description RFC 1123 date
           * @example Wed, 25 Nov 2026 21:08:02 GMT
           */
          added?: string;
          fingerprint?: string;
        }[]
      >;
      /** @description The host's user record on its VPN server */
      vpnsrv_representation?: $Read<
        | ({
            auth_type?: string;
            yubico_id?: string | null;
            client_to_client?: boolean;
            /**
             * @description Secret: accepted on write, always read back as "********".
             * @constant
             */
            otp_secret?: '********';
            name?: string;
            pin?: boolean;
            dns_suffix?: string | null;
            disabled?: boolean;
            mac_addresses?: string[] | null;
            email?: string | null;
            organization_name?: string;
            bypass_secondary?: boolean;
            groups?: string[];
            organization?: string;
            port_forwarding?: {
              [key: string]: unknown;
            }[];
            dns_servers?: string[] | null;
            type?: string;
            id?: string;
          } & {
            [key: string]: unknown;
          })
        | null
      >;
      vpn_organization?: string | components['schemas']['VpnOrganizationEmbedded'] | null;
      identification_number?: string | null;
      /** @description Latest status.all_status sample while monitoring runs */
      all_status?: $Read<{
        [key: string]: unknown;
      } | null>;
      /** @description Hidden by DELETE; shown only with show_soft_deleted */
      _soft_deleted?: $Read<boolean>;
      _links: components['schemas']['HostLinks'];
    };
    /** @description Host as embedded in another item (embedded=...): no _links, no list-hidden fields. */
    HostEmbedded: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      /** @description Salt version of the minion */
      version?: $Read<string>;
      ip?: $Read<string>;
      nodegroups?: $Read<string[]>;
      /** @description Ids of the groups the host is a static member of */
      groups?: string[];
      /** @description RFC 1123 date */
      last_distupgrade?: $Read<string | null>;
      /** @description RFC 1123 date */
      last_stateapply?: $Read<string | null>;
      /** @enum {string} */
      status?: $Read<'up' | 'down'>;
      /** @description RFC 1123 date */
      heartbeat?: $Read<string | null>;
      /** @enum {string} */
      key?: $Read<'accepted' | 'pending' | 'rejected' | 'denied'>;
      /** @description Id of a actions item */
      last_action?: $Read<string | null>;
      /** @description The outward address (POST /api/graph request_ips) is not one of its own */
      nat?: $Read<boolean>;
      fingerprint?: $Read<string | null>;
      /** @description A second key the master refused for this id while its key is accepted (a reinstalled host, or someone posing as it): the master keeps it in minions_denied; null when there is none */
      denied_fingerprint?: $Read<string | null>;
      fingerprint_history?: $Read<
        {
          /**
           * @description RFC 1123 date
           * @example Wed, 25 Nov 2026 21:08:02 GMT
           */
          added?: string;
          fingerprint?: string;
        }[]
      >;
      /** @description The host's user record on its VPN server */
      vpnsrv_representation?: $Read<
        | ({
            auth_type?: string;
            yubico_id?: string | null;
            client_to_client?: boolean;
            /**
             * @description Secret: accepted on write, always read back as "********".
             * @constant
             */
            otp_secret?: '********';
            name?: string;
            pin?: boolean;
            dns_suffix?: string | null;
            disabled?: boolean;
            mac_addresses?: string[] | null;
            email?: string | null;
            organization_name?: string;
            bypass_secondary?: boolean;
            groups?: string[];
            organization?: string;
            port_forwarding?: {
              [key: string]: unknown;
            }[];
            dns_servers?: string[] | null;
            type?: string;
            id?: string;
          } & {
            [key: string]: unknown;
          })
        | null
      >;
      /** @description Id of a vpn_organizations item */
      vpn_organization?: string | null;
      identification_number?: string | null;
      /** @description Hidden by DELETE; shown only with show_soft_deleted */
      _soft_deleted?: $Read<boolean>;
    };
    /** @description self always; parent and collection on item GETs; related when a reference has a value */
    HostLinks: {
      /**
       * @example {
       *       "title": "Host",
       *       "href": "hosts/6566d7e2a1b2c3d4e5f60718"
       *     }
       */
      self: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent?: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "hosts",
       *       "href": "hosts"
       *     }
       */
      collection?: components['schemas']['Link'];
      related?: components['schemas']['HostRelated'];
    };
    HostWritten: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      _links: components['schemas']['HostLinks'];
      /** @constant */
      _status: 'OK';
    };
    /** @description A page of hosts */
    HostsPage: {
      _items: components['schemas']['Host'][];
      _links: components['schemas']['CollectionLinks'];
      _meta: components['schemas']['Meta'];
    };
    /** @description Links to the items the references name (only references that have a value) */
    HostRelated: {
      /** @description The nodegroups items nodegroups names */
      nodegroups?: components['schemas']['Link'][];
      /** @description The groups items groups names */
      groups?: components['schemas']['Link'][];
      /** @description The actions item last_action names */
      last_action?: components['schemas']['Link'];
      /** @description The vpn_organizations item vpn_organization names */
      vpn_organization?: components['schemas']['Link'];
    };
    HostPatch: {
      /** @description Ids of the groups the host is a static member of */
      groups?: string[];
      /** @description Id of a vpn_organizations item */
      vpn_organization?: string | null;
      identification_number?: string | null;
      /** @description Server-set: refused (422) in a body */
      version?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      ip?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      nodegroups?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      grain?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      last_distupgrade?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      last_stateapply?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      status?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      heartbeat?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      key?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      last_action?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      nat?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      fingerprint?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      denied_fingerprint?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      fingerprint_history?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      vpnsrv_representation?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      all_status?: $Read<unknown>;
    };
    /** @description Snapshots of the host list; prefer /api/hosts/statistics/*. Every field is present unless a projection leaves it out; the meta fields and _links always are. */
    HostsStatistic: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      hosts?: {
        _id?: string;
        version?: string | null;
        ip?: string | null;
        nodegroups?: string[];
        status?: string | null;
        /** @description RFC 1123 date */
        last_stateapply?: string | null;
        /** @description RFC 1123 date */
        last_distupgrade?: string | null;
        /**
         * @description RFC 1123 date
         * @example Wed, 25 Nov 2026 21:08:02 GMT
         */
        _created?: string;
        /**
         * @description RFC 1123 date
         * @example Wed, 25 Nov 2026 21:08:02 GMT
         */
        _updated?: string;
        /** @description Hidden by soft delete (as lists show it) */
        _soft_deleted?: boolean;
        /** @description Hidden by soft delete, as a single snapshot shows it (the spec names the flag so in the item output) */
        _deleted?: boolean;
      }[];
      /**
       * @description RFC 1123 date
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      timestamp?: string;
      index?: number;
      _links: components['schemas']['HostsStatisticLinks'];
    };
    /** @description self always; parent and collection on item GETs; related when a reference has a value */
    HostsStatisticLinks: {
      /**
       * @example {
       *       "title": "Hosts_statistic",
       *       "href": "hosts_statistic/6566d7e2a1b2c3d4e5f60718"
       *     }
       */
      self: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent?: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "hosts_statistic",
       *       "href": "hosts_statistic"
       *     }
       */
      collection?: components['schemas']['Link'];
    };
    /** @description A page of hosts_statistic */
    HostsStatisticPage: {
      _items: components['schemas']['HostsStatistic'][];
      _links: components['schemas']['CollectionLinks'];
      _meta: components['schemas']['Meta'];
    };
    /** @description Nodegroups of the master's configuration (read-only; the item id is the nodegroup name). Every field is present unless a projection leaves it out; the meta fields and _links always are. */
    Nodegroup: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      name?: $Read<string>;
      type?: $Read<number>;
      /** @description The parsed compound expression */
      info?: $Read<{
        regex?: string;
        grain?: {
          [key: string]: unknown;
        };
        hosts?: string[];
        expression?: string;
      }>;
      _links: components['schemas']['NodegroupLinks'];
    };
    /** @description Nodegroup as embedded in another item (embedded=...): no _links, no list-hidden fields. */
    NodegroupEmbedded: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      name?: $Read<string>;
      type?: $Read<number>;
      /** @description The parsed compound expression */
      info?: $Read<{
        regex?: string;
        grain?: {
          [key: string]: unknown;
        };
        hosts?: string[];
        expression?: string;
      }>;
    };
    /** @description self always; parent and collection on item GETs; related when a reference has a value */
    NodegroupLinks: {
      /**
       * @example {
       *       "title": "Nodegroup",
       *       "href": "nodegroups/6566d7e2a1b2c3d4e5f60718"
       *     }
       */
      self: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent?: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "nodegroups",
       *       "href": "nodegroups"
       *     }
       */
      collection?: components['schemas']['Link'];
    };
    /** @description A page of nodegroups */
    NodegroupsPage: {
      _items: components['schemas']['Nodegroup'][];
      _links: components['schemas']['CollectionLinks'];
      _meta: components['schemas']['Meta'];
    };
    /** @description Service settings: one item with _id "0". Every field is present unless a projection leaves it out; the meta fields and _links always are. */
    Setting: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      addresses?: {
        /** @description URL of the IP resolver (http or https; empty: none) that POST /api/graph request_ips uses by default */
        resolver_address?: string;
        master_address?: string;
        /** @description Id of a files item */
        file?: string | null;
      };
      _links: components['schemas']['SettingLinks'];
    };
    /** @description self always; parent and collection on item GETs; related when a reference has a value */
    SettingLinks: {
      /**
       * @example {
       *       "title": "Setting",
       *       "href": "settings/6566d7e2a1b2c3d4e5f60718"
       *     }
       */
      self: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent?: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "settings",
       *       "href": "settings"
       *     }
       */
      collection?: components['schemas']['Link'];
    };
    SettingWritten: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      _links: components['schemas']['SettingLinks'];
      /** @constant */
      _status: 'OK';
    };
    /** @description A page of settings */
    SettingsPage: {
      _items: components['schemas']['Setting'][];
      _links: components['schemas']['CollectionLinks'];
      _meta: components['schemas']['Meta'];
    };
    SettingPatch: {
      addresses?: {
        /** @description URL of the IP resolver (http or https; empty: none) that POST /api/graph request_ips uses by default */
        resolver_address?: string;
        master_address?: string;
        /** @description Id of a files item */
        file?: string | null;
      };
      /** @description Flat form of addresses.resolver_address (the spec's PATCH body) */
      resolver_address?: $Write<string>;
      /** @description Flat form of addresses.master_address (the spec's PATCH body) */
      master_address?: $Write<string>;
      /** @description Flat form of addresses.file (the spec's PATCH body) */
      file?: $Write<string | null>;
    };
    /** @description Scheduled remote executions. Every field is present unless a projection leaves it out; the meta fields and _links always are. */
    Task: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      /** @enum {string} */
      salt_client?: 'local' | 'local_async' | 'local_batch';
      name?: string;
      fun?: string;
      kwarg?: {
        [key: string]: unknown;
      };
      arg?: string[];
      /**
       * @description UTC; "YYYY-MM-DD HH:MM" accepted. RFC 1123 date
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      start?: string;
      /** @description RFC 1123 date */
      end?: string | null;
      /** @enum {string} */
      status?: 'scheduled' | 'paused' | 'finished';
      tgt?: string[];
      /** @description Seconds between runs */
      interval?: number | null;
      /** @description Cron expression (UTC), instead of interval */
      cron?: string | null;
      /** @description RFC 1123 date */
      next?: $Read<string | null>;
      count_of_execution?: $Read<number>;
      /** @description RFC 1123 date */
      last_run?: $Read<string | null>;
      last_jid?: $Read<string | null>;
      last_error?: $Read<string | null>;
      _links: components['schemas']['TaskLinks'];
    };
    /** @description self always; parent and collection on item GETs; related when a reference has a value */
    TaskLinks: {
      /**
       * @example {
       *       "title": "Task",
       *       "href": "tasks/6566d7e2a1b2c3d4e5f60718"
       *     }
       */
      self: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent?: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "tasks",
       *       "href": "tasks"
       *     }
       */
      collection?: components['schemas']['Link'];
    };
    TaskWritten: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      _links: components['schemas']['TaskLinks'];
      /** @constant */
      _status: 'OK';
    };
    /** @description A page of tasks */
    TasksPage: {
      _items: components['schemas']['Task'][];
      _links: components['schemas']['CollectionLinks'];
      _meta: components['schemas']['Meta'];
    };
    TaskCreate: {
      /**
       * @description Default: "local_async"
       * @example local_async
       * @enum {string}
       */
      salt_client?: 'local' | 'local_async' | 'local_batch';
      name: string;
      fun: string;
      /**
       * @description Default: {}
       * @example {}
       */
      kwarg?: {
        [key: string]: unknown;
      };
      /**
       * @description Default: []
       * @example []
       */
      arg?: string[];
      /**
       * @description UTC; "YYYY-MM-DD HH:MM" accepted. RFC 1123, ISO 8601, or "YYYY-MM-DD HH:MM" (UTC)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       * @example 2026-11-25 21:08
       */
      start: string;
      /** @description RFC 1123, ISO 8601, or "YYYY-MM-DD HH:MM" (UTC) */
      end?: string | null;
      /**
       * @description Default: "scheduled"
       * @example scheduled
       * @enum {string}
       */
      status?: 'scheduled' | 'paused' | 'finished';
      tgt: string[];
      /** @description Seconds between runs */
      interval?: number | null;
      /** @description Cron expression (UTC), instead of interval */
      cron?: string | null;
      /** @description Server-set: refused (422) in a body */
      next?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      count_of_execution?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      last_run?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      last_jid?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      last_error?: $Read<unknown>;
    };
    TaskPatch: {
      /** @enum {string} */
      salt_client?: 'local' | 'local_async' | 'local_batch';
      name?: string;
      fun?: string;
      kwarg?: {
        [key: string]: unknown;
      };
      arg?: string[];
      /**
       * @description UTC; "YYYY-MM-DD HH:MM" accepted. RFC 1123, ISO 8601, or "YYYY-MM-DD HH:MM" (UTC)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       * @example 2026-11-25 21:08
       */
      start?: string;
      /** @description RFC 1123, ISO 8601, or "YYYY-MM-DD HH:MM" (UTC) */
      end?: string | null;
      /** @enum {string} */
      status?: 'scheduled' | 'paused' | 'finished';
      tgt?: string[];
      /** @description Seconds between runs */
      interval?: number | null;
      /** @description Cron expression (UTC), instead of interval */
      cron?: string | null;
      /** @description Server-set: refused (422) in a body */
      next?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      count_of_execution?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      last_run?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      last_jid?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      last_error?: $Read<unknown>;
    };
    TaskUpdate: {
      /** @description The item id */
      _id: string;
      /** @enum {string} */
      salt_client?: 'local' | 'local_async' | 'local_batch';
      name?: string;
      fun?: string;
      kwarg?: {
        [key: string]: unknown;
      };
      arg?: string[];
      /**
       * @description UTC; "YYYY-MM-DD HH:MM" accepted. RFC 1123, ISO 8601, or "YYYY-MM-DD HH:MM" (UTC)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       * @example 2026-11-25 21:08
       */
      start?: string;
      /** @description RFC 1123, ISO 8601, or "YYYY-MM-DD HH:MM" (UTC) */
      end?: string | null;
      /** @enum {string} */
      status?: 'scheduled' | 'paused' | 'finished';
      tgt?: string[];
      /** @description Seconds between runs */
      interval?: number | null;
      /** @description Cron expression (UTC), instead of interval */
      cron?: string | null;
      /** @description Server-set: refused (422) in a body */
      next?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      count_of_execution?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      last_run?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      last_jid?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      last_error?: $Read<unknown>;
    };
    /** @description Patches from the master's file server. PATCH changes the local description. Every field is present unless a projection leaves it out; the meta fields and _links always are. */
    Update: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      name?: $Read<string>;
      text?: $Read<string>;
      description?: string;
      _links: components['schemas']['UpdateLinks'];
    };
    /** @description self always; parent and collection on item GETs; related when a reference has a value */
    UpdateLinks: {
      /**
       * @example {
       *       "title": "Update",
       *       "href": "updates/6566d7e2a1b2c3d4e5f60718"
       *     }
       */
      self: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent?: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "updates",
       *       "href": "updates"
       *     }
       */
      collection?: components['schemas']['Link'];
    };
    UpdateWritten: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      _links: components['schemas']['UpdateLinks'];
      /** @constant */
      _status: 'OK';
    };
    /** @description A page of updates */
    UpdatesPage: {
      _items: components['schemas']['Update'][];
      _links: components['schemas']['CollectionLinks'];
      _meta: components['schemas']['Meta'];
    };
    UpdatePatch: {
      description?: string;
      /** @description Server-set: refused (422) in a body */
      name?: $Read<unknown>;
      /** @description Server-set: refused (422) in a body */
      text?: $Read<unknown>;
    };
    /** @description VPN servers. The password is stored encrypted and read back masked. Every field is present unless a projection leaves it out; the meta fields and _links always are. */
    VpnManager: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      name?: string;
      server_address?: string;
      /** @description URL of the web console, where the server also answers its API: http or https, no credentials, no link-local address (nor a private one when the service refuses them) */
      dashboard_address?: string;
      username?: string;
      /**
       * @description Secret: accepted on write, always read back as "********".
       * @constant
       */
      password?: '********';
      _links: components['schemas']['VpnManagerLinks'];
    };
    /** @description Vpn_manager as embedded in another item (embedded=...): no _links, no list-hidden fields. */
    VpnManagerEmbedded: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      name?: string;
      server_address?: string;
      /** @description URL of the web console, where the server also answers its API: http or https, no credentials, no link-local address (nor a private one when the service refuses them) */
      dashboard_address?: string;
      username?: string;
      /**
       * @description Secret: accepted on write, always read back as "********".
       * @constant
       */
      password?: '********';
    };
    /** @description self always; parent and collection on item GETs; related when a reference has a value */
    VpnManagerLinks: {
      /**
       * @example {
       *       "title": "Vpn_manager",
       *       "href": "vpn_managers/6566d7e2a1b2c3d4e5f60718"
       *     }
       */
      self: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent?: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "vpn_managers",
       *       "href": "vpn_managers"
       *     }
       */
      collection?: components['schemas']['Link'];
    };
    VpnManagerWritten: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      _links: components['schemas']['VpnManagerLinks'];
      /** @constant */
      _status: 'OK';
    };
    /** @description A page of vpn_managers */
    VpnManagersPage: {
      _items: components['schemas']['VpnManager'][];
      _links: components['schemas']['CollectionLinks'];
      _meta: components['schemas']['Meta'];
    };
    VpnManagerCreate: {
      name: string;
      server_address: string;
      /** @description URL of the web console, where the server also answers its API: http or https, no credentials, no link-local address (nor a private one when the service refuses them) */
      dashboard_address: string;
      username: string;
      /** @description Secret: stored encrypted, read back masked */
      password: string;
    };
    VpnManagerPatch: {
      name?: string;
      server_address?: string;
      /** @description URL of the web console, where the server also answers its API: http or https, no credentials, no link-local address (nor a private one when the service refuses them) */
      dashboard_address?: string;
      username?: string;
      /** @description Secret: stored encrypted, read back masked */
      password?: string;
    };
    /** @description VPN organizations, each on one VPN manager: created and deleted on its VPN server. Every field is present unless a projection leaves it out; the meta fields and _links always are. */
    VpnOrganization: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      name?: string;
      vpn_manager?: string | components['schemas']['VpnManagerEmbedded'] | null;
      /** @description The organization on the VPN server (its record at creation or the last reconcile); on POST, `name` and `auth_api` are sent to the server */
      vpnsrv_representation?: {
        auth_api?: boolean;
        name?: string;
        auth_token?: '********' | null;
        user_count?: number;
        auth_secret?: '********' | null;
        id?: string;
        cipher_type?: string;
      } & {
        [key: string]: unknown;
      };
      cipher_type?: string;
      type?: number;
      /** @description The last reconcile could not use the manager (down, too slow, or refusing the credentials) */
      unreachable?: $Read<boolean>;
      _links: components['schemas']['VpnOrganizationLinks'];
    };
    /** @description Vpn_organization as embedded in another item (embedded=...): no _links, no list-hidden fields. */
    VpnOrganizationEmbedded: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      name?: string;
      /** @description Id of a vpn_managers item */
      vpn_manager?: string;
      /** @description The organization on the VPN server (its record at creation or the last reconcile); on POST, `name` and `auth_api` are sent to the server */
      vpnsrv_representation?: {
        auth_api?: boolean;
        name?: string;
        auth_token?: '********' | null;
        user_count?: number;
        auth_secret?: '********' | null;
        id?: string;
        cipher_type?: string;
      } & {
        [key: string]: unknown;
      };
      cipher_type?: string;
      type?: number;
      /** @description The last reconcile could not use the manager (down, too slow, or refusing the credentials) */
      unreachable?: $Read<boolean>;
    };
    /** @description self always; parent and collection on item GETs; related when a reference has a value */
    VpnOrganizationLinks: {
      /**
       * @example {
       *       "title": "Vpn_organization",
       *       "href": "vpn_organizations/6566d7e2a1b2c3d4e5f60718"
       *     }
       */
      self: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "home",
       *       "href": "/"
       *     }
       */
      parent?: components['schemas']['Link'];
      /**
       * @example {
       *       "title": "vpn_organizations",
       *       "href": "vpn_organizations"
       *     }
       */
      collection?: components['schemas']['Link'];
      related?: components['schemas']['VpnOrganizationRelated'];
    };
    VpnOrganizationWritten: {
      /**
       * @description The item id
       * @example 6566d7e2a1b2c3d4e5f60718
       */
      _id: $Read<string>;
      /**
       * @description Creation time (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _created: $Read<string>;
      /**
       * @description Last change (RFC 1123)
       * @example Wed, 25 Nov 2026 21:08:02 GMT
       */
      _updated: $Read<string>;
      /**
       * @description Version of the item: send it back in If-Match to write only that version
       * @example c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c
       */
      _etag: $Read<string>;
      _links: components['schemas']['VpnOrganizationLinks'];
      /** @constant */
      _status: 'OK';
    };
    /** @description A page of vpn_organizations */
    VpnOrganizationsPage: {
      _items: components['schemas']['VpnOrganization'][];
      _links: components['schemas']['CollectionLinks'];
      _meta: components['schemas']['Meta'];
    };
    /** @description Links to the items the references name (only references that have a value) */
    VpnOrganizationRelated: {
      /** @description The vpn_managers item vpn_manager names */
      vpn_manager?: components['schemas']['Link'];
    };
    VpnOrganizationCreate: {
      name: string;
      /** @description Id of a vpn_managers item */
      vpn_manager: string;
      /**
       * @description The organization on the VPN server (its record at creation or the last reconcile); on POST, `name` and `auth_api` are sent to the server. Default: {}
       * @example {}
       */
      vpnsrv_representation?: {
        auth_api?: boolean;
        name?: string;
        /** @description Secret: stored encrypted, read back masked */
        auth_token?: string | null;
        user_count?: number;
        /** @description Secret: stored encrypted, read back masked */
        auth_secret?: string | null;
        id?: string;
        cipher_type?: string;
      } & {
        [key: string]: unknown;
      };
      /**
       * @description Default: "rsa"
       * @example rsa
       */
      cipher_type?: string;
      /**
       * @description Default: 6
       * @example 6
       */
      type?: number;
      /** @description Server-set: refused (422) in a body */
      unreachable?: $Read<unknown>;
    };
  };
  responses: {
    /** @description Bad request: a malformed query parameter or body (the message names it) */
    Error400: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description No token, or an unknown one (also: an invalid or expired media link) */
    Error401: {
      headers: {
        'WWW-Authenticate': components['headers']['WWWAuthenticate'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The token's role is below the one this operation (or one of its parameters) needs, or the server's policy refuses the call */
    Error403: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description No such item (or it is hidden by soft delete) */
    Error404: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Conflict: a duplicate of a unique field (named in _issues), an item still referred to, or a state that forbids the change */
    Error409: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description If-Match names another version of the item */
    Error412: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The body (or an upload, or a bulk insert) is too large */
    Error413: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The body is not of a media type this operation accepts */
    Error415: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The body failed validation: _issues names each field (nested like the document) */
    Error422: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Rate limit of the token exceeded (RATE_LIMIT_WRITES_PER_MIN, RATE_LIMIT_EXEC_PER_MIN), or its budget of large reads in flight */
    Error429: {
      headers: {
        'Retry-After': components['headers']['RetryAfter'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Internal server error (no detail; the log has it) */
    Error500: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description A peer (the Salt master or a VPN server) answered with an error */
    Error502: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The store, the master or a VPN server is unavailable or not configured */
    Error503: {
      headers: {
        'Retry-After': components['headers']['RetryAfter'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description A peer (the Salt master or a VPN server) did not answer in time */
    Error504: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The body failed validation: _issues names each field; a bulk insert (a JSON array) answers _items, one entry per document */
    Error422Bulk: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['CreateError'];
      };
    };
  };
  parameters: {
    /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
    where: string;
    /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
    sort: string;
    /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
    projection: string;
    /** @description Page number */
    page: number;
    /** @description Items per page, capped by the server's PAGINATION_LIMIT */
    max_results: number;
    /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
    IfMatch: string;
    /** @description The ETag of a cached copy: 304 when it is still current */
    IfNoneMatch: string;
    /** @description The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since */
    IfModifiedSince: string;
  };
  requestBodies: never;
  headers: {
    /** @description The item's version, quoted ("<_etag>"); a bulk create answers none */
    ETag: string;
    /** @description The newest _updated of the answer (RFC 1123) */
    LastModified: string;
    /** @description Path of the created item (/api/<resource>/<id>), or of the started job */
    Location: string;
    /** @description Items matching the query, as _meta.total */
    TotalCount: number;
    /** @description Seconds to wait before trying again */
    RetryAfter: number;
    /** @description Bearer realm="fleet-api" */
    WWWAuthenticate: string;
    /** @description attachment or inline, with the file name (RFC 8187 filename*) */
    ContentDisposition: string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getRoot: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Found: the home document is at /api/ */
      302: {
        headers: {
          /** @description /api/ */
          Location?: '/api/';
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Healthy */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Health'];
        };
      };
      500: components['responses']['Error500'];
      /** @description The store cannot be read or written */
      503: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Health'];
        };
      };
    };
  };
  getReadiness: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Serving: ok or degraded */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Readiness'];
        };
      };
      500: components['responses']['Error500'];
      /** @description The store cannot be read or written */
      503: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Readiness'];
        };
      };
    };
  };
  getOpenApiDocument: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI 3.1 document */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            openapi: '3.1.0';
            info: Record<string, never>;
            paths: Record<string, never>;
          };
        };
      };
      500: components['responses']['Error500'];
    };
  };
  getOpenApiDocumentAlias: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI 3.1 document */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            openapi: '3.1.0';
            info: Record<string, never>;
            paths: Record<string, never>;
          };
        };
      };
      500: components['responses']['Error500'];
    };
  };
  getHome: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One link per resource */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Home'];
        };
      };
      401: components['responses']['Error401'];
      500: components['responses']['Error500'];
    };
  };
  getMedia: {
    parameters: {
      query?: {
        /** @description Signed link: its expiry (unix seconds) */
        expires?: string;
        /** @description Signed link: its signature */
        signature?: string;
      };
      header?: never;
      path: {
        /** @description The media id (from a media field's link) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file, in its own media type */
      200: {
        headers: {
          'Content-Disposition': components['headers']['ContentDisposition'];
          [name: string]: unknown;
        };
        content: {
          '*/*': string;
        };
      };
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  listActions: {
    parameters: {
      query?: {
        /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
        where?: components['parameters']['where'];
        /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
        sort?: components['parameters']['sort'];
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). References of actions: host. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description Page number */
        page?: components['parameters']['page'];
        /** @description Items per page, capped by the server's PAGINATION_LIMIT */
        max_results?: components['parameters']['max_results'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of actions */
      200: {
        headers: {
          'X-Total-Count': components['headers']['TotalCount'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ActionsPage'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getAction: {
    parameters: {
      query?: {
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). References of actions: host. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
      };
      header?: {
        /** @description The ETag of a cached copy: 304 when it is still current */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /** @description The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since */
        'If-Modified-Since'?: components['parameters']['IfModifiedSince'];
      };
      path: {
        /** @description The action's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The action */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Action'];
        };
      };
      /** @description Not modified: the cached copy is current */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  listAlerts: {
    parameters: {
      query?: {
        /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
        where?: components['parameters']['where'];
        /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
        sort?: components['parameters']['sort'];
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). alerts has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description Page number */
        page?: components['parameters']['page'];
        /** @description Items per page, capped by the server's PAGINATION_LIMIT */
        max_results?: components['parameters']['max_results'];
        /** @description true or 1: the returned alerts are marked read (stored read: true) and answered so; false or 0 (the default): they are left as they are (needs role operator or higher) */
        mark_as_read?: true | false | 1 | 0;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of alerts */
      200: {
        headers: {
          'X-Total-Count': components['headers']['TotalCount'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertsPage'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  createAlert: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AlertCreate'] | components['schemas']['AlertCreate'][];
        'application/x-www-form-urlencoded': components['schemas']['AlertCreate'];
      };
    };
    responses: {
      /** @description Created (a bulk insert of several documents: _items, in order) */
      201: {
        headers: {
          Location: components['headers']['Location'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['AlertWritten']
            | {
                /** @constant */
                _status: 'OK';
                _items: components['schemas']['AlertWritten'][];
              };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422Bulk'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getAlert: {
    parameters: {
      query?: {
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). alerts has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description true or 1: the returned alerts are marked read (stored read: true) and answered so; false or 0 (the default): they are left as they are (needs role operator or higher) */
        mark_as_read?: true | false | 1 | 0;
      };
      header?: {
        /** @description The ETag of a cached copy: 304 when it is still current */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /** @description The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since */
        'If-Modified-Since'?: components['parameters']['IfModifiedSince'];
      };
      path: {
        /** @description The alert's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The alert */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Alert'];
        };
      };
      /** @description Not modified: the cached copy is current */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  deleteAlert: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The alert's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      412: components['responses']['Error412'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  patchAlert: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The alert's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AlertPatch'];
        'application/x-www-form-urlencoded': components['schemas']['AlertPatch'];
      };
    };
    responses: {
      /** @description Written */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertWritten'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      412: components['responses']['Error412'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  listFailedPatches: {
    parameters: {
      query?: {
        /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
        where?: components['parameters']['where'];
        /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
        sort?: components['parameters']['sort'];
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). References of failed_patches: host. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description Page number */
        page?: components['parameters']['page'];
        /** @description Items per page, capped by the server's PAGINATION_LIMIT */
        max_results?: components['parameters']['max_results'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of failed_patches */
      200: {
        headers: {
          'X-Total-Count': components['headers']['TotalCount'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['FailedPatchesPage'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getFailedPatch: {
    parameters: {
      query?: {
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). References of failed_patches: host. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
      };
      header?: {
        /** @description The ETag of a cached copy: 304 when it is still current */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /** @description The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since */
        'If-Modified-Since'?: components['parameters']['IfModifiedSince'];
      };
      path: {
        /** @description The failed_patch's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The failed_patch */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['FailedPatch'];
        };
      };
      /** @description Not modified: the cached copy is current */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  listFiles: {
    parameters: {
      query?: {
        /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
        where?: components['parameters']['where'];
        /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
        sort?: components['parameters']['sort'];
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). files has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description Page number */
        page?: components['parameters']['page'];
        /** @description Items per page, capped by the server's PAGINATION_LIMIT */
        max_results?: components['parameters']['max_results'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of files */
      200: {
        headers: {
          'X-Total-Count': components['headers']['TotalCount'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['FilesPage'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  createFile: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': components['schemas']['FileUpload'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          Location: components['headers']['Location'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['FileWritten'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getFile: {
    parameters: {
      query?: {
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). files has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
      };
      header?: never;
      path: {
        /** @description The file's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['File'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  deleteFile: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The file's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      412: components['responses']['Error412'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  listGroups: {
    parameters: {
      query?: {
        /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
        where?: components['parameters']['where'];
        /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
        sort?: components['parameters']['sort'];
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). References of groups: subgroups. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description Page number */
        page?: components['parameters']['page'];
        /** @description Items per page, capped by the server's PAGINATION_LIMIT */
        max_results?: components['parameters']['max_results'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of groups */
      200: {
        headers: {
          'X-Total-Count': components['headers']['TotalCount'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GroupsPage'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  createGroup: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['GroupCreate'] | components['schemas']['GroupCreate'][];
        'application/x-www-form-urlencoded': components['schemas']['GroupCreate'];
      };
    };
    responses: {
      /** @description Created (a bulk insert of several documents: _items, in order) */
      201: {
        headers: {
          Location: components['headers']['Location'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['GroupWritten']
            | {
                /** @constant */
                _status: 'OK';
                _items: components['schemas']['GroupWritten'][];
              };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      409: components['responses']['Error409'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422Bulk'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  deleteGroups: {
    parameters: {
      query: {
        /** @description {"type": n}, {"type": [n, ...]} or {"type": {"$in": [n, ...]}} */
        where: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done, no content */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      409: components['responses']['Error409'];
      413: components['responses']['Error413'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  getGroup: {
    parameters: {
      query?: {
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). References of groups: subgroups. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
      };
      header?: {
        /** @description The ETag of a cached copy: 304 when it is still current */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /** @description The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since */
        'If-Modified-Since'?: components['parameters']['IfModifiedSince'];
      };
      path: {
        /** @description The group's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The group */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Group'];
        };
      };
      /** @description Not modified: the cached copy is current */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  postGroupsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The group's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description The Salt client, sent to salt-api as `client`
           * @enum {string}
           */
          exec_client: 'local' | 'local_async' | 'local_batch';
          /** @description The Salt function: module.function */
          fun: string;
          /** @description Positional arguments */
          arg?: unknown[];
          /** @description Keyword arguments */
          kwarg?: {
            [key: string]: unknown;
          };
          /** @description Job metadata (the token name is added as fleet_user) */
          metadata?: {
            [key: string]: unknown;
          };
        } & {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description The job id (jid) */
            task_id: string;
            /**
             * @description success: every target answered; partial: some did not; failed: none did
             * @enum {string}
             */
            status: 'success' | 'partial' | 'failed';
            return: {
              /** @description One object per answer: host name -> its output */
              return: {
                [key: string]: unknown;
              }[];
            };
          };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      413: components['responses']['Error413'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  deleteGroup: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The group's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      412: components['responses']['Error412'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  patchGroup: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The group's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['GroupPatch'];
        'application/x-www-form-urlencoded': components['schemas']['GroupPatch'];
      };
    };
    responses: {
      /** @description Written */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GroupWritten'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      412: components['responses']['Error412'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  getGroupsByIdSubgroups: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': string[];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      422: components['responses']['Error422'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getGroupsByIdHostnames: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': string[];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      422: components['responses']['Error422'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  listHosts: {
    parameters: {
      query?: {
        /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
        where?: components['parameters']['where'];
        /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
        sort?: components['parameters']['sort'];
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). References of hosts: nodegroups, groups, last_action, vpn_organization. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description Page number */
        page?: components['parameters']['page'];
        /** @description Items per page, capped by the server's PAGINATION_LIMIT */
        max_results?: components['parameters']['max_results'];
        /** @description true or 1: soft-deleted items are shown too; false or 0 (the default): hidden */
        show_soft_deleted?: true | false | 1 | 0;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of hosts */
      200: {
        headers: {
          'X-Total-Count': components['headers']['TotalCount'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HostsPage'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getHost: {
    parameters: {
      query?: {
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). References of hosts: nodegroups, groups, last_action, vpn_organization. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description true or 1: soft-deleted items are shown too; false or 0 (the default): hidden */
        show_soft_deleted?: true | false | 1 | 0;
      };
      header?: {
        /** @description The ETag of a cached copy: 304 when it is still current */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /** @description The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since */
        'If-Modified-Since'?: components['parameters']['IfModifiedSince'];
      };
      path: {
        /** @description The host's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The host */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Host'];
        };
      };
      /** @description Not modified: the cached copy is current */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  postHostsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The host's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description The Salt client, sent to salt-api as `client`
           * @enum {string}
           */
          exec_client: 'local' | 'local_async' | 'local_batch';
          /** @description The Salt function: module.function */
          fun: string;
          /** @description Positional arguments */
          arg?: unknown[];
          /** @description Keyword arguments */
          kwarg?: {
            [key: string]: unknown;
          };
          /** @description Job metadata (the token name is added as fleet_user) */
          metadata?: {
            [key: string]: unknown;
          };
        } & {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description The job id (jid) */
            task_id: string;
            /**
             * @description success: every target answered; partial: some did not; failed: none did
             * @enum {string}
             */
            status: 'success' | 'partial' | 'failed';
            return: {
              /** @description One object per answer: host name -> its output */
              return: {
                [key: string]: unknown;
              }[];
            };
          };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      413: components['responses']['Error413'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  deleteHost: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The host's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      412: components['responses']['Error412'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  patchHost: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The host's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['HostPatch'];
        'application/x-www-form-urlencoded': components['schemas']['HostPatch'];
      };
    };
    responses: {
      /** @description Written */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HostWritten'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      412: components['responses']['Error412'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  getHostsStatisticsOnline: {
    parameters: {
      query?: {
        /** @description The period: start and end, RFC 1123 or ISO 8601 (range[]=<start>&range[]=<end>; range[0]/range[1] or range=<start>,<end> too). Default: the last 24 hours */
        'range[]'?: string[];
        /** @description The start of the period (with range[1]) */
        'range[0]'?: string;
        /** @description The end of the period (with range[0]) */
        'range[1]'?: string;
        /** @description The period as range=<start>&range=<end> or range=<start>,<end> */
        range?: string | string[];
        /** @description JSON filter on the host summaries of the snapshots (fields of hosts_statistic hosts: status, version, nodegroups, ...) */
        where?: string;
        /** @description Seconds: the least gap between two points returned (the first point is always kept) */
        interval?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description The snapshot time (RFC 1123) */
            timestamp: string;
            _id: null;
            hostnames: {
              up: number;
              down: number;
            };
          }[];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      409: components['responses']['Error409'];
      422: components['responses']['Error422'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getHostsStatisticsUniqueOnline: {
    parameters: {
      query?: {
        /** @description The period: start and end, RFC 1123 or ISO 8601 (range[]=<start>&range[]=<end>; range[0]/range[1] or range=<start>,<end> too). Default: the last 24 hours */
        'range[]'?: string[];
        /** @description The start of the period (with range[1]) */
        'range[0]'?: string;
        /** @description The end of the period (with range[0]) */
        'range[1]'?: string;
        /** @description The period as range=<start>&range=<end> or range=<start>,<end> */
        range?: string | string[];
        /** @description JSON filter on the host summaries of the snapshots (fields of hosts_statistic hosts: status, version, nodegroups, ...) */
        where?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            hostnames: {
              /** @description Up at least once */
              up: string[];
              /** @description Every host seen in the period */
              all: string[];
            };
          }[];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      409: components['responses']['Error409'];
      422: components['responses']['Error422'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getHostsStatisticsUniqueUpdated: {
    parameters: {
      query?: {
        /** @description The period: start and end, RFC 1123 or ISO 8601 (range[]=<start>&range[]=<end>; range[0]/range[1] or range=<start>,<end> too). Default: the last 24 hours */
        'range[]'?: string[];
        /** @description The start of the period (with range[1]) */
        'range[0]'?: string;
        /** @description The end of the period (with range[0]) */
        'range[1]'?: string;
        /** @description The period as range=<start>&range=<end> or range=<start>,<end> */
        range?: string | string[];
        /** @description JSON filter on the host summaries of the snapshots (fields of hosts_statistic hosts: status, version, nodegroups, ...) */
        where?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            hostnames: {
              /** @description last_stateapply in the period */
              updated: string[];
              /** @description Every host seen in the period */
              all: string[];
            };
          }[];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      409: components['responses']['Error409'];
      422: components['responses']['Error422'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getHostsStatisticsUniqueDistUpgraded: {
    parameters: {
      query?: {
        /** @description The period: start and end, RFC 1123 or ISO 8601 (range[]=<start>&range[]=<end>; range[0]/range[1] or range=<start>,<end> too). Default: the last 24 hours */
        'range[]'?: string[];
        /** @description The start of the period (with range[1]) */
        'range[0]'?: string;
        /** @description The end of the period (with range[0]) */
        'range[1]'?: string;
        /** @description The period as range=<start>&range=<end> or range=<start>,<end> */
        range?: string | string[];
        /** @description JSON filter on the host summaries of the snapshots (fields of hosts_statistic hosts: status, version, nodegroups, ...) */
        where?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            hostnames: {
              /** @description last_distupgrade in the period */
              distUpgraded: string[];
              /** @description Every host seen in the period */
              all: string[];
            };
          }[];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      409: components['responses']['Error409'];
      422: components['responses']['Error422'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getHostsStatisticsNewHosts: {
    parameters: {
      query?: {
        /** @description The period: start and end, RFC 1123 or ISO 8601 (range[]=<start>&range[]=<end>; range[0]/range[1] or range=<start>,<end> too). Default: the last 24 hours */
        'range[]'?: string[];
        /** @description The start of the period (with range[1]) */
        'range[0]'?: string;
        /** @description The end of the period (with range[0]) */
        'range[1]'?: string;
        /** @description The period as range=<start>&range=<end> or range=<start>,<end> */
        range?: string | string[];
        /** @description JSON filter on the host summaries of the snapshots (fields of hosts_statistic hosts: status, version, nodegroups, ...) */
        where?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            hostnames: {
              /** @description First seen in the period */
              new: string[];
            };
          }[];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      409: components['responses']['Error409'];
      422: components['responses']['Error422'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  postHostsByIdAllStatus: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': {
          /** @description start / stop collecting for the host, stop_all for every host; absent: one sample now */
          action?: ('start' | 'stop' | 'stop_all') | null;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      413: components['responses']['Error413'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  getHostsByIdVpnProfile: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file, as an attachment */
      200: {
        headers: {
          'Content-Disposition': components['headers']['ContentDisposition'];
          [name: string]: unknown;
        };
        content: {
          '*/*': string;
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      422: components['responses']['Error422'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  listHostsStatistic: {
    parameters: {
      query?: {
        /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
        where?: components['parameters']['where'];
        /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
        sort?: components['parameters']['sort'];
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). hosts_statistic has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description Page number */
        page?: components['parameters']['page'];
        /** @description Items per page, capped by the server's PAGINATION_LIMIT */
        max_results?: components['parameters']['max_results'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of hosts_statistic */
      200: {
        headers: {
          'X-Total-Count': components['headers']['TotalCount'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HostsStatisticPage'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getHostsStatistic: {
    parameters: {
      query?: {
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). hosts_statistic has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
      };
      header?: {
        /** @description The ETag of a cached copy: 304 when it is still current */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /** @description The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since */
        'If-Modified-Since'?: components['parameters']['IfModifiedSince'];
      };
      path: {
        /** @description The hosts_statistic's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The hosts_statistic */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HostsStatistic'];
        };
      };
      /** @description Not modified: the cached copy is current */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  listNodegroups: {
    parameters: {
      query?: {
        /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
        where?: components['parameters']['where'];
        /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
        sort?: components['parameters']['sort'];
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). nodegroups has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description Page number */
        page?: components['parameters']['page'];
        /** @description Items per page, capped by the server's PAGINATION_LIMIT */
        max_results?: components['parameters']['max_results'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of nodegroups */
      200: {
        headers: {
          'X-Total-Count': components['headers']['TotalCount'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NodegroupsPage'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getNodegroup: {
    parameters: {
      query?: {
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). nodegroups has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
      };
      header?: {
        /** @description The ETag of a cached copy: 304 when it is still current */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /** @description The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since */
        'If-Modified-Since'?: components['parameters']['IfModifiedSince'];
      };
      path: {
        /** @description The nodegroup's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The nodegroup */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Nodegroup'];
        };
      };
      /** @description Not modified: the cached copy is current */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  listSettings: {
    parameters: {
      query?: {
        /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
        where?: components['parameters']['where'];
        /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
        sort?: components['parameters']['sort'];
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). settings has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description Page number */
        page?: components['parameters']['page'];
        /** @description Items per page, capped by the server's PAGINATION_LIMIT */
        max_results?: components['parameters']['max_results'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of settings */
      200: {
        headers: {
          'X-Total-Count': components['headers']['TotalCount'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SettingsPage'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getSetting: {
    parameters: {
      query?: {
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). settings has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
      };
      header?: {
        /** @description The ETag of a cached copy: 304 when it is still current */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /** @description The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since */
        'If-Modified-Since'?: components['parameters']['IfModifiedSince'];
      };
      path: {
        /** @description The setting's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The setting */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Setting'];
        };
      };
      /** @description Not modified: the cached copy is current */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  patchSetting: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The setting's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SettingPatch'];
        'application/x-www-form-urlencoded': components['schemas']['SettingPatch'];
      };
    };
    responses: {
      /** @description Written */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SettingWritten'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      412: components['responses']['Error412'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  listTasks: {
    parameters: {
      query?: {
        /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
        where?: components['parameters']['where'];
        /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
        sort?: components['parameters']['sort'];
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). tasks has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description Page number */
        page?: components['parameters']['page'];
        /** @description Items per page, capped by the server's PAGINATION_LIMIT */
        max_results?: components['parameters']['max_results'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of tasks */
      200: {
        headers: {
          'X-Total-Count': components['headers']['TotalCount'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TasksPage'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  updateTask: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TaskUpdate'];
        'application/x-www-form-urlencoded': components['schemas']['TaskUpdate'];
      };
    };
    responses: {
      /** @description Written */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskWritten'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      412: components['responses']['Error412'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  createTask: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TaskCreate'] | components['schemas']['TaskCreate'][];
        'application/x-www-form-urlencoded': components['schemas']['TaskCreate'];
      };
    };
    responses: {
      /** @description Created (a bulk insert of several documents: _items, in order) */
      201: {
        headers: {
          Location: components['headers']['Location'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['TaskWritten']
            | {
                /** @constant */
                _status: 'OK';
                _items: components['schemas']['TaskWritten'][];
              };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      409: components['responses']['Error409'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422Bulk'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  getTask: {
    parameters: {
      query?: {
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). tasks has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
      };
      header?: {
        /** @description The ETag of a cached copy: 304 when it is still current */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /** @description The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since */
        'If-Modified-Since'?: components['parameters']['IfModifiedSince'];
      };
      path: {
        /** @description The task's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The task */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Task'];
        };
      };
      /** @description Not modified: the cached copy is current */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  deleteTask: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The task's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      412: components['responses']['Error412'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  patchTask: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The task's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TaskPatch'];
        'application/x-www-form-urlencoded': components['schemas']['TaskPatch'];
      };
    };
    responses: {
      /** @description Written */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskWritten'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      412: components['responses']['Error412'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  patchTasksByIdByStatus: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The item's _id */
        id: string;
        /** @description The status */
        status: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Written */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskWritten'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      412: components['responses']['Error412'];
      413: components['responses']['Error413'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  listUpdates: {
    parameters: {
      query?: {
        /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
        where?: components['parameters']['where'];
        /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
        sort?: components['parameters']['sort'];
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). updates has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description Page number */
        page?: components['parameters']['page'];
        /** @description Items per page, capped by the server's PAGINATION_LIMIT */
        max_results?: components['parameters']['max_results'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of updates */
      200: {
        headers: {
          'X-Total-Count': components['headers']['TotalCount'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UpdatesPage'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  postUpdates: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            _status: 'OK';
            created: number;
            updated: number;
            names: string[];
          };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      409: components['responses']['Error409'];
      413: components['responses']['Error413'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  getUpdate: {
    parameters: {
      query?: {
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). updates has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
      };
      header?: {
        /** @description The ETag of a cached copy: 304 when it is still current */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /** @description The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since */
        'If-Modified-Since'?: components['parameters']['IfModifiedSince'];
      };
      path: {
        /** @description The update's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The update */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Update'];
        };
      };
      /** @description Not modified: the cached copy is current */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  patchUpdate: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The update's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdatePatch'];
        'application/x-www-form-urlencoded': components['schemas']['UpdatePatch'];
      };
    };
    responses: {
      /** @description Written */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UpdateWritten'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      412: components['responses']['Error412'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  listVpnManagers: {
    parameters: {
      query?: {
        /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
        where?: components['parameters']['where'];
        /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
        sort?: components['parameters']['sort'];
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). vpn_managers has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description Page number */
        page?: components['parameters']['page'];
        /** @description Items per page, capped by the server's PAGINATION_LIMIT */
        max_results?: components['parameters']['max_results'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of vpn_managers */
      200: {
        headers: {
          'X-Total-Count': components['headers']['TotalCount'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VpnManagersPage'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  createVpnManager: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json':
          components['schemas']['VpnManagerCreate'] | components['schemas']['VpnManagerCreate'][];
        'application/x-www-form-urlencoded': components['schemas']['VpnManagerCreate'];
      };
    };
    responses: {
      /** @description Created (a bulk insert of several documents: _items, in order) */
      201: {
        headers: {
          Location: components['headers']['Location'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['VpnManagerWritten']
            | {
                /** @constant */
                _status: 'OK';
                _items: components['schemas']['VpnManagerWritten'][];
              };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      409: components['responses']['Error409'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422Bulk'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  getVpnManager: {
    parameters: {
      query?: {
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). vpn_managers has no references. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
      };
      header?: {
        /** @description The ETag of a cached copy: 304 when it is still current */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /** @description The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since */
        'If-Modified-Since'?: components['parameters']['IfModifiedSince'];
      };
      path: {
        /** @description The vpn_manager's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The vpn_manager */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VpnManager'];
        };
      };
      /** @description Not modified: the cached copy is current */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  deleteVpnManager: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The vpn_manager's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      412: components['responses']['Error412'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  patchVpnManager: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The vpn_manager's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['VpnManagerPatch'];
        'application/x-www-form-urlencoded': components['schemas']['VpnManagerPatch'];
      };
    };
    responses: {
      /** @description Written */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VpnManagerWritten'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      412: components['responses']['Error412'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  postVpnManagersReconcile: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            _status: 'OK';
            managers: {
              _id: string;
              name: string;
              /** @description false: the manager could not be used (down, too slow, refusing the credentials); its organizations are marked unreachable */
              reachable: boolean;
              /** @description Why it could not be used */
              error?: string;
              organizations: {
                checked: number;
                /** @description In the store, missing on the server: created again (their accounts too) */
                recreated: number;
                /** @description Stored representation updated from the server */
                refreshed: number;
                /** @description On the server, not in the store: reported (alert), left alone */
                extra: number;
              };
              accounts: {
                checked: number;
                recreated: number;
                refreshed: number;
                extra: number;
              };
              /** @description Repairs that failed (they are tried again on the next run) */
              failures: string[];
            }[];
          };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      409: components['responses']['Error409'];
      413: components['responses']['Error413'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  postVpnManagersByIdReconcile: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            _status: 'OK';
            managers: {
              _id: string;
              name: string;
              /** @description false: the manager could not be used (down, too slow, refusing the credentials); its organizations are marked unreachable */
              reachable: boolean;
              /** @description Why it could not be used */
              error?: string;
              organizations: {
                checked: number;
                /** @description In the store, missing on the server: created again (their accounts too) */
                recreated: number;
                /** @description Stored representation updated from the server */
                refreshed: number;
                /** @description On the server, not in the store: reported (alert), left alone */
                extra: number;
              };
              accounts: {
                checked: number;
                recreated: number;
                refreshed: number;
                extra: number;
              };
              /** @description Repairs that failed (they are tried again on the next run) */
              failures: string[];
            }[];
          };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      413: components['responses']['Error413'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  listVpnOrganizations: {
    parameters: {
      query?: {
        /** @description Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch) */
        where?: components['parameters']['where'];
        /** @description Fields to sort by, comma-separated; a leading - is descending (also Eve's [("field", -1)]) */
        sort?: components['parameters']['sort'];
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). References of vpn_organizations: vpn_manager. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
        /** @description Page number */
        page?: components['parameters']['page'];
        /** @description Items per page, capped by the server's PAGINATION_LIMIT */
        max_results?: components['parameters']['max_results'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of vpn_organizations */
      200: {
        headers: {
          'X-Total-Count': components['headers']['TotalCount'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VpnOrganizationsPage'];
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  createVpnOrganization: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json':
          components['schemas']['VpnOrganizationCreate'] | components['schemas']['VpnOrganizationCreate'][];
        'application/x-www-form-urlencoded': components['schemas']['VpnOrganizationCreate'];
      };
    };
    responses: {
      /** @description Created (a bulk insert of several documents: _items, in order) */
      201: {
        headers: {
          Location: components['headers']['Location'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['VpnOrganizationWritten']
            | {
                /** @constant */
                _status: 'OK';
                _items: components['schemas']['VpnOrganizationWritten'][];
              };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      409: components['responses']['Error409'];
      413: components['responses']['Error413'];
      415: components['responses']['Error415'];
      422: components['responses']['Error422Bulk'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  getVpnOrganization: {
    parameters: {
      query?: {
        /** @description JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items */
        projection?: components['parameters']['projection'];
        /** @description JSON object of references to replace by the items they name ({"field": 1}). References of vpn_organizations: vpn_manager. A single reference naming no visible item becomes null; such list entries are dropped */
        embedded?: string;
      };
      header?: {
        /** @description The ETag of a cached copy: 304 when it is still current */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /** @description The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since */
        'If-Modified-Since'?: components['parameters']['IfModifiedSince'];
      };
      path: {
        /** @description The vpn_organization's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The vpn_organization */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Last-Modified': components['headers']['LastModified'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VpnOrganization'];
        };
      };
      /** @description Not modified: the cached copy is current */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  deleteVpnOrganization: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only this version (the item's ETag / _etag); another version is a 412 */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description The vpn_organization's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      412: components['responses']['Error412'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  getGraphNotLinked: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            nodes: {
              /** @constant */
              category: 'group';
              /** @description 1 for a rule group (type 1), else 0 */
              type: 0 | 1;
              /** @description The group id */
              id: string;
              name: string;
              /** @description {} or the rule (regex / grain); a gateway carries its ip */
              info: {
                [key: string]: unknown;
              };
              value: 0 | 1;
              itemStyle: {
                /** @description CSS hex colour, fixed per group type */
                color: string;
              };
              symbolSize: 0 | 10;
            }[];
          };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      409: components['responses']['Error409'];
      422: components['responses']['Error422'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getGraphJobsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            _id: string;
            /** @constant */
            action: 'request_ips';
            /** @enum {string} */
            state: 'running' | 'done' | 'failed';
            /** @description The resolver, without its query */
            resolver: string;
            /** @description Hosts considered */
            total: number;
            /** @description Hosts probed (accepted key, up) */
            targeted: number;
            /** @description Hosts not probed: key not accepted, or down */
            skipped: number;
            /** @description Hosts probed so far */
            probed: number;
            resolved: number;
            failed: number;
            /** @description Resolved hosts behind a NAT */
            nat: number;
            /** @description Resolved hosts whose outward address is their own */
            direct: number;
            /** @description Ids of the gateway groups this run created (not linked) */
            gateways_created: string[];
            /** @description The first 100 failed hosts and why */
            failures: {
              host: string;
              reason: string;
            }[];
            /** @description Why the job stopped, when it failed */
            error: string | null;
            started: string;
            updated: string;
            finished: string | null;
            _links: {
              self: {
                title: string;
                href: string;
              };
            };
          };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      422: components['responses']['Error422'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getGraphById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            nodes: {
              /** @constant */
              category: 'group';
              /** @description 1 for a rule group (type 1), else 0 */
              type: 0 | 1;
              /** @description The group id */
              id: string;
              name: string;
              /** @description {} or the rule (regex / grain); a gateway carries its ip */
              info: {
                [key: string]: unknown;
              };
              value: 0 | 1;
              itemStyle: {
                /** @description CSS hex colour, fixed per group type */
                color: string;
              };
              symbolSize: 0 | 10;
            }[];
            edges: {
              /** @constant */
              type: 'groupLink';
              /** @description The parent group id */
              source: string;
              /** @description The subgroup id */
              target: string;
            }[];
          };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      422: components['responses']['Error422'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getGraphByIdNodes: {
    parameters: {
      query?: {
        /** @description {"type": n}: only the nodes of this node type */
        where?: string;
      };
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            nodes: {
              /** @constant */
              category: 'group';
              /** @description 1 for a rule group (type 1), else 0 */
              type: 0 | 1;
              /** @description The group id */
              id: string;
              name: string;
              /** @description {} or the rule (regex / grain); a gateway carries its ip */
              info: {
                [key: string]: unknown;
              };
              value: 0 | 1;
              itemStyle: {
                /** @description CSS hex colour, fixed per group type */
                color: string;
              };
              symbolSize: 0 | 10;
            }[];
          };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      422: components['responses']['Error422'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  getGraphByIdEdges: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The item's _id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            edges: {
              /** @constant */
              type: 'groupLink';
              /** @description The parent group id */
              source: string;
              /** @description The subgroup id */
              target: string;
            }[];
          };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      404: components['responses']['Error404'];
      409: components['responses']['Error409'];
      422: components['responses']['Error422'];
      500: components['responses']['Error500'];
      503: components['responses']['Error503'];
    };
  };
  postGraph: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @enum {string} */
          action: 'request_ips' | 'build_graph';
          /** @description request_ips only: URL of the IP resolver (http or https); default settings.addresses.resolver_address */
          ip_resolver?: string;
          /** @description build_graph only: the master name, the root group's name */
          master?: string;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | {
                _id: string;
                /** @constant */
                action: 'request_ips';
                /** @enum {string} */
                state: 'done' | 'failed';
                /** @description The resolver, without its query */
                resolver: string;
                /** @description Hosts considered */
                total: number;
                /** @description Hosts probed (accepted key, up) */
                targeted: number;
                /** @description Hosts not probed: key not accepted, or down */
                skipped: number;
                /** @description Hosts probed so far */
                probed: number;
                resolved: number;
                failed: number;
                /** @description Resolved hosts behind a NAT */
                nat: number;
                /** @description Resolved hosts whose outward address is their own */
                direct: number;
                /** @description Ids of the gateway groups this run created (not linked) */
                gateways_created: string[];
                /** @description The first 100 failed hosts and why */
                failures: {
                  host: string;
                  reason: string;
                }[];
                /** @description Why the job stopped, when it failed */
                error: string | null;
                started: string;
                updated: string;
                finished: string | null;
                _links: {
                  self: {
                    title: string;
                    href: string;
                  };
                };
                /** @constant */
                _status: 'OK';
              }
            | {
                /** @constant */
                _status: 'OK';
                /** @description The root group (type 2) */
                _id: string;
                name: string;
                /** @description The gateway groups (type 3), the root's subgroups */
                gateways: string[];
                /** @description The direct-attached group (type 4), the root's last subgroup */
                direct: string;
                _links: {
                  self: {
                    title: string;
                    href: string;
                  };
                };
              };
        };
      };
      /** @description Accepted: started, poll the Location */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            _id: string;
            /** @constant */
            action: 'request_ips';
            /** @enum {string} */
            state: 'running' | 'done' | 'failed';
            /** @description The resolver, without its query */
            resolver: string;
            /** @description Hosts considered */
            total: number;
            /** @description Hosts probed (accepted key, up) */
            targeted: number;
            /** @description Hosts not probed: key not accepted, or down */
            skipped: number;
            /** @description Hosts probed so far */
            probed: number;
            resolved: number;
            failed: number;
            /** @description Resolved hosts behind a NAT */
            nat: number;
            /** @description Resolved hosts whose outward address is their own */
            direct: number;
            /** @description Ids of the gateway groups this run created (not linked) */
            gateways_created: string[];
            /** @description The first 100 failed hosts and why */
            failures: {
              host: string;
              reason: string;
            }[];
            /** @description Why the job stopped, when it failed */
            error: string | null;
            started: string;
            updated: string;
            finished: string | null;
            _links: {
              self: {
                title: string;
                href: string;
              };
            };
            /** @constant */
            _status: 'OK';
          };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      409: components['responses']['Error409'];
      413: components['responses']['Error413'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
  postMasterSync: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            _status: 'OK';
          } & {
            [key: string]: unknown;
          };
        };
      };
      400: components['responses']['Error400'];
      401: components['responses']['Error401'];
      403: components['responses']['Error403'];
      409: components['responses']['Error409'];
      413: components['responses']['Error413'];
      422: components['responses']['Error422'];
      429: components['responses']['Error429'];
      500: components['responses']['Error500'];
      502: components['responses']['Error502'];
      503: components['responses']['Error503'];
      504: components['responses']['Error504'];
    };
  };
}
