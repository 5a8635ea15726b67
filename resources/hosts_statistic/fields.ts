/**
 * The fields of a host-list snapshot, declared apart from the definition so the code its read
 * hook calls (reconstruct.ts) can be typed from them without importing the definition back.
 */
import { f } from '@fleet/engine';

export const SNAPSHOTS = 'hosts_statistic';

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

export const snapshotFields = {
  hosts: f.array(summary, { default: () => [] }),
  timestamp: f.datetime({ required: true }),
  index: f.integer({ default: 0 }),
} as const;

/** The snapshots as the local API's `of` takes them. */
export const snapshotsRef = { name: SNAPSHOTS, fields: snapshotFields } as const;
