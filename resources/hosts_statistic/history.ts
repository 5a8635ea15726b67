/**
 * The compact host-list history as the server and the seed use it (docs/statistics.md): record a
 * snapshot, convert full snapshots, prune and repair; and the building blocks the seed writes with.
 */
export { ChainState } from './chain';
export { decodeEntry, diffEntry, encodeSummary, type Change, type Entry, type Summary } from './codec';
export { convertFullSnapshots, type Conversion } from './migrate';
export { pruneSnapshots, repairItems } from './retention';
export {
  BLOCK_MS,
  BLOCK_SNAPSHOTS,
  changesOf,
  END_OF_TIME,
  HistoryBuilder,
  PART_ENTRIES,
  recordSnapshot,
  type BlockWrite,
  type HistoryData,
  type SnapshotMeta,
} from './writer';
