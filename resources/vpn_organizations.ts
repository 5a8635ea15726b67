/**
 * vpn_organizations: organizations on a VPN server; hosts are linked to one. Deleting one that
 * hosts still use is a 409.
 */
import { Conflict, defineResource, f, Unprocessable } from '@fleet/engine';

export const vpn_organizations = defineResource({
  name: 'vpn_organizations',
  description: 'VPN organizations, each on one VPN manager.',
  fields: {
    name: f.string({ required: true, minLength: 1 }),
    vpn_manager: f.ref('vpn_managers', { required: true }),
    vpnsrv_representation: f.object(
      {
        auth_api: f.boolean(),
        name: f.string(),
        auth_token: f.string({ nullable: true, secret: true }),
        user_count: f.integer(),
        auth_secret: f.string({ nullable: true, secret: true }),
        id: f.string(),
        cipher_type: f.string(),
      },
      { open: true, default: () => ({}) },
    ),
    cipher_type: f.string({ default: 'rsa' }),
    type: f.integer({ default: 6 }),
  },
  methods: { list: 'viewer', get: 'viewer', create: 'admin', delete: 'admin' },
  hooks: {
    async prepare({ fields, ctx }) {
      if (typeof fields.vpn_manager === 'string') {
        const found = await ctx.runtime.store.count('vpn_managers', { _id: fields.vpn_manager });
        if (found === 0) throw new Unprocessable('vpn_organizations: unknown VPN manager', { vpn_manager: 'unknown VPN manager id' });
      }
      return fields;
    },
    async beforeDelete({ doc, ctx }) {
      const used = await ctx.runtime.store.count('hosts', { vpn_organization: doc._id, _soft_deleted: { $ne: true } });
      if (used > 0) throw new Conflict(`VPN organization "${doc._id}" is still used by ${used} host(s)`);
    },
  },
});
