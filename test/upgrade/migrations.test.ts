/**
 * The schema step of every start (engine/src/migrations) with migrations made for the test, on
 * real SQLite files: a new store is recorded at the newest schema without running anything; an
 * unrecorded store with data gets every migration in order, a line each; a store part-way gets
 * only what it lacks; a failed migration leaves the schema where it was and runs again at the
 * next start; a newer store is refused before any collection is touched; two instances starting
 * together on one file migrate once; and a release's list of migrations is checked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  checkMigrations,
  createEngine,
  createSecretBox,
  defineMigration,
  defineResource,
  f,
  MigrationFailed,
  readSchemaRecord,
  SCHEMA_COLLECTION,
  SchemaTooNew,
  systemContext,
  type AnyResourceDefinition,
  type Engine,
  type Migration,
  type SchemaOptions,
  type Store,
} from '../../engine/src';
import { refuseWhileServed, SERVER_LEASES, StoreInUse } from '../../packages/duties/src';
import { openSqliteStore } from '../../engine/src/store/sqlite';
import { capturingLog } from '../helpers';

const notes = defineResource({
  name: 'migration_notes',
  description: 'Throwaway: what the test migrations rewrite.',
  fields: { text: f.string({ required: true }), tag: f.string() },
  methods: { list: 'viewer', get: 'viewer', create: 'admin', patch: 'admin' },
});

/** Calls of each migration, in order, across every engine of a test. */
let calls: string[] = [];

/** A migration that tags every note through the local API, as a real one writes. */
function tagging(version: number, o: { fail?: () => boolean; gate?: Promise<void> } = {}): Migration {
  const name = `tag-${version}`;
  return defineMigration({
    version,
    name,
    description: `tags every note with ${name}`,
    async up({ ctx }) {
      calls.push(name);
      await o.gate;
      if (o.fail?.()) throw new Error('the disk said no');
      const api = ctx.runtime.resources.of(notes);
      const all = await api.find({}, ctx);
      for (const note of all) await api.patch(note._id, { tag: name }, ctx);
      return `tagged ${all.length} note(s)`;
    },
  });
}

