/**
 * hosts: the machines the master manages, keyed by minion id. Filled and kept current by the
 * fleet sync (no POST); PATCH sets the operator-owned fields; DELETE hides the host (soft delete).
 */
import { defineResource, f, Unprocessable } from '@fleet/engine';
import { statisticsRoute } from './hosts_statistic/statistics';
import { jsonBody, master, monitoringAction } from './lib/master';

const grain = f.object(
  {
    cpu_model: f.string(),
    cpuarch: f.string(),
    virtual: f.string(),
    kernel: f.string(),
    kernelrelease: f.string(),
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
  { open: true, hiddenInList: true, readonly: true, description: 'Host attributes reported by the minion (grains.items)' },
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
    email: f.string(),
    organization_name: f.string(),
    bypass_secondary: f.boolean(),
    groups: f.array(f.string()),
    organization: f.string(),
    port_forwarding: f.array(f.object({}, { open: true })),
    dns_servers: f.array(f.string(), { nullable: true }),
    type: f.string(),
    id: f.string(),
  },
  { open: true, readonly: true, nullable: true, description: "The host's user record on its VPN server" },
);

export const hosts = defineResource({
  name: 'hosts',
  description: 'Hosts (minions) of the master. Filled by the fleet sync; DELETE hides a host until show_soft_deleted is given.',
  id: 'natural',
  fields: {
    version: f.string({ readonly: true, description: 'Salt version of the minion' }),
    ip: f.string({ readonly: true }),
    nodegroups: f.array(f.ref('nodegroups'), { readonly: true, default: () => [] }),
    groups: f.array(f.ref('groups'), { default: () => [], description: 'Ids of the groups the host is a static member of' }),
    grain,
    last_distupgrade: f.datetime({ readonly: true, nullable: true }),
    last_stateapply: f.datetime({ readonly: true, nullable: true }),
    status: f.string({ enum: ['up', 'down'], readonly: true }),
    heartbeat: f.datetime({ readonly: true, nullable: true }),
    key: f.string({ enum: ['accepted', 'pending', 'rejected', 'denied'], readonly: true }),
    last_action: f.ref('actions', { readonly: true, nullable: true }),
    nat: f.boolean({ readonly: true }),
    fingerprint: f.string({ readonly: true, nullable: true }),
    fingerprint_history: f.array(f.object({ added: f.datetime(), fingerprint: f.string() }), { readonly: true, default: () => [] }),
    vpnsrv_representation: vpnUser,
    vpn_organization: f.ref('vpn_organizations', { nullable: true }),
    identification_number: f.string({ nullable: true, maxLength: 256 }),
    all_status: f.object({}, { open: true, readonly: true, nullable: true, hiddenInList: true, description: 'Latest status.all_status sample while monitoring runs' }),
  },
  methods: { list: 'viewer', get: 'viewer', patch: 'admin', delete: 'admin' },
  patchable: ['identification_number', 'groups', 'vpn_organization'],
  softDelete: { field: '_soft_deleted', param: 'show_soft_deleted' },
  indexes: [
    { fields: [['status', 1], ['_updated', -1]] },
    { fields: [['_updated', -1]] },
    { fields: [['status', 1]] },
  ],
  defaultSort: [['_id', 1]],
  hooks: {
    async prepare({ fields, ctx }) {
      const store = ctx.runtime.store;
      if (Array.isArray(fields.groups) && fields.groups.length > 0) {
        const ids = [...new Set(fields.groups as string[])];
        const found = await store.find('groups', { _id: { $in: ids } }, { projection: { _id: 1 } });
        const missing = ids.filter((id) => !found.some((g) => g._id === id));
        if (missing.length > 0) throw new Unprocessable('hosts: unknown group', { groups: `unknown group id(s): ${missing.join(', ')}` });
        fields.groups = ids;
      }
      if (typeof fields.vpn_organization === 'string') {
        const [org] = await store.find('vpn_organizations', { _id: fields.vpn_organization }, { limit: 1 });
        if (!org) throw new Unprocessable('hosts: unknown VPN organization', { vpn_organization: 'unknown VPN organization id' });
      }
      return fields;
    },
  },
  routes: [
    statisticsRoute,
    {
      method: 'post',
      path: '/:id',
      role: 'operator',
      summary: 'Runs a Salt function on the host through the master (execution proxying): {exec_client, fun, arg, kwarg, ...}',
      async handler({ params, body, ctx }) {
        const service = master(ctx);
        const host = await ctx.runtime.resources.get('hosts').get(params.id ?? '');
        return { body: await service.execute({ targets: [host._id], kind: 'host', body: jsonBody(body) }, ctx) };
      },
    },
    {
      method: 'post',
      path: '/:id/all_status',
      role: 'operator',
      summary: 'status.all_status monitoring of the host: action start | stop | stop_all; without action, one sample now',
      handler: async ({ params, body, ctx }) => ({ body: await master(ctx).monitoring(params.id ?? '', monitoringAction(body), ctx) }),
    },
  ],
});
