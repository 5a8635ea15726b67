/**
 * The schema step of every start (the engine's `ensureCollections`): a store written by a newer
 * schema is refused before anything touches it; a new store is recorded at the newest schema; a
 * store at an older one (or with no record: written before releases kept one) gets the pending
 * migrations in order, one log line each, under a lease so that of several instances starting
 * together on one database only one migrates while the others wait for it.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CallContext } from '../definition/local-api';
import type { Log } from '../log';
import type { LeaseStore, Store } from '../store/port';
import { checkMigrations, type Migration } from './define';
import {
  readSchemaRecord,
  recordMigration,
  recordRelease,
  SCHEMA_COLLECTION,
  startSchemaRecord,
  type SchemaRecord,
} from './record';

/** What the server declares: its release and its migrations, in order. */
export interface SchemaOptions {
  /** The release (package version) running: it is written into the record. */
  readonly release: string;
  readonly migrations: readonly Migration[];
  /**
   * Asked with the migration lease held, before the pending migrations run: rejects, in one line
   * starting with `what`, when a server holds the store (one of the older release, still serving
   * from the store this one would change under it).
   */
  readonly refuseWhileServed?: (leases: LeaseStore, what: string) => Promise<void>;
}

/** A store written by a newer schema than this release knows: the start stops with this one line. */
export class SchemaTooNew extends Error {
  override readonly name = 'SchemaTooNew';
}

/** A migration that failed: the store stays at the schema before it, and the next start runs it again. */
export class MigrationFailed extends Error {
  override readonly name = 'MigrationFailed';
}

/** The lease of the migrating instance; renewed while a migration runs. */
const LEASE = 'schema-migrations';
const LEASE_TTL_MS = 60_000;
/** How often an instance waiting for another one's migration looks again. */
const WAIT_MS = 500;

function tooNew(found: SchemaRecord, latest: number, release: string): SchemaTooNew {
  return new SchemaTooNew(
    `This store is at schema ${found.version} (written by Fleet API ${found.release}), newer than ` +
      `Fleet API ${release} knows (schema ${latest}): run ${found.release} or later, or restore the ` +
      `backup taken before the upgrade (docs/upgrading.md)`,
  );
}

/**
 * Before any collection is touched: refuses a store at a newer schema, and a resource named like
 * the record's collection. Resolves the record (undefined when there is none).
 */
export async function checkSchema(
  store: Store,
  resourceNames: readonly string[],
  schema: SchemaOptions,
): Promise<SchemaRecord | undefined> {
  if (resourceNames.includes(SCHEMA_COLLECTION))
    throw new Error(`the resource name "${SCHEMA_COLLECTION}" is the engine's own: rename the resource`);
  const latest = checkMigrations(schema.migrations);
  const record = await readSchemaRecord(store);
  if (record !== undefined && record.version > latest) throw tooNew(record, latest, schema.release);
  return record;
}

/** Whether no resource's collection holds anything (a store made now, not one an older release wrote). */
async function isEmpty(store: Store, resourceNames: readonly string[]): Promise<boolean> {
  for (const name of resourceNames) {
    const [doc] = await store.find(name, {}, { limit: 1, projection: { _id: 1 } });
    if (doc !== undefined) return false;
  }
  return true;
}

interface Step {
  readonly store: Store;
  /** A fresh call context of the system principal (the engine's `systemContext`). */
  readonly systemCall: () => CallContext;
  readonly log: Log;
  readonly resourceNames: readonly string[];
  readonly schema: SchemaOptions;
}

/**
 * After the collections exist: brings the store to the newest schema (see the module's comment).
 * Resolves once the record says the newest schema.
 */
export async function migrateStore(step: Step): Promise<void> {
  const latest = checkMigrations(step.schema.migrations);
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  let waiting = false;
  for (;;) {
    const record = await readSchemaRecord(step.store);
    if (record !== undefined && record.version > latest) throw tooNew(record, latest, step.schema.release);
    if (record !== undefined && record.version === latest) {
      if (record.release !== step.schema.release) await recordRelease(step.store, step.schema.release);
      return;
    }
    if (record === undefined && (await isEmpty(step.store, step.resourceNames))) {
      await startSchemaRecord(step.store, { version: latest, release: step.schema.release, now: new Date() });
      continue; // read back: another instance may have recorded first
    }
    if (await step.store.leases.acquire(LEASE, holder, LEASE_TTL_MS)) {
      try {
        await migrateHeld(step, latest, holder);
      } finally {
        await step.store.leases.release(LEASE, holder).catch(() => false);
      }
      continue;
    }
    if (!waiting) step.log.info({ lease: LEASE }, 'another instance is migrating the store; waiting for it');
    waiting = true;
    await sleep(WAIT_MS);
  }
}

/** With the lease held: the pending migrations, each recorded as soon as it is done. */
async function migrateHeld(step: Step, latest: number, holder: string): Promise<void> {
  const { store, log, schema } = step;
  let record = await readSchemaRecord(store);
  if (record === undefined) {
    await startSchemaRecord(store, { version: 0, release: schema.release, now: new Date() });
    record = await readSchemaRecord(store);
  }
  const from = record?.version ?? 0;
  if (from >= latest) return;
  await schema.refuseWhileServed?.(store.leases, `migrating the store from schema ${from} to ${latest}`);
  const pending = schema.migrations.slice(from);
  log.info(
    { from, to: latest, migrations: pending.map((m) => m.name) },
    `migrating the store from schema ${from} to ${latest}: ${pending.map((m) => m.name).join(', ')}`,
  );
  for (const migration of pending) await applyOne(step, migration, holder);
}

/** Runs one migration with its lease kept alive, then records it and logs its line. */
async function applyOne(step: Step, migration: Migration, holder: string): Promise<void> {
  const { store, log, schema } = step;
  let lost = false;
  const renew = async (): Promise<boolean> => {
    if (!lost) lost = (await store.leases.renew(LEASE, holder, LEASE_TTL_MS)) === null;
    return !lost;
  };
  // A migration that does not ask keepGoing between its steps still keeps the lease.
  const timer = setInterval(() => void renew().catch(() => undefined), LEASE_TTL_MS / 3);
  timer.unref();
  const started = Date.now();
  let result: string;
  try {
    result = await migration.up({ ctx: step.systemCall(), keepGoing: renew });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new MigrationFailed(`schema migration ${migration.version} (${migration.name}) failed: ${message}`);
  } finally {
    clearInterval(timer);
  }
  if (lost)
    throw new MigrationFailed(
      `schema migration ${migration.version} (${migration.name}) lost its lease to another instance; it runs again at the next start`,
    );
  const ms = Date.now() - started;
  await recordMigration(store, {
    version: migration.version,
    name: migration.name,
    release: schema.release,
    at: new Date().toISOString(),
    ms,
    result,
  });
  log.info(
    { schema: migration.version, migration: migration.name, ms },
    `schema ${migration.version} (${migration.name}): ${result}, ${ms} ms`,
  );
}
