/**
 * monitored_hosts: the hosts whose `status.all_status` is sampled every ALL_STATUS_INTERVAL_S
 * (POST /api/hosts/{id}/all_status `start` adds one, `stop` and `stop_all` remove them), `_id`
 * the host's. Any instance takes a due sample by claiming the item (`next_sample` moved past the
 * sample's longest time, a versioned write) and sets the next one an interval after the sample
 * ended: a host is sampled once per interval across every instance, samples of one host never
 * overlap, and an instance that dies leaves its hosts to the others. Internal: local API only
 * (packages/salt/src/master/monitoring.ts).
 */
import { defineResource, f } from '@fleet/engine';

export const monitored_hosts = defineResource({
  name: 'monitored_hosts',
  description:
    'Hosts whose status.all_status is sampled periodically, and when next. Internal: read and written through the local API only.',
  itemTitle: 'Monitored_host',
  id: 'natural',
  fields: {
    next_sample: f.datetime({ required: true, description: 'When the next sample is due' }),
    by: f.string({
      nullable: true,
      default: null,
      description: 'The token name that started the monitoring',
    }),
  },
  methods: {},
  indexes: [{ fields: [['next_sample', 1]] }],
});