let dir: string;
let path: string;
beforeEach(() => {
  calls = [];
  dir = mkdtempSync(join(tmpdir(), 'fleet-migrations-'));
  path = join(dir, 'fleet.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Opens the file and prepares it as a start does, with `migrations` (or none: a release of old). */
async function start(
  migrations?: readonly Migration[],
  o: {
    definitions?: readonly AnyResourceDefinition[];
    log?: ReturnType<typeof capturingLog>;
    refuseWhileServed?: SchemaOptions['refuseWhileServed'];
  } = {},
): Promise<{ store: Store; engine: Engine; lines: string[] }> {
  const store = openSqliteStore({ path, readOffload: { workers: 0 } });
  const { log, lines } = o.log ?? capturingLog();
  const refusal = o.refuseWhileServed ? { refuseWhileServed: o.refuseWhileServed } : {};
  const schema: SchemaOptions | undefined = migrations && { release: '9.8.7', migrations, ...refusal };
  const engine = createEngine({
    definitions: o.definitions ?? [notes],
    store,
    secrets: createSecretBox('migrations-test-key-0123456789'),
    log,
    ...(schema ? { schema } : {}),
  });
  try {
    await engine.ensureCollections();
  } catch (err) {
    await store.close();
    throw err;
  }
  return { store, engine, lines };
}

/** Notes written as a release before schema records would have: no schema step at all. */
async function legacyStore(texts: string[]): Promise<void> {
  const { store, engine } = await start();
  const ctx = systemContext(engine.runtime);
  for (const text of texts) await engine.runtime.resources.of(notes).create({ text }, ctx);
  await store.close();
}

async function record(store: Store) {
  return readSchemaRecord(store);
}

async function tags(store: Store): Promise<unknown[]> {
  return (await store.find('migration_notes', {}, { sort: [['text', 1]] })).map((d) => d.tag);
}

/** Resolves once `ok()` holds, looking again at every turn of the event loop. */
async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((resolve) => setImmediate(resolve));
}

const migrationLines = (lines: string[]) => lines.filter((l) => l.includes('"migration"'));

describe('the schema step', () => {
  it('records a new store at the newest schema and runs nothing', async () => {
    const { store, lines } = await start([tagging(1), tagging(2)]);
    expect(calls).toEqual([]);
    expect(migrationLines(lines)).toEqual([]);
    expect(await record(store)).toMatchObject({
      version: 2,
      release: '9.8.7',
      since: { version: 2 },
      migrations: [],
    });
    await store.close();
  });

  it('runs every migration, in order and a line each, on an unrecorded store that holds data', async () => {
    await legacyStore(['a', 'b']);
    const { store, lines } = await start([tagging(1), tagging(2)]);
    expect(calls).toEqual(['tag-1', 'tag-2']);
    expect(await tags(store)).toEqual(['tag-2', 'tag-2']);
    const done = migrationLines(lines);
    expect(done).toHaveLength(2);
    expect(done[0]).toMatch(/^info schema 1 \(tag-1\): tagged 2 note\(s\), \d+ ms /);
    expect(done[1]).toMatch(/^info schema 2 \(tag-2\): tagged 2 note\(s\), \d+ ms /);
    expect(lines.filter((l) => l.includes('migrating the store from schema 0 to 2'))).toHaveLength(1);
    const kept = await record(store);
    expect(kept).toMatchObject({ version: 2, since: { version: 0 } });
    expect(kept?.migrations.map((m) => [m.version, m.name, m.result])).toEqual([
      [1, 'tag-1', 'tagged 2 note(s)'],
      [2, 'tag-2', 'tagged 2 note(s)'],
    ]);
    await store.close();
  });

  it('runs only what a store part-way lacks, and nothing the next time', async () => {
    await legacyStore(['a']);
    await (await start([tagging(1)])).store.close();
    calls = [];
    const second = await start([tagging(1), tagging(2), tagging(3)]);
    expect(calls).toEqual(['tag-2', 'tag-3']);
    expect((await record(second.store))?.version).toBe(3);
    await second.store.close();
    calls = [];
    const third = await start([tagging(1), tagging(2), tagging(3)]);
    expect(calls).toEqual([]);
    await third.store.close();
  });

  it('keeps the schema before a failed migration, and runs it again at the next start', async () => {
    await legacyStore(['a']);
    let failing = true;
    const list = [tagging(1), tagging(2, { fail: () => failing })];
    await expect(start(list)).rejects.toThrow(
      new MigrationFailed('schema migration 2 (tag-2) failed: the disk said no'),
    );
    const store = openSqliteStore({ path, readOffload: { workers: 0 } });
    expect((await record(store))?.version).toBe(1);
    await store.close();
    failing = false;
    calls = [];
    const again = await start(list);
    expect(calls).toEqual(['tag-2']);
    expect((await record(again.store))?.version).toBe(2);
    await again.store.close();
  });

  it('refuses a store at a newer schema before touching a collection', async () => {
    await (await start([tagging(1), tagging(2)])).store.close();
    const extra = defineResource({
      name: 'migration_extra',
      description: 'Throwaway: a collection the refused start must not create.',
      fields: { x: f.string() },
      methods: { list: 'viewer' },
    });
    const refused = start([tagging(1)], { definitions: [notes, extra] });
    await expect(refused).rejects.toThrow(SchemaTooNew);
    await expect(refused).rejects.toThrow(
      'This store is at schema 2 (written by Fleet API 9.8.7), newer than Fleet API 9.8.7 knows (schema 1)',
    );
    const db = new Database(path, { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    db.close();
    expect(tables).toContain('c_migration_notes');
    expect(tables).not.toContain('c_migration_extra');
    expect(calls).toEqual([]);
  });

  it('migrates once when two instances start together on one file', async () => {
    await legacyStore(['a', 'b', 'c']);
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const list = [tagging(1, { gate })];
    const first = start(list);
    // The first holds the lease inside its migration; the second waits for it, and says so.
    await until(() => calls.length === 1);
    const secondLog = capturingLog();
    const second = start(list, { log: secondLog });
    await until(() => secondLog.lines.some((l) => l.includes('another instance is migrating the store')));
    open();
    const [a, b] = await Promise.all([first, second]);
    expect(calls).toEqual(['tag-1']);
    expect(await tags(b.store)).toEqual(['tag-1', 'tag-1', 'tag-1']);
    expect((await record(b.store))?.version).toBe(1);
    await a.store.close();
    await b.store.close();
  });

  it('never migrates while a server holds the store; once it is gone, migrates', async () => {
    await legacyStore(['a']);
    const held = openSqliteStore({ path, readOffload: { workers: 0 } });
    const [lease = ''] = SERVER_LEASES;
    await held.leases.acquire(lease, 'old-release:41:cafe', 60_000);
    const refused = await start([tagging(1)], { refuseWhileServed }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreInUse);
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^migrating the store from schema 0 to 1 refused: a server holds the store \\(lease "${lease}" of ` +
          'old-release:41:cafe\\); stop every server first \\(a server that was killed lets go within \\d+ s\\)$',
      ),
    );
    expect(calls).toEqual([]);
    await held.leases.release(lease, 'old-release:41:cafe');
    await held.close();
    const { store } = await start([tagging(1)], { refuseWhileServed });
    expect(calls).toEqual(['tag-1']);
    expect(await record(store)).toMatchObject({ version: 1 });
    await store.close();
  });

  it('refuses a resource named like the record', async () => {
    const clash = defineResource({
      name: SCHEMA_COLLECTION,
      description: 'Throwaway: takes the engine’s own name.',
      fields: { x: f.string() },
      methods: { list: 'viewer' },
    });
    const store = openSqliteStore({ path, readOffload: { workers: 0 } });
    const engine = createEngine({
      definitions: [clash],
      store,
      secrets: createSecretBox('migrations-test-key-0123456789'),
      log: capturingLog().log,
      schema: { release: '1.0.0', migrations: [] },
    });
    await expect(engine.ensureCollections()).rejects.toThrow(
      `the resource name "${SCHEMA_COLLECTION}" is the engine's own`,
    );
    await store.close();
  });
});

describe('checkMigrations', () => {
  it('takes migrations numbered 1..n with kebab-case names, and gives the newest schema', () => {
    expect(checkMigrations([])).toBe(0);
    expect(checkMigrations([tagging(1), tagging(2)])).toBe(2);
  });

  it.each([
    ['a gap', [tagging(1), tagging(3)], 'migration "tag-3" is number 3, expected 2'],
    ['out of order', [tagging(2), tagging(1)], 'migration "tag-2" is number 2, expected 1'],
    [
      'a taken name',
      [tagging(1), { ...tagging(2), name: 'tag-1' }],
      'migration 2: the name "tag-1" is taken',
    ],
    ['a bad name', [{ ...tagging(1), name: 'Tag One' }], 'migration 1: "Tag One" is not a kebab-case name'],
  ])('refuses %s', (_what, list, message) => {
    expect(() => checkMigrations(list)).toThrow(message);
  });
});
