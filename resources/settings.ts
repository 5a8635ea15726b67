/**
 * settings: one item, `_id` "0", created at first start. PATCH merges nested objects
 * (`{"addresses": {"resolver_address": "..."}}` keeps `master_address`).
 */
import { defineResource, f } from '@fleet/engine';

export const settings = defineResource({
  name: 'settings',
  description: 'Service settings: one item with _id "0".',
  id: 'natural',
  fields: {
    addresses: f.object(
      {
        resolver_address: f.string({ default: '' }),
        master_address: f.string({ default: '' }),
        file: f.ref('files', { nullable: true, onDelete: 'nullify' }),
      },
      { default: () => ({ resolver_address: '', master_address: '', file: null }) },
    ),
  },
  methods: { list: 'viewer', get: 'viewer', patch: 'admin' },
  initialItems: (config) => [
    {
      _id: '0',
      addresses: { resolver_address: '', master_address: typeof config.saltMasterName === 'string' ? config.saltMasterName : '', file: null },
    },
  ],
});
