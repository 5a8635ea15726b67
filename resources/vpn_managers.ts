/**
 * vpn_managers: VPN servers the service logs in to. The password is encrypted at rest and always
 * read back as "********". A manager still holding organizations cannot be deleted (their
 * `vpn_manager` reference restricts it).
 */
import { defineResource, f } from '@fleet/engine';

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
});
