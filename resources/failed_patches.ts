/**
 * failed_patches: `state.apply` jobs in which a step had `result: false`; `return` holds the steps
 * ordered by `__run_num__`, each with `cmd` = `<module>.<function>` from its state key.
 */
import { defineResource, f } from '@fleet/engine';

const step = f.object(
  {
    comment: f.string(),
    name: f.string(),
    start_time: f.string({ description: 'Time of day HH:MM:SS.ffffff' }),
    result: f.boolean({ nullable: true }),
    duration: f.number(),
    __run_num__: f.integer(),
    __sls__: f.string({ nullable: true }),
    changes: f.object(
      { pid: f.integer(), retcode: f.integer(), stderr: f.string(), stdout: f.string() },
      { open: true },
    ),
    __id__: f.string(),
    cmd: f.string(),
  },
  { open: true },
);

export const failed_patches = defineResource({
  name: 'failed_patches',
  itemTitle: 'Failed_patch',
  description: 'Failed patch runs: state.apply jobs with a failed step.',
  id: 'natural',
  fields: {
    jid: f.string({ required: true }),
    action: f.string({ required: true }),
    // Recorded from the master, which may report a minion the sync has not stored yet.
    host: f.ref('hosts', { required: true, exists: false }),
    state: f.string({ default: 'finished' }),
    patch: f.string({ description: 'Patch (state) name' }),
    return: f.array(step, { default: () => [] }),
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
  ],
  defaultSort: [['_created', -1]],
});
