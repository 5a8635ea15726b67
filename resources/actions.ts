/**
 * actions: completed remote executions, one item per job and host (`_id` = 20-digit jid followed
 * by the host name). Recorded by execution proxying, the live events and the fleet sync.
 */
import { defineResource, f } from '@fleet/engine';

export const actions = defineResource({
  name: 'actions',
  description: 'Completed remote actions, one per job and host.',
  id: 'natural',
  fields: {
    jid: f.string({ required: true }),
    action: f.string({ required: true, description: 'Executed function, e.g. cmd.run' }),
    // Recorded from the master, which may report a minion the sync has not stored yet.
    host: f.ref('hosts', { required: true, exists: false }),
    state: f.string({ default: 'finished' }),
    args: f.array(f.object({ __kwarg__: f.boolean() }, { open: true }), { default: () => [] }),
    return: f.string({ nullable: true, description: 'Output of the action' }),
    success: f.boolean({
      nullable: true,
      default: null,
      description:
        "The job's outcome: its retcode is 0 (or, without a retcode, the minion reported success); null while unknown",
    }),
    user: f.string({
      nullable: true,
      default: null,
      description: 'Name of the API token that started it; null for jobs started outside the service',
    }),
    salt_user: f.string({
      nullable: true,
      default: null,
      description:
        "The master's account that published the job (for the service's own calls, its salt-api user)",
    }),
  },
  methods: { list: 'viewer', get: 'viewer' },
  indexes: [
    {
      fields: [
        ['host', 1],
        ['_created', -1],
      ],
    },
    { fields: [['_created', -1]] },
    { fields: [['jid', 1]] },
  ],
  defaultSort: [['_created', -1]],
});
