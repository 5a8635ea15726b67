/**
 * vpn_managers: VPN servers the service logs in to. The password is encrypted at rest and always
 * read back as "********".
 */
import { Conflict, defineResource, f } from '@fleet/engine';

export const vpn_managers = defineResource({
  name: 'vpn_managers',
  description: 'VPN servers. The password is stored encrypted and read back masked.',
  fields: {
    name: f.string({ required: true, unique: true, minLength: 1 }),
    server_address: f.string({ required: true, minLength: 1 }),
    dashboard_address: f.string({ required: true, minLength: 1 }),
    username: f.string({ required: true, minLength: 1 }),
    password: f.string({ required: true, secret: true, minLength: 1 }),
  },
  methods: { list: 'viewer', get: 'viewer', create: 'admin', patch: 'admin', delete: 'admin' },
  hooks: {
    async beforeDelete({ doc, ctx }) {
      const used = await ctx.runtime.store.count('vpn_organizations', { vpn_manager: doc._id });
      if (used > 0) throw new Conflict(`VPN manager "${doc._id}" still has ${used} organization(s); delete them first`);
    },
  },
});
