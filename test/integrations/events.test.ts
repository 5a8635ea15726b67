/**
 * The live event consumer against salt-sim's /events stream (real HTTP, real SQLite): job
 * returns become actions and failed patches as they arrive, key and minion-start events update
 * hosts, vnc/connect events raise alerts; a dropped stream or an expired session is followed
 * by a reconnect (with a fresh login), and the sync started by `onReconnect` records the return
 * that came while the stream was down.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Doc, type Log, type Runtime, type Store } from '@fleet/engine';
import { openSqliteStore } from '@fleet/engine/sqlite';
import { createSaltClient, type SaltClient } from '@fleet/salt';
import { startEventConsumer } from '@fleet/salt';
import { createFleetSync, type SyncReport } from '@fleet/salt';
import { DEFAULT_MASTER_VERSION, startSaltSim, type SaltSim, type SimMinion } from '@fleet/salt-sim';
import { runtimeOver } from '../helpers';

let sim: SaltSim;
let store: Store;
let runtime: Runtime;
let dir: string;
let client: SaltClient;
let sync: { runOnce(): Promise<SyncReport> };
let consumer: { stop(): Promise<void>; connected(): boolean };
let reconnects = 0;
let repair: Promise<SyncReport> | undefined;

const log: Log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};
const minions = (): SimMinion[] => [...sim.fleet.minions.values()];
const upHosts = (): SimMinion[] => minions().filter((m) => m.key === 'accepted' && m.up);
const one = async (collection: string, id: string): Promise<Doc | undefined> =>
  (await store.find(collection, { _id: id }))[0];

/** Polls until `probe` resolves a value (not undefined/false) or the deadline passes. */
async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  deadlineMs = 5000,
): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error('not reached before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs a command through local_async and resolves the action the stream records for it. */
async function actionFor(id: string, cmd: string): Promise<Doc> {
  const job = await client.localAsync(id, 'cmd.run', { arg: [cmd] });
  return eventually(() => one('actions', `${job.jid ?? ''}${id}`));
}

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 20, seed: 3, returnDelayMs: 5 });
  dir = mkdtempSync(join(tmpdir(), 'fleet-events-'));
  store = openSqliteStore({ path: join(dir, 'fleet.db') });
  runtime = await runtimeOver(store, log);
  client = createSaltClient({ url: sim.url, ...sim.credentials });
  sync = createFleetSync({ client, runtime, log, toolKey: 'tool' });
  await sync.runOnce();
  consumer = startEventConsumer({
    client,
    runtime,
    log,
    toolKey: 'tool',
    onReconnect: () => {
      reconnects += 1;
      repair = sync.runOnce();
    },
  });
  await eventually(() => consumer.connected());
});

afterAll(async () => {
  await consumer.stop();
  await repair;
  expect(consumer.connected()).toBe(false);
  client.close();
  await sim.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a local_async job returns through the stream as an action, and moves last_action', async () => {
  const id = upHosts()[0]?.id ?? '';
  const action = await actionFor(id, 'hostname -f');
  expect(action).toMatchObject({
    action: 'cmd.run',
    host: id,
    state: 'finished',
    return: id,
    args: [{ arg: 'hostname -f', __kwarg__: false }],
  });
  expect((await one('hosts', id))?.last_action).toBe(action._id);
});

test('a failing state run through the stream becomes a failed patch and an error alert', async () => {
  const id = upHosts().find((m) => m.failingStates)?.id ?? '';
  const job = await client.localAsync(id, 'state.apply', { arg: ['patches.sudo-cve-2023-42465'] });
  const patch = await eventually(() => one('failed_patches', `${job.jid ?? ''}${id}`));
  expect(patch).toMatchObject({ action: 'state.apply', host: id, patch: 'patches.sudo-cve-2023-42465' });
  expect(await store.find('alerts', { type: 'patch.failed', 'payload.hostname': id })).toHaveLength(1);
});

test("the sync's own grains and liveness pings are not recorded as actions", async () => {
  await sync.runOnce();
  // Events are handled in order: once this job is recorded, the sync's returns were seen.
  await actionFor(upHosts()[1]?.id ?? '', 'uptime');
  expect(await store.count('actions', { action: { $in: ['grains.items', 'test.ping'] } })).toBe(0);
});

