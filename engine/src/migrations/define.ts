/**
 * Migrations: the named, ordered steps that bring a store written by an earlier release to the
 * shape this release reads and writes. The schema version of a store is the number of the last
 * migration applied to it; a store made by this release starts at the newest one.
 *
 * A migration reads and writes through the local API as the system principal (the one door: its
 * writes are validated, stamped and hooked like any other), is idempotent (a run cut short is
 * run again from its start), and says in a few words what it did.
 */
import type { CallContext } from '../definition/local-api';

/** What a migration is given. */
export interface MigrationContext {
  /** The system principal's call context: `ctx.runtime.resources` is the one door. */
  readonly ctx: CallContext;
  /**
   * Asked between steps of a long migration: renews the lease that keeps other instances from
   * migrating at the same time. False: the lease was lost; stop, the next start goes on.
   */
  readonly keepGoing: () => Promise<boolean>;
}

/** One step of the store's schema. */
export interface Migration {
  /** Its place in the order, and the store's schema version once it has run: 1, 2, 3... */
  readonly version: number;
  /** A short kebab-case name, for logs and the store's record. */
  readonly name: string;
  /** What it changes, in a sentence (docs/upgrading.md lists them). */
  readonly description: string;
  /** Does the work; resolves a short account for the log line ("converted 6 snapshots"). */
  up(m: MigrationContext): Promise<string>;
}

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** Declares a migration (checked when the list is: see {@link checkMigrations}). */
export function defineMigration(migration: Migration): Migration {
  return Object.freeze({ ...migration });
}

/**
 * Checks a release's migrations: numbered 1..n in order with no gap, names unique and kebab-case.
 * Resolves the newest schema version (0 with no migrations at all).
 */
export function checkMigrations(migrations: readonly Migration[]): number {
  const names = new Set<string>();
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(
        `migration "${m.name}" is number ${m.version}, expected ${i + 1}: migrations are numbered 1, 2, 3... in order`,
      );
    if (!NAME.test(m.name)) throw new Error(`migration ${m.version}: "${m.name}" is not a kebab-case name`);
    if (names.has(m.name)) throw new Error(`migration ${m.version}: the name "${m.name}" is taken`);
    names.add(m.name);
  });
  return migrations.length;
}
