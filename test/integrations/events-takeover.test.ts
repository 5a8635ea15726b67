/**
 * The event stream's one reader across instances, against salt-sim (real HTTP, real SQLite):
 * of two instances only the holder of the `salt-events` lease opens the stream and handles each
 * event; when the holder dies (its lease runs out) or stops (it releases the lease), the other
 * one opens the stream and, since events passed while nobody read, asks for a repair sync, which
 * records the return nobody heard.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leaseTimes, noteDuty } from '@fleet/duties';
import { type Log, type Runtime, type Store } from '@fleet/engine';
import { openSqliteStore } from '@fleet/engine/sqlite';
import {
  createFleetSync,
  createSaltClient,
  EVENTS_LEASE,
  startEventReader,
  type EventReader,
  type SaltClient,
} from '@fleet/salt';
import { startSaltSim, type SaltSim } from '@fleet/salt-sim';
import { runtimeOver } from '../helpers';
import { minionIds } from '../helpers/minions';
import { until } from '../helpers/until';

let sim: SaltSim;
let store: Store;
let runtime: Runtime;
let dir: string;
const clients: SaltClient[] = [];
const quiet: Log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};
const TIMES = leaseTimes(3000);

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 8, seed: 5, returnDelayMs: 2 });
  dir = mkdtempSync(join(tmpdir(), 'fleet-events-takeover-'));
  store = openSqliteStore({ path: join(dir, 'fleet.db') });
  runtime = await runtimeOver(store, quiet);
  const client = createSaltClient({ url: sim.url, ...sim.credentials });
  clients.push(client);
  await createFleetSync({ client, runtime, log: quiet, toolKey: 'tool' }).runOnce();
});

afterAll(async () => {
  for (const c of clients) c.close();
  await sim.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One instance's reader: its own client, its handled events, its repair syncs. */
function instance(holder: string): {
  reader: EventReader;
  handled: string[];
  repairs: () => number;
  stop: () => Promise<void>;
} {
  const client = createSaltClient({ url: sim.url, ...sim.credentials });
  clients.push(client);
  const handled: string[] = [];
  const log: Log = { ...quiet, debug: (o) => void handled.push(String((o as { tag?: unknown }).tag)) };
  const sync = createFleetSync({ client, runtime, log: quiet, toolKey: 'tool' });
  const running: Promise<unknown>[] = [];
  const reader = startEventReader({
    client,
    toolKey: 'tool',
    duty: { runtime, log, holder, times: TIMES },
    repair: () => void running.push(sync.runOnce()),
  });
  const stop = async (): Promise<void> => {
    await reader.stop();
    await Promise.allSettled(running);
  };
  return { reader, handled, repairs: () => running.length, stop };
}

const actionCount = (jid: string): Promise<number> => store.count('actions', { jid });

test('a dead reader is replaced within the lease time, and the repair sync records what nobody heard', async () => {
  // The dead instance: it held the lease (and read the stream) and will never renew.
  expect(await runtime.leases.acquire(EVENTS_LEASE, 'dead', TIMES.ttlMs)).not.toBeNull();
  await noteDuty({ runtime, log: quiet, holder: 'dead', times: TIMES }, EVENTS_LEASE, { holder: 'dead' });
  const b = instance('b');
  try {
    // Nobody reads: a job returns unheard.
    const [host = ''] = minionIds(sim, 'up');
    const missed = await clients[0]?.local(host, 'cmd.run', { arg: ['uptime'] });
    expect(sim.controls.openEventStreams()).toBe(0);
    await until(() => b.reader.connected(), 'b to open the stream');
    expect(b.repairs()).toBe(1);
    await until(async () => (await actionCount(missed?.jid ?? '')) === 1, 'the repair sync to record it');
  } finally {
    await b.stop();
  }
});

test('of two live instances one reads; each event is handled once; when it stops, the other reads and repairs', async () => {
  const a = instance('a');
  await until(() => a.reader.connected(), 'a to read');
  const b = instance('b2');
  try {
    await until(() => a.reader.reading() && !b.reader.reading(), 'one reader');
    const [host = ''] = minionIds(sim, 'up');
    for (let i = 0; i < 3; i++)
      sim.controls.minionEvent(host, 'vnc/connect', { hostname: `mark-${i}`, status: 'connected' });
    await until(
      () => a.handled.filter((t) => t === 'vnc/connect').length === 3,
      'a to handle the three events',
    );
    expect(sim.controls.openEventStreams()).toBe(1);
    expect(b.handled).toEqual([]);
    await a.reader.stop();
    await until(() => b.reader.connected(), 'b to take the stream over');
    expect(b.repairs()).toBe(1);
    sim.controls.minionEvent(host, 'vnc/connect', { hostname: 'mark-after', status: 'connected' });
    await until(() => b.handled.includes('vnc/connect'), 'b to handle the next event');
    expect(a.handled.filter((t) => t === 'vnc/connect')).toHaveLength(3);
    expect(sim.controls.openEventStreams()).toBe(1);
  } finally {
    await a.stop();
    await b.stop();
  }
});
