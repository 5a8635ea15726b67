/**
 * updates: patches downloaded from the master's file server (POST /api/updates, upserted by
 * `name`); `description` is local and kept across downloads.
 */
import { defineResource, f } from '@fleet/engine';

export const updates = defineResource({
  name: 'updates',
  description: "Patches from the master's file server. PATCH changes the local description.",
  fields: {
    name: f.string({ required: true, unique: true, readonly: true }),
    text: f.string({ readonly: true, default: '' }),
    description: f.string({ default: '', maxLength: 10000 }),
  },
  methods: { list: 'viewer', get: 'viewer', patch: 'operator' },
  patchable: ['description'],
  defaultSort: [['name', 1]],
});
