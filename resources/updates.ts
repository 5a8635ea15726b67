/**
 * updates: patches downloaded from the master's file server (POST /api/updates, upserted by
 * `name`); `description` is local and kept across downloads.
 */
import { defineResource, f } from '@fleet/engine';
import { master, patchDownloadResponse } from './ports/master';

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
  routes: [
    {
      // '' is the collection itself: there is no generic create, only this download.
      method: 'post',
      path: '',
      role: 'operator',
      summary: "Downloads the patches from the master's file server (patches/), upserting each by name",
      response: patchDownloadResponse,
      handler: async ({ ctx }) => ({ body: { _status: 'OK', ...(await master(ctx).downloadPatches(ctx)) } }),
    },
  ],
});
