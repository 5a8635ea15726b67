/**
 * hosts: the machines the master manages, keyed by minion id. Filled and kept current by the
 * fleet sync (no POST); PATCH sets the operator-owned fields; DELETE hides the host (soft delete).
 * A change of `vpn_organization` creates, moves or deletes the host's account on the VPN server
 * before it is stored (the account's record in `vpnsrv_representation`); GET /{id}/vpn_profile
 * downloads the account's client profile.
 */
import { defineResource, f, routeFor } from '@fleet/engine';
import { statisticsRoutes } from './hosts_statistic/routes';
import { afterHostWrites } from './groups/upkeep';
import {
  executionRequest,
  executionResponse,
  master,
  monitoringAction,
  monitoringRequest,
  monitoringResponse,
} from './ports/master';
import { vpn } from './ports/vpn';

const grain = f.object(
  {
    cpu_model: f.string(),
    cpuarch: f.string(),
    virtual: f.string(),
    kernel: f.string(),
    kernelrelease: f.string(),
    os: f.string(),
    os_family: f.string(),
    osrelease: f.string(),
    oscodename: f.string(),
    osfinger: f.string(),
    lsb_distrib_id: f.string(),
    osfullname: f.string(),
    host: f.string(),
    domain: f.string(),
    localhost: f.string(),
    ip: f.string(),
    mem_total: f.integer(),
    num_cpus: f.integer(),
    num_gpus: f.integer(),
    gpus: f.array(f.object({ model: f.string(), vendor: f.string() })),
    serialnumber: f.string({ nullable: true }),
    biosversion: f.string({ nullable: true }),
    lsb_distrib_description: f.string({ nullable: true }),
    ip_interfaces: f.object({}, { open: true }),
  },
  {
    open: true,
    hiddenInList: true,
    readonly: true,
    description: 'Host attributes reported by the minion (grains.items)',
  },
);

const vpnUser = f.object(
  {
    auth_type: f.string(),
    yubico_id: f.string({ nullable: true }),
    client_to_client: f.boolean(),
    otp_secret: f.string({ secret: true }),
    name: f.string(),
    pin: f.boolean(),
    dns_suffix: f.string({ nullable: true }),
    disabled: f.boolean(),
    mac_addresses: f.array(f.string(), { nullable: true }),
    email: f.string({ nullable: true }),
    organization_name: f.string(),
    bypass_secondary: f.boolean(),
    groups: f.array(f.string()),
    organization: f.string(),
    port_forwarding: f.array(f.object({}, { open: true })),
    dns_servers: f.array(f.string(), { nullable: true }),
    type: f.string(),
    id: f.string(),
  },
  {
    open: true,
    readonly: true,
    nullable: true,
    default: null,
    description: "The host's user record on its VPN server",
  },
);

/** The fields of a host, in the spec's order. */
const hostFields = {
  version: f.string({ readonly: true, description: 'Salt version of the minion' }),
  ip: f.string({ readonly: true }),
  nodegroups: f.array(f.ref('nodegroups', { onDelete: 'pull' }), { readonly: true, default: () => [] }),
  groups: f.array(f.ref('groups', { onDelete: 'pull' }), {
    default: () => [],
    description: 'Ids of the groups the host is a static member of',
  }),
  grain,
  last_distupgrade: f.datetime({ readonly: true, nullable: true }),
  last_stateapply: f.datetime({ readonly: true, nullable: true }),
  status: f.string({ enum: ['up', 'down'], readonly: true }),
  heartbeat: f.datetime({ readonly: true, nullable: true }),
  key: f.string({ enum: ['accepted', 'pending', 'rejected', 'denied'], readonly: true }),
  last_action: f.ref('actions', { readonly: true, nullable: true, default: null, onDelete: 'nullify' }),
  nat: f.boolean({
    readonly: true,
    default: false,
    description: 'The outward address (POST /api/graph request_ips) is not one of its own',
  }),
  fingerprint: f.string({ readonly: true, nullable: true }),
  denied_fingerprint: f.string({
    readonly: true,
    nullable: true,
    description:
      'A second key the master refused for this id while its key is accepted (a reinstalled host, or someone posing as it): the master keeps it in minions_denied; null when there is none',
  }),
  fingerprint_history: f.array(f.object({ added: f.datetime(), fingerprint: f.string() }), {
    readonly: true,
    default: () => [],
  }),
  vpnsrv_representation: vpnUser,
  vpn_organization: f.ref('vpn_organizations', { nullable: true, default: null, onDelete: 'restrict' }),
  identification_number: f.string({ nullable: true, default: null, maxLength: 256 }),
  all_status: f.object(
    {},
    {
      open: true,
      readonly: true,
      nullable: true,
      hiddenInList: true,
      description: 'Latest status.all_status sample while monitoring runs',
    },
  ),
} as const;

