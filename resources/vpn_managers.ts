/**
 * vpn_managers: VPN servers the service logs in to. The password is encrypted at rest and always
 * read back as "********". A manager still holding organizations cannot be deleted (their
 * `vpn_manager` reference restricts it). The service keeps one client (one session) per manager,
 * made again when the manager changes. POST /reconcile and /{id}/reconcile compare the VPN
 * servers with the store now instead of waiting for VPN_RECONCILE_INTERVAL_S. The service logs in
 * at `dashboard_address`, so it must be an http(s) URL naming a host, never a link-local (cloud
 * metadata) address, nor a private one when VPN_PRIVATE_ADDRESSES=refuse; the VPN client checks
 * the addresses a host name resolves to the same way when it connects.
 */
import { callableUrlIssue, defineResource, f, Unprocessable, type PrivateAddresses } from '@fleet/engine';
import { reconcileResponse, vpn, vpnIfRunning } from './ports/vpn';

export const vpn_managers = defineResource({
  name: 'vpn_managers',
  description: 'VPN servers. The password is stored encrypted and read back masked.',
  fields: {
    name: f.string({ required: true, unique: true, minLength: 1 }),
    server_address: f.string({ required: true, minLength: 1, maxLength: 2048 }),
    dashboard_address: f.string({
      required: true,
      minLength: 1,
      maxLength: 2048,
      description:
        'URL of the web console, where the server also answers its API: http or https, no credentials, no link-local address (nor a private one when the service refuses them)',
    }),
    username: f.string({ required: true, minLength: 1 }),
    password: f.string({ required: true, secret: true, minLength: 1 }),
  },
  methods: { list: 'viewer', get: 'viewer', create: 'admin', patch: 'admin', delete: 'admin' },
  // The console is an http(s) URL the prepare hook checks.
  sample: () => ({ dashboard_address: 'https://vpn.example.com', server_address: 'vpn.example.com:443' }),
  hooks: {
    async prepare({ fields, ctx }) {
      const address = fields.dashboard_address;
      const policy = ctx.runtime.config.vpnPrivateAddresses ?? 'allow';
      const why = address === undefined ? null : callableUrlIssue(address, policy);
      if (why !== null)
        throw new Unprocessable('vpn_managers: bad dashboard address', { dashboard_address: why });
      return fields;
    },
    async afterWrite({ op, doc, ctx }) {
      if (op !== 'create') await vpnIfRunning(ctx)?.managerChanged(doc._id);
    },
    async afterDelete({ doc, ctx }) {
      await vpnIfRunning(ctx)?.managerChanged(doc._id);
    },
  },
  routes: [
    {
      method: 'post',
      path: '/reconcile',
      role: 'admin',
      summary:
        'Compares every VPN manager with the store now: repairs what the store says should exist, reports the rest as alerts',
      response: reconcileResponse,
      handler: async ({ ctx }) => ({ body: await vpn(ctx).reconcile({}, ctx) }),
    },
    {
      method: 'post',
      path: '/:id/reconcile',
      role: 'admin',
      summary: 'Compares one VPN manager with the store now',
      response: reconcileResponse,
      async handler({ params, ctx, resource }) {
        const manager = await resource.get(params.id ?? '', ctx);
        return { body: await vpn(ctx).reconcile({ manager: manager._id }, ctx) };
      },
    },
  ],
});

declare module '@fleet/engine' {
  interface Settings {
    /** VPN_PRIVATE_ADDRESSES: whether a VPN manager may live at a private address (default allow). */
    readonly vpnPrivateAddresses?: PrivateAddresses;
  }
}
