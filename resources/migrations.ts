/**
 * The store's migrations, in order: each brings a store written by an earlier release one schema
 * on, through the local API (docs/upgrading.md lists them with the releases they came with). A new
 * one is appended with the next number; a shipped one is never changed.
 */
import { defineMigration, type Migration } from '@fleet/engine';
import { convertFullSnapshots } from './hosts_statistic/migrate';

/**
 * Schema 1: the first release kept each host-list snapshot as a hosts_statistic item carrying
 * every host; later ones keep the compact history (hosts_history). Every such snapshot is
 * converted without loss (docs/statistics.md); the item keeps its id and timestamp.
 */
export const statisticsHistory = defineMigration({
  version: 1,
  name: 'statistics-history',
  description:
    'host-list snapshots stored whole (hosts_statistic items with every host) converted into the compact history (hosts_history), without loss',
  async up({ ctx, keepGoing }) {
    const done = await convertFullSnapshots(ctx, { since: new Date(0), exact: true, keepGoing });
    if (done.converted === 0 && done.skipped === 0) return 'no whole snapshot to convert';
    const skipped = done.skipped > 0 ? `; ${done.skipped} inside the history's span kept as stored` : '';
    return `converted ${done.converted} whole host-list snapshot(s) into ${done.blocks} history block(s)${skipped}`;
  },
});

/** Every migration, in order. */
export const allMigrations: readonly Migration[] = [statisticsHistory];
