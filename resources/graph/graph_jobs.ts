/**
 * graph_jobs: the runs of POST /api/graph `request_ips`, with their progress, kept in the store so
 * that every API instance answers GET /api/graph/jobs/{id} for a run another instance drives.
 * Internal: no HTTP methods; the graph routes render a job (./jobs.ts). The newest 20 are kept.
 */
import { defineResource, f } from '@fleet/engine';

const count = () => f.integer({ default: 0, min: 0 });

export const graph_jobs = defineResource({
  name: 'graph_jobs',
  description:
    'request_ips runs of POST /api/graph and their progress (internal; read through GET /api/graph/jobs/{id}).',
  fields: {
    action: f.string({ enum: ['request_ips'], required: true }),
    state: f.string({ enum: ['running', 'done', 'failed'], required: true }),
    resolver: f.string({ default: '', description: 'The resolver without its query' }),
    total: count(),
    targeted: count(),
    skipped: count(),
    probed: count(),
    resolved: count(),
    failed: count(),
    nat: count(),
    direct: count(),
    gateways_created: f.array(f.string(), { default: () => [] }),
    failures: f.array(f.object({ host: f.string(), reason: f.string() }), { default: () => [] }),
    error: f.string({ nullable: true, default: null }),
    finished: f.datetime({ nullable: true, default: null }),
  },
  methods: {},
  indexes: [{ fields: [['_created', -1]] }],
  defaultSort: [['_created', -1]],
});