/** A consumer (its own engine over the shared store) that counts its own attempts to write alerts. */
async function countingConsumer(): Promise<{
  consumer: ReturnType<typeof startEventConsumer>;
  writes: () => number;
}> {
  let writes = 0;
  const spy: Store = {
    ...store,
    write: (batch) => {
      if (batch.some((w) => w.collection === 'alerts')) writes += 1;
      return store.write(batch);
    },
  };
  return {
    consumer: startEventConsumer({ client, runtime: await runtimeOver(spy, log), log, toolKey: 'tool' }),
    writes: () => writes,
  };
}

test('vnc/connect events raise vnc.connect alerts (minion or runner shape), once even with several consumers', async () => {
  const extra = [await countingConsumer(), await countingConsumer()];
  try {
    await eventually(() => extra.every((c) => c.consumer.connected()));
    const id = upHosts()[2]?.id ?? '';
    sim.controls.minionEvent(id, 'vnc/connect', { hostname: id, status: 'connected' });
    sim.controls.emitEvent('vnc/connect', { hostname: 'kiosk-7', status: 'disconnected' });
    // Each extra consumer has tried to write both events: without the per-event id there would be 4+ alerts.
    await eventually(() => extra.every((c) => c.writes() === 2));
    const alerts = await store.find('alerts', { type: 'vnc.connect' });
    expect(alerts.map((a) => [a.level, a.payload])).toEqual(
      expect.arrayContaining([
        ['info', { hostname: id, status: 'connected' }],
        ['info', { hostname: 'kiosk-7', status: 'disconnected' }],
      ]),
    );
    expect(alerts).toHaveLength(2);
  } finally {
    await Promise.all(extra.map((c) => c.consumer.stop()));
  }
});

test('salt/key events move the key; a deleted key keeps the host as denied and down', async () => {
  const pending = minions().find((m) => m.key === 'pending')?.id ?? '';
  await client.wheel('key.reject', { match: pending });
  await eventually(async () => (await one('hosts', pending))?.key === 'rejected');
  const gone = upHosts()[3]?.id ?? '';
  await client.wheel('key.delete', { match: gone });
  expect(
    await eventually(async () => {
      const h = await one('hosts', gone);
      return h?.key === 'denied' && h;
    }),
  ).toMatchObject({ status: 'down', nodegroups: [] });
});

test('a minion start marks the host up with a fresh heartbeat and raises host.up', async () => {
  const down = minions().find((m) => m.key === 'accepted' && !m.up)?.id ?? '';
  expect((await one('hosts', down))?.status).toBe('down');
  sim.controls.setUp(down, true);
  const h = await eventually(async () => {
    const found = await one('hosts', down);
    return found?.status === 'up' && found;
  });
  expect(h.heartbeat).toEqual(expect.any(Date));
  expect(await store.find('alerts', { type: 'host.up', 'payload.hostname': down })).toHaveLength(1);
});

test('a dropped stream reconnects; the sync onReconnect starts records the return missed meanwhile', async () => {
  const before = reconnects;
  const id = upHosts()[4]?.id ?? '';
  sim.controls.dropEventStream();
  // Returned within milliseconds, while the consumer waits out its back-off.
  const job = await client.localAsync(id, 'cmd.run', { arg: ['whoami'] });
  await eventually(() => reconnects > before && consumer.connected());
  const report = await (repair ?? Promise.reject(new Error('onReconnect did not start a sync')));
  expect(report.actionsRecorded).toBe(1);
  expect(await one('actions', `${job.jid ?? ''}${id}`)).toMatchObject({ action: 'cmd.run', return: 'root' });
  await actionFor(id, 'uname -r');
});

test('an expired session ends a 3005+ stream (issue #53742); the consumer logs in again and keeps recording', async () => {
  const before = reconnects;
  sim.controls.resetStats();
  sim.controls.settings.masterVersion = '3006.9';
  try {
    sim.controls.expireSessions();
    // The master notices the expired session at the next event and closes the stream.
    sim.controls.emitEvent('fleet/test/nudge', {});
    await eventually(() => reconnects > before && consumer.connected());
  } finally {
    sim.controls.settings.masterVersion = DEFAULT_MASTER_VERSION;
  }
  expect(sim.controls.stats.logins).toBeGreaterThanOrEqual(1);
  await actionFor(upHosts()[5]?.id ?? '', 'whoami');
  expect((await repair)?.masterReachable).toBe(true);
});
