/**
 * async_jobs: the `local_async` executions being followed, one item per job (`_id` its jid).
 * The execution writes it before it answers; from then on any instance follows it: the one that
 * claims it when its poll is due (`next_poll`, a versioned write) asks the master for the returns,
 * records the new ones as actions and notes the hosts in `returned`, until every targeted minion
 * has returned or `deadline` passes (the silent ones are then recorded as not answered) and deletes
 * it. So a
 * job started on an instance that dies is followed to its end by another. Internal: local API
 * only (packages/salt/src/master/async-jobs.ts).
 */
import { defineResource, f } from '@fleet/engine';

export const async_jobs = defineResource({
  name: 'async_jobs',
  description:
    'local_async executions being followed until every minion returned or the deadline passed. Internal: read and written through the local API only.',
  itemTitle: 'Async_job',
  id: 'natural',
  fields: {
    fun: f.string({ required: true, description: 'The Salt function' }),
    call: f.object(
      {},
      {
        open: true,
        default: () => ({}),
        description: '`args`: the positional values and a kwargs object, as Salt lists them',
      },
    ),
    minions: f.array(f.string(), { default: () => [], description: 'The minions the master published to' }),
    returned: f.array(f.string(), { default: () => [], description: 'The minions whose return is recorded' }),
    user: f.string({ required: true, description: 'The token name that started it' }),
    salt_user: f.string({
      nullable: true,
      default: null,
      description: "The master's account that published it",
    }),
    deadline: f.datetime({
      required: true,
      description: 'Silent minions are recorded as not answered from then on',
    }),
    next_poll: f.datetime({ required: true, description: 'When the master is asked next' }),
  },
  methods: {},
  indexes: [{ fields: [['next_poll', 1]] }],
});
