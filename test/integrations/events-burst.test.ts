/**
 * A burst of job returns on the live event stream (salt-sim with every minion returning at once,
 * real HTTP, a real SQLite file): the returns that arrive together are recorded together, in a
 * few group commits rather than two per return; each is stored once with the content any other
 * path would write; one return the store refuses fails alone, the rest of its batch is stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type Doc, type Runtime } from '@fleet/engine';
import { openSqliteStore, type SqliteStore } from '@fleet/engine/sqlite';
import {
  createFleetSync,
  createSaltClient,
  recordReturns,
  startEventConsumer,
  type SaltClient,
} from '@fleet/salt';
import { startSaltSim, type SaltSim } from '@fleet/salt-sim';
import { capturingLog, runtimeOver } from '../helpers';
import { until } from '../helpers/until';

let sim: SaltSim;
let store: SqliteStore;
let runtime: Runtime;
let dir: string;
let client: SaltClient;
let consumer: { stop(): Promise<void>; connected(): boolean };
const { log, lines } = capturingLog();

const action = async (id: string): Promise<Doc | undefined> => (await store.find('actions', { _id: id }))[0];

/** A minion's return event data, as salt-sim fires it for `cmd.run`. */
function returnData(jid: string, id: string, out: string): Record<string, unknown> {
  return {
    cmd: '_return',
    id,
    jid,
    fun: 'cmd.run',
    fun_args: ['uptime'],
    return: out,
    retcode: 0,
    success: true,
  };
}

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 60, seed: 4, returnDelayMs: 5, returnSpacingMs: 0 });
  dir = mkdtempSync(join(tmpdir(), 'fleet-events-burst-'));
  store = openSqliteStore({ path: join(dir, 'fleet.db') });
  runtime = await runtimeOver(store, log);
  client = createSaltClient({ url: sim.url, ...sim.credentials });
  await createFleetSync({ client, runtime, log, toolKey: 'tool' }).runOnce();
  consumer = startEventConsumer({ client, runtime, log, toolKey: 'tool' });
  await until(() => consumer.connected(), 'the stream to connect');
});

afterAll(async () => {
  await consumer.stop();
  client.close();
  await sim.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a burst of returns is stored in a few group commits; every host's last_action moves to it", async () => {
  const up = new Set((await client.manageStatus('*')).up);
  const before = await store.writeStats();
  const job = await client.localAsync('*', 'cmd.run', { arg: ['uptime'] });
  const returned = job.minions.filter((m) => up.has(m));
  expect(returned.length).toBeGreaterThan(30);
  await until(async () => (await store.count('actions', { jid: job.jid })) === returned.length, 'the burst');
  const after = await store.writeStats();
  // One at a time, each return costs two commits (its action, its host): together, a few per batch.
  expect(after.commits - before.commits).toBeLessThan(returned.length / 2);
  const hosts = await store.find('hosts', { _id: { $in: returned } });
  expect(hosts.map((h) => [h._id, h.last_action])).toEqual(
    [...returned].sort().map((id) => [id, `${job.jid ?? ''}${id}`]),
  );
});

test('a return delivered twice in one burst, and again by another path, is one action with the same content', async () => {
  const [a, b] = [...sim.fleet.minions.values()]
    .filter((m) => m.key === 'accepted')
    .map((m) => m.id)
    .slice(0, 2)
    .sort();
  const jid = '20260101120000123456';
  for (const id of [a, b, a, b])
    sim.controls.emitEvent(`salt/job/${jid}/ret/${id ?? ''}`, returnData(jid, id ?? '', `up ${id ?? ''}`));
  await until(async () => (await store.count('actions', { jid })) === 2, 'both actions');
  const stored = await store.find('actions', { jid }, { sort: [['_id', 1]] });
  expect(stored.map((d) => [d._id, d.return, d.success])).toEqual([
    [`${jid}${a ?? ''}`, `up ${a ?? ''}`, true],
    [`${jid}${b ?? ''}`, `up ${b ?? ''}`, true],
  ]);
  // The job cache (the sync) records the same return: nothing changes, not even the version.
  const again = await recordReturns(runtime, [
    {
      jid,
      host: a ?? '',
      fun: 'cmd.run',
      funArgs: ['uptime'],
      ret: `up ${a ?? ''}`,
      retcode: 0,
      success: true,
    },
  ]);
  expect(again).toEqual([]);
  expect((await action(`${jid}${a ?? ''}`))?._etag).toBe(stored[0]?._etag);
});

test('a return the store refuses fails alone: the others of its burst are stored, the refusal is logged', async () => {
  // The database itself refuses one action (a trigger on the real file, as a damaged row or a
  // constraint would), whichever batch it lands in.
  const raw = new Database(join(dir, 'fleet.db'));
  raw.exec(
    `CREATE TRIGGER refuse_poisoned BEFORE INSERT ON c_actions WHEN json_extract(new.doc, '$.host') = 'poisoned'
     BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
  );
  raw.close();
  const ids = [...sim.fleet.minions.values()].filter((m) => m.key === 'accepted').map((m) => m.id);
  const jid = '20260101120000654321';
  const burst = [...ids.slice(0, 10), 'poisoned', ...ids.slice(10, 20)];
  for (const id of burst) sim.controls.emitEvent(`salt/job/${jid}/ret/${id}`, returnData(jid, id, 'ok'));
  await until(async () => (await store.count('actions', { jid })) === 20, 'the 20 others');
  await until(() => lines.some((l) => l.includes(`salt/job/${jid}/ret/poisoned`)), 'the refusal logged');
  expect(lines.filter((l) => l.startsWith('error') && l.includes(jid))).toEqual([
    expect.stringContaining('refused by the test'),
  ]);
  expect(await action(`${jid}poisoned`)).toBeUndefined();
});
