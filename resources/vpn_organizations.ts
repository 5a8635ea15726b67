/**
 * vpn_organizations: organizations on a VPN server; hosts are linked to one. Deleting one that
 * hosts still use is a 409 (the hosts' `vpn_organization` reference restricts it).
 */
import { defineResource, f } from '@fleet/engine';

export const vpn_organizations = defineResource({
  name: 'vpn_organizations',
  description: 'VPN organizations, each on one VPN manager.',
  fields: {
    name: f.string({ required: true, minLength: 1 }),
    vpn_manager: f.ref('vpn_managers', { required: true, onDelete: 'restrict' }),
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
});
