/**
 * hosts_history: how the host-list snapshots are stored (docs/statistics.md). Hosts change rarely,
 * so the history grows with change, not with time: blocks of snapshots (a day at most), each a
 * keyframe of every host followed by every snapshot's changes and up/down counters. A block is
 * stored column by column, one row per column, so a read fetches only the columns it needs.
 * Internal: no HTTP methods; clients read whole snapshots from hosts_statistic and aggregates
 * from /api/hosts/statistics/*.
 */
import { defineResource, f } from '@fleet/engine';

export const hosts_history = defineResource({
  name: 'hosts_history',
  description:
    'Compact storage of the host-list snapshots: blocks of changes after a keyframe, column by column (internal).',
  // `<block>` for the block's snapshot list, `<block>~<column>` for the others (columns.ts).
  id: 'natural',
  fields: {
    snapshot: f.string({
      required: true,
      description: 'The block: the _id of its first hosts_statistic item',
    }),
    timestamp: f.datetime({ required: true, description: "Time of the block's first snapshot" }),
    column: f.string({
      required: true,
      description:
        '`snapshots`, a change column (`hosts`, `added`, `status`, ...) or a keyframe column (`key.hosts`, `key.status`, ...)',
    }),
    part: f.integer({
      default: 0,
      min: 0,
      description: 'Keyframe columns: the part (PART_ENTRIES hosts each), from 1',
    }),
    last: f.datetime({
      nullable: true,
      default: null,
      description: "`snapshots`: time of the block's last snapshot",
    }),
    base: f.string({
      nullable: true,
      default: null,
      description: '`snapshots`: the snapshot before the block (null: the start of the history)',
    }),
    data: f.object(
      {},
      {
        open: true,
        required: true,
        description: 'The column: {list: [...]}, a flat list (resources/hosts_statistic/columns.ts)',
      },
    ),
  },
  methods: {},
  // Every read is one column over a time range (or at one block's time); the block at or before a
  // time is read newest first (ties break by _id ascending either way: one index per direction).
  indexes: [
    {
      fields: [
        ['column', 1],
        ['timestamp', 1],
      ],
    },
    {
      fields: [
        ['column', 1],
        ['timestamp', -1],
      ],
    },
    { fields: [['timestamp', 1]] },
  ],
  defaultSort: [['timestamp', 1]],
});