/** The routes of the hosts, typed by their fields. */
const hostRoute = routeFor<typeof hostFields>();

export const hosts = defineResource({
  name: 'hosts',
  description:
    'Hosts (minions) of the master. Filled by the fleet sync; DELETE hides a host until show_soft_deleted is given.',
  id: 'natural',
  fields: hostFields,
  methods: { list: 'viewer', get: 'viewer', patch: 'admin', delete: 'admin' },
  patchable: ['identification_number', 'groups', 'vpn_organization'],
  softDelete: { field: '_soft_deleted', param: 'show_soft_deleted' },
  indexes: [
    {
      fields: [
        ['status', 1],
        ['_updated', -1],
      ],
    },
    { fields: [['_updated', -1]] },
    { fields: [['status', 1]] },
    // The grain keys operators filter the host list by: each `where` on one of them is an index
    // range (json_extract expression indexes on SQLite, ordinary ones on MongoDB).
    { fields: [['grain.os', 1]] },
    { fields: [['grain.osrelease', 1]] },
    { fields: [['grain.virtual', 1]] },
    { fields: [['grain.num_cpus', 1]] },
    // A group's static members: `{groups: {$in: [...]}}` from the list's element index.
    { fields: [['groups', 1]] },
  ],
  defaultSort: [['_id', 1]],
  hooks: {
    // The rule groups a new host, or a host whose grains changed, now belongs to (groups/upkeep.ts).
    afterWriteBatch: afterHostWrites,
    async prepare({ fields, original, ctx }) {
      if (!('vpn_organization' in fields)) return fields;
      const from = original?.vpn_organization ?? null;
      const to = fields.vpn_organization ?? null;
      if (from === to) return fields;
      const host = original?._id ?? ('_id' in fields && typeof fields._id === 'string' ? fields._id : '');
      const place =
        from === null ? null : { organization: from, account: original?.vpnsrv_representation ?? null };
      const record = await vpn(ctx).moveAccount({ host, from: place, to }, ctx);
      // An unknown organization: nothing was done; the reference check answers 422.
      return record === undefined ? fields : { ...fields, vpnsrv_representation: record };
    },
    async onWriteError({ fields, original, ctx }) {
      // Undo only what `prepare` did: an account made in the new organization.
      const to = fields.vpn_organization ?? null;
      const made = fields.vpnsrv_representation;
      if (
        !('vpn_organization' in fields) ||
        to === null ||
        to === (original?.vpn_organization ?? null) ||
        !made
      )
        return;
      await vpn(ctx).deleteAccount({ organization: to, account: made }, ctx);
    },
  },
  routes: [
    ...statisticsRoutes(hostRoute),
    hostRoute({
      method: 'post',
      path: '/:id',
      execution: true,
      role: 'operator',
      summary:
        'Runs a Salt function on the host through the master (execution proxying): {exec_client, fun, arg, kwarg, ...}',
      body: executionRequest,
      response: executionResponse,
      async handler({ params, body, ctx, resource }) {
        const service = master(ctx);
        const host = await resource.get(params.id ?? '', ctx);
        return { body: await service.execute({ targets: [host._id], kind: 'host', body }, ctx) };
      },
    }),
    hostRoute({
      method: 'post',
      path: '/:id/all_status',
      execution: true,
      role: 'operator',
      summary:
        'status.all_status monitoring of the host: action start | stop | stop_all; without action, one sample now',
      body: monitoringRequest,
      response: monitoringResponse,
      handler: async ({ params, body, ctx }) => ({
        body: await master(ctx).monitoring(params.id ?? '', monitoringAction(body), ctx),
      }),
    }),
    {
      method: 'get',
      path: '/:id/vpn_profile',
      role: 'operator',
      summary:
        "The host's VPN client profile from its VPN server: one .ovpn (one server attached) or the server's .tar (several)",
      download: true,
      handler: async ({ params, ctx }) => ({ download: await vpn(ctx).profile(params.id ?? '', ctx) }),
    },
  ],
});
