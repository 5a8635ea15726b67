/**
 * hosts_statistic: periodic snapshots of the host list (every SNAPSHOT_INTERVAL_S, kept
 * SNAPSHOT_RETENTION_DAYS). Clients normally use the aggregated /hosts/statistics/* endpoints.
 * The items are stored with an empty `hosts`: the host lists live in the compact history
 * (hosts_history, docs/statistics.md) and reads fill them back in.
 */
import { defineResource, f } from '@fleet/engine';
import { fillSnapshots } from './hosts_statistic/reconstruct';

const summary = f.object({
  _id: f.string(),
  version: f.string({ nullable: true }),
  ip: f.string({ nullable: true }),
  nodegroups: f.array(f.string()),
  status: f.string({ nullable: true }),
  last_stateapply: f.datetime({ nullable: true }),
  last_distupgrade: f.datetime({ nullable: true }),
  _created: f.datetime(),
  _updated: f.datetime(),
  _soft_deleted: f.boolean({ description: 'Hidden by soft delete (as lists show it)' }),
  _deleted: f.boolean({
    description:
      'Hidden by soft delete, as a single snapshot shows it (the spec names the flag so in the item output)',
  }),
});

export const hosts_statistic = defineResource({
  name: 'hosts_statistic',
  itemTitle: 'Hosts_statistic',
  description: 'Snapshots of the host list; prefer /api/hosts/statistics/*.',
  fields: {
    hosts: f.array(summary, { default: () => [] }),
    timestamp: f.datetime({ required: true }),
    index: f.integer({ default: 0 }),
  },
  methods: { list: 'viewer', get: 'viewer' },
  // Both directions: ranges are read oldest first, the list and the latest snapshot newest first
  // (ties break by _id ascending either way, so one index cannot serve both on MongoDB).
  indexes: [{ fields: [['timestamp', 1]] }, { fields: [['timestamp', -1]] }],
  defaultSort: [['timestamp', -1]],
  hooks: {
    async afterRead({ docs, view, ctx }) {
      await fillSnapshots(docs, ctx);
      // The spec's single-item shape names the deletion flag `_deleted`; lists keep `_soft_deleted`.
      if (view === 'item')
        for (const doc of docs)
          doc.hosts = doc.hosts.map(({ _soft_deleted, ...rest }) => ({ ...rest, _deleted: _soft_deleted }));
    },
  },
});
