/**
 * The benchmark's bulk load of actions (packages/server/bench/bulk-actions.ts) stores what the
 * engine stores: the same fleet (200 hosts, 2,000 actions, one seed and one `now`) seeded once
 * through the local API and once with the bulk loader (the engine writing only the first 50) gives
 * files with the same schema and the same rows in every table, side tables included (the items
 * the engine derives at its own writes differ only by their clock stamps), and an
 * engine over either answers the same reads (a host's actions newest first, a job's actions, the
 * latest page, a host with its last action).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { systemContext, type Runtime } from '@fleet/engine';
import { BULK_COLLECTIONS, seedFleet, type ActionsWriter } from '../../packages/server/src/seed';
import { bulkActions } from '../../packages/server/bench/bulk-actions';
import { withEngine } from '../../packages/server/bench/engine';

const SECRET_KEY = 'bulk-seed-secret-0123456789abcdef';
const NOW = new Date('2026-06-01T12:00:00.000Z');
const FLEET = { hosts: 200, actions: 2000, seed: 7, now: NOW, snapshots: 4 };

/** Tables of items the engine writes itself (rule upkeep, default settings), stamped with the clock. */
const CLOCKED = ['c_group_rules', 'c_host_rules', 'c_settings'];

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bulk-seed-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Seeds the fleet into a new file, with `writeActions` when given; resolves its path. */
async function seeded(name: string, writer?: (path: string) => ActionsWriter): Promise<string> {
  const path = join(dir, `${name}.db`);
  await withEngine(
    path,
    SECRET_KEY,
    (runtime) => seedFleet(runtime, { ...FLEET, ...(writer ? { writeActions: writer(path) } : {}) }),
    { bulk: BULK_COLLECTIONS },
  );
  return path;
}

/** Every table's rows in a stable order, and the schema. */
function contents(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const schema = db
      .prepare<[], { type: string; name: string; sql: string | null }>(
        "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_stat%' ORDER BY type, name",
      )
      .all();
    const out: Record<string, unknown[]> = { schema };
    for (const { name } of schema.filter((s) => s.type === 'table'))
      out[name] = db.prepare(`SELECT * FROM "${name}" ORDER BY 1, 2`).raw().all();
    return out;
  } finally {
    db.close();
  }
}

/** (id, doc) rows with the documents' `_created`, `_updated` and `_etag` left out. */
function unstamped(rows: unknown[] = []): unknown[] {
  return rows.map((row) => {
    const [id, text] = row as [string, string];
    const { _created, _updated, _etag, ...rest } = JSON.parse(text) as Record<string, unknown>;
    return [id, rest, typeof _created, typeof _updated, typeof _etag];
  });
}

/** Reads a user makes of the actions and hosts, through the local API. */
async function reads(path: string): Promise<unknown> {
  return withEngine(path, SECRET_KEY, async (runtime: Runtime) => {
    const ctx = systemContext(runtime);
    const actions = runtime.resources.get('actions');
    const hosts = runtime.resources.get('hosts');
    const [host] = await hosts.find({ where: { key: 'accepted' }, sort: [['_id', 1]], limit: 1 }, ctx);
    const hostId = String(host?._id);
    const ofHost = await actions.find({ where: { host: hostId }, sort: [['_created', -1]], limit: 25 }, ctx);
    const jid = String(ofHost[0]?.jid);
    return {
      host: await hosts.get(hostId, ctx),
      ofHost,
      ofJob: await actions.find({ where: { jid }, sort: [['_id', 1]] }, ctx),
      latest: await actions.find({ sort: [['_created', -1]], limit: 50 }, ctx),
      count: await actions.count({}, ctx),
      failed: await actions.count({ success: false }, ctx),
    };
  });
}

test('a bulk-loaded fleet is the fleet the engine writes: same rows, same reads', async () => {
  const engine = await seeded('engine');
  const bulk = await seeded('bulk', (path) => bulkActions(path, { checked: 50 }));
  const [a, b] = [contents(engine), contents(bulk)];
  expect(Object.keys(b)).toEqual(Object.keys(a));
  expect(a.c_actions).toHaveLength(FLEET.actions);
  const differ = Object.keys(a).filter((t) => JSON.stringify(a[t]) !== JSON.stringify(b[t]));
  // Rows the engine derives at its own write, stamped with the wall clock of the seed: the same but
  // for the stamps (equal too when both seeds ran within the same second).
  expect(differ.filter((t) => !CLOCKED.includes(t))).toEqual([]);
  for (const table of CLOCKED) expect(unstamped(b[table])).toEqual(unstamped(a[table]));
  const answers = await reads(engine);
  expect(answers).toMatchObject({ count: FLEET.actions });
  expect(await reads(bulk)).toEqual(answers);
});
