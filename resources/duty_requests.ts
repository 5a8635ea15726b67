/**
 * duty_requests: a run of a duty asked on an instance that does not hold its lease (`POST
 * /api/master/sync`, `POST /api/vpn_managers/reconcile` reaching any instance behind a load
 * balancer). The asking instance writes the request and waits for its outcome; the holder takes
 * it (`asked` -> `running`, a versioned write, so one holder runs it), keeps `alive` current while
 * the run lasts and writes the outcome (`done` with `result`, or `failed` with the HTTP status and
 * message). The asking instance deletes it once read. Internal: local API only (packages/duties).
 */
import { defineResource, f } from '@fleet/engine';

export const DUTY_REQUEST_STATES = ['asked', 'running', 'done', 'failed'] as const;

export const duty_requests = defineResource({
  name: 'duty_requests',
  description:
    'On-demand runs of a duty asked on an instance without its lease, run by the holder. Internal: read and written through the local API only.',
  itemTitle: 'Duty_request',
  fields: {
    duty: f.string({ required: true, description: 'The lease name of the duty' }),
    arg: f.string({
      nullable: true,
      default: null,
      description: 'What the run is limited to (a VPN manager)',
    }),
    state: f.string({ required: true, enum: DUTY_REQUEST_STATES }),
    asked_by: f.string({ required: true, description: 'The asking instance' }),
    run_by: f.string({ nullable: true, default: null, description: 'The holder that took it' }),
    alive: f.datetime({ nullable: true, default: null, description: 'Last sign of life of the run' }),
    result: f.object({}, { open: true, nullable: true, default: null }),
    status: f.integer({ nullable: true, default: null, description: 'HTTP status of a failed run' }),
    message: f.string({ nullable: true, default: null }),
  },
  methods: {},
  indexes: [
    {
      fields: [
        ['duty', 1],
        ['state', 1],
        ['_created', 1],
      ],
    },
    // The default order (a read that names no sort), oldest first.
    { fields: [['_created', 1]] },
  ],
  defaultSort: [['_created', 1]],
});
