/**
 * rate_counts: how many requests each instance let through per rate-limit key (kind and token
 * name) and minute, so that every instance charges its own per-token limit for the requests the
 * others admitted. One item per instance, key and minute (`_id` `holder|key|minute`), written only
 * by its instance; read by the others every second; deleted after a few minutes.
 * Internal: local API only (packages/server/src/rate-counts.ts).
 */
import { defineResource, f } from '@fleet/engine';

export const rate_counts = defineResource({
  name: 'rate_counts',
  description:
    'Requests admitted per instance, rate-limit key and minute, shared so that limits hold across instances. Internal: read and written through the local API only.',
  itemTitle: 'Rate_count',
  id: 'natural',
  fields: {
    holder: f.string({ required: true, description: 'The instance that admitted them' }),
    key: f.string({ required: true, description: 'The kind of limit and the token name' }),
    minute: f.integer({ required: true, min: 0, description: 'Minutes since the epoch' }),
    count: f.integer({ required: true, min: 0 }),
  },
  methods: {},
  indexes: [{ fields: [['minute', 1]] }],
});
