/**
 * Bulk loading: the seed writes its largest collections (actions) while they are declared without
 * their secondary indexes, then declares them whole. SQLite then builds each index with one sort
 * of the stored rows instead of keeping it row by row: with 10,000,000 actions the (host,
 * _created) index of row-by-row upkeep rewrote most of its pages at every batch, hundreds of MB of
 * WAL per commit (docs/performance.md). The items themselves go through the local API as always.
 */
import type { AnyResourceDefinition } from '@fleet/engine';

/** The collections loaded in bulk: the seed's millions of actions. */
export const BULK_COLLECTIONS: readonly string[] = ['actions'];

/** The definitions with the secondary indexes of `bulk` left out (unique ones kept: they are checks). */
export function withoutSecondaryIndexes(
  definitions: readonly AnyResourceDefinition[],
  bulk: readonly string[] = BULK_COLLECTIONS,
): AnyResourceDefinition[] {
  return definitions.map((def) =>
    bulk.includes(def.name)
      ? { ...def, indexes: (def.indexes ?? []).filter((ix) => ix.unique === true) }
      : def,
  );
}
