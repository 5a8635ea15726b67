/**
 * hosts_statistic: periodic snapshots of the host list (every SNAPSHOT_INTERVAL_S, kept
 * SNAPSHOT_RETENTION_DAYS). Clients normally use the aggregated /hosts/statistics/* endpoints.
 * The items are stored with an empty `hosts`: the host lists live in the compact history
 * (hosts_history, docs/statistics.md) and reads fill them back in.
 */
import { defineResource } from '@fleet/engine';
import { SNAPSHOTS, snapshotFields } from './hosts_statistic/fields';
import { fillSnapshots } from './hosts_statistic/reconstruct';

export const hosts_statistic = defineResource({
  name: SNAPSHOTS,
  itemTitle: 'Hosts_statistic',
  description: 'Snapshots of the host list; prefer /api/hosts/statistics/*.',
  fields: snapshotFields,
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
