/**
 * alerts: notifications from the master's events (`vnc.connect`) and from the service itself
 * (host down/up, key fingerprint change, failed patch, failed task run, master unreachable).
 * `mark_as_read=1` (or `true`) on a GET persists `read: true` on the alerts it returns.
 */
import { booleanParam, BOOLEAN_PARAM_SCHEMA, defineResource, f, requireRole } from '@fleet/engine';

export const alerts = defineResource({
  name: 'alerts',
  description: 'Notifications. GET with mark_as_read=1 marks the returned alerts as read.',
  fields: {
    type: f.string({
      required: true,
      description:
        'e.g. vnc.connect, host.down, host.up, key.changed, patch.failed, task.failed, master.unreachable',
    }),
    level: f.string({ enum: ['info', 'warning', 'error', 'critical'], default: 'info' }),
    payload: f.object({ hostname: f.string(), status: f.string() }, { open: true, default: () => ({}) }),
    read: f.boolean({ default: false }),
  },
  methods: { list: 'viewer', get: 'viewer', create: 'operator', patch: 'operator', delete: 'admin' },
  // Read by afterRead below; described in the OpenAPI document (engine/src/openapi/query-params.ts).
  queryParams: {
    mark_as_read: {
      description:
        'true or 1: the returned alerts are marked read (stored read: true) and answered so; false or 0 (the default): they are left as they are',
      role: 'operator',
      schema: BOOLEAN_PARAM_SCHEMA,
    },
  },
  patchable: ['read'],
  indexes: [
    {
      fields: [
        ['read', 1],
        ['_created', -1],
      ],
    },
    { fields: [['_created', -1]] },
  ],
  defaultSort: [['_created', -1]],
  hooks: {
    async afterRead({ docs, params, ctx }) {
      if (!booleanParam('mark_as_read', params.mark_as_read)) return;
      requireRole(ctx.principal, 'operator', 'mark_as_read');
      const unread = docs.filter((d) => !d.read);
      if (unread.length === 0) return;
      const ids = unread.map((d) => d._id);
      const api = ctx.runtime.resources.get('alerts');
      await api.patchMany({ _id: { $in: ids } }, { read: true }, ctx);
      // The page answers with the alerts as they now are (read, new _updated and _etag).
      const fresh = new Map((await api.find({ where: { _id: { $in: ids } } }, ctx)).map((d) => [d._id, d]));
      for (const doc of unread) Object.assign(doc, fresh.get(doc._id));
    },
  },
});
