/**
 * The event stream cannot go silent unnoticed. salt-api's `/events` sends no keep-alives, so a
 * connection dropped on the way (NAT, proxy) is just quiet: the stream's socket has TCP
 * keep-alive on, and the consumer's idle watchdog makes the master fire an event when the stream
 * has been quiet for SALT_EVENTS_IDLE_S; if the master answers and the event never arrives the
 * stream is reopened and the repair sync runs. Real HTTP against salt-sim, real SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Runtime, type Store } from '@fleet/engine';
import { openSqliteStore } from '../../engine/src/store/sqlite';
import {
  createFleetSync,
  createSaltClient,
  startEventConsumer,
  type SaltClient,
  type SyncReport,
} from '@fleet/salt';
import { startSaltSim, type SaltSim } from '@fleet/salt-sim';
import { loadConfig } from '../../packages/server/src/config';
import { capturingLog } from '../helpers/log';
import { runtimeOver } from '../helpers';
import { minionIds } from '../helpers/minions';

let sim: SaltSim;
let store: Store;
let runtime: Runtime;
let dir: string;
let client: SaltClient;
let consumer: { stop(): Promise<void>; connected(): boolean };
let reconnects = 0;
let repair: Promise<SyncReport> | undefined;
const { log, lines } = capturingLog();

const echoes = (): number => sim.controls.stats.byFun['wheel:key.finger_master'] ?? 0;
const upIds = (): string[] => minionIds(sim, 'up');

/** Polls until `probe` is true or fails after 10 s. */
async function until(probe: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 6, seed: 8, returnDelayMs: 2, noReturnWaitMs: 10 });
  dir = mkdtempSync(join(tmpdir(), 'fleet-watchdog-'));
  store = openSqliteStore({ path: join(dir, 'fleet.db') });
  runtime = await runtimeOver(store, log);
  client = createSaltClient({ url: sim.url, ...sim.credentials, retry: { attempts: 1 } });
  const sync = createFleetSync({ client, runtime, log, toolKey: 'tool' });
  await sync.runOnce();
  consumer = startEventConsumer({
    client,
    runtime,
    log,
    toolKey: 'tool',
    idleMs: 150,
    echoWaitMs: 150,
    backoff: { initialMs: 20, maxMs: 100 },
    onReconnect: () => {
      reconnects += 1;
      repair = sync.runOnce();
    },
  });
  await until(() => consumer.connected() && sim.controls.openEventStreams() === 1, 'the stream');
});

afterAll(async () => {
  await consumer.stop();
  await repair;
  client.close();
  await sim.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the event stream's socket has TCP keep-alive on", async () => {
  const stream = await client.events();
  expect(stream.tcpKeepAlive).toBe(true);
  stream.close();
});

test("a quiet stream that carries the echo's event is kept", async () => {
  const before = echoes();
  await until(() => echoes() >= before + 3, 'three idle checks');
  expect(reconnects).toBe(0);
  expect(sim.controls.openEventStreams()).toBe(1);
});

test('a quiet stream is kept while the master does not answer the echo', async () => {
  sim.controls.masterUnavailable(true);
  try {
    const before = echoes();
    await until(() => echoes() >= before + 2, 'two refused echoes');
  } finally {
    sim.controls.masterUnavailable(false);
  }
  expect(reconnects).toBe(0);
  expect(
    lines.some((l) => l.startsWith('warn') && l.includes('the master does not answer; keeping the stream')),
  ).toBe(true);
});

test('a stream gone silent while the master answers is reopened, and the repair sync records what it missed', async () => {
  sim.controls.stallEventStreams();
  const host = upIds()[0] ?? '';
  const job = await client.localAsync(host, 'cmd.run', { arg: ['echo missed'] });
  await until(() => reconnects === 1, 'the watchdog to reopen the stream');
  expect(
    lines.some((l) => l.startsWith('warn') && l.includes('silent although the master answers: reopening it')),
  ).toBe(true);
  expect((await repair)?.masterReachable).toBe(true);
  expect(await store.count('actions', { _id: `${job.jid ?? ''}${host}` })).toBe(1);
  await until(() => consumer.connected() && sim.controls.openEventStreams() === 1, 'the new stream');
});

test('SALT_EVENTS_IDLE_S defaults to 120 s and must be a number of seconds', () => {
  expect(loadConfig({}).SALT_EVENTS_IDLE_S).toBe(120);
  expect(() => loadConfig({ SALT_EVENTS_IDLE_S: 'soon' })).toThrow(
    /^Invalid configuration: SALT_EVENTS_IDLE_S must be a number of seconds/,
  );
});
