/**
 * duties: the work done once per deployment (the fleet sync, the salt event stream, the task
 * scheduler, the host-list snapshots, the VPN reconcile), one item per duty, `_id` its lease name.
 * The instance holding a duty's lease writes here when it takes the duty over and when a run
 * starts and ends, so the next holder keeps the deployment's cadence (a sync once per interval,
 * whoever runs it) and knows whether a reader came before it (the event stream's repair sync).
 * Internal: read and written through the local API only (packages/duties).
 */
import { defineResource, f } from '@fleet/engine';

const when = (description: string) => f.datetime({ nullable: true, default: null, description });

export const duties = defineResource({
  name: 'duties',
  description:
    'Once-per-deployment duties: the instance holding each one and when it last ran. Internal: read and written through the local API only.',
  itemTitle: 'Duty',
  id: 'natural',
  fields: {
    holder: f.string({
      nullable: true,
      default: null,
      description: 'The instance that last took the duty (host:pid:random)',
    }),
    since: when('When that instance took it'),
    last_started: when('When its last run started'),
    last_finished: when('When its last run ended'),
    last_error: f.string({
      nullable: true,
      default: null,
      description: 'Why the last run failed; null when it did not',
    }),
  },
  methods: {},
});
