/**
 * The fleet sync when the master misbehaves (salt-sim fault controls, real HTTP, real SQLite):
 * connection refused, 503 from salt-api, a master dying in the middle of a run, a master too
 * slow for the client's timeout — the stored fleet stays as it was, ONE master.unreachable
 * alert per outage and a clear log line; then master.reachable once it is back. And an expired
 * salt-api session is replaced by a fresh login without anyone noticing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Doc, type Runtime, type Store } from '@fleet/engine';
import { openSqliteStore } from '@fleet/engine/sqlite';
import { createSaltClient, type SaltClient } from '@fleet/salt';
import { createFleetSync, type SyncReport } from '@fleet/salt';
import { startSaltSim, type SaltSim } from '@fleet/salt-sim';
import { capturingLog } from '../helpers/log';
import { runtimeOver } from '../helpers';
import { minionIds } from '../helpers/minions';

let sim: SaltSim;
let store: Store;
let runtime: Runtime;
let dir: string;
let client: SaltClient;
let sync: { runOnce(): Promise<SyncReport> };
const { log, lines } = capturingLog();

const hosts = (): Promise<Doc[]> => store.find('hosts', {}, { sort: [['_id', 1]] });
const masterAlerts = (): Promise<Doc[]> =>
  store.find(
    'alerts',
    { type: { $in: ['master.unreachable', 'master.reachable'] } },
    {
      sort: [
        ['_created', 1],
        ['_id', 1],
      ],
    },
  );
const upIds = (): string[] => minionIds(sim, 'up');

async function until(check: () => boolean, deadlineMs = 5000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 25, seed: 5, returnDelayMs: 5 });
  dir = mkdtempSync(join(tmpdir(), 'fleet-sync-faults-'));
  store = openSqliteStore({ path: join(dir, 'fleet.db') });
  runtime = await runtimeOver(store, log);
  client = createSaltClient({
    url: sim.url,
    ...sim.credentials,
    retry: { attempts: 2, baseDelayMs: 20, maxDelayMs: 50 },
    timeouts: { read: 2000, exec: 2000 },
  });
  sync = createFleetSync({ client, runtime, log, toolKey: 'tool' });
  expect((await sync.runOnce()).hostsNew).toBe(sim.fleet.minions.size);
});

afterAll(async () => {
  client.close();
  await sim.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('master down: nothing lost or changed, one master.unreachable alert, a clear log; then master.reachable', async () => {
  const before = await hosts();
  sim.controls.setUp(upIds()[0] ?? '', false);
  await sim.controls.masterDown(true);
  try {
    const first = await sync.runOnce();
    expect(first).toMatchObject({ masterReachable: false, hostsChanged: 0, hostsNew: 0, alertsRaised: 1 });
    expect((await sync.runOnce()).alertsRaised).toBe(0);
    expect(await hosts()).toEqual(before);
    expect(await masterAlerts()).toEqual([
      expect.objectContaining({ type: 'master.unreachable', level: 'error', read: false }),
    ]);
    const line = lines.find((l) => l.startsWith('error') && l.includes('salt master unreachable'));
    expect(line).toMatch(/ECONNREFUSED/);
    expect(line).not.toContain(sim.credentials.password);
  } finally {
    await sim.controls.masterDown(false);
  }
  const back = await sync.runOnce();
  expect(back).toMatchObject({ masterReachable: true, hostsChanged: 1 });
  expect((await masterAlerts()).map((a) => [a.type, a.level])).toEqual([
    ['master.unreachable', 'error'],
    ['master.reachable', 'info'],
  ]);
  expect((await sync.runOnce()).alertsRaised).toBe(0);
});

test('salt-api answering 503 (master daemon gone) is an outage too, and the fleet is kept', async () => {
  const before = await hosts();
  sim.controls.masterUnavailable(true);
  try {
    expect(await sync.runOnce()).toMatchObject({ masterReachable: false, alertsRaised: 1 });
    expect(await sync.runOnce()).toMatchObject({ masterReachable: false, alertsRaised: 0 });
    expect(await hosts()).toEqual(before);
    expect(lines.some((l) => l.includes('Salt Master is not available'))).toBe(true);
  } finally {
    sim.controls.masterUnavailable(false);
  }
  expect(await sync.runOnce()).toMatchObject({ masterReachable: true, alertsRaised: 1 });
});

test('a master dying in the middle of a run leaves every host as it was', async () => {
  const before = await hosts();
  sim.controls.setUp(upIds()[0] ?? '', false);
  sim.controls.resetStats();
  sim.controls.slow(300);
  const run = sync.runOnce();
  try {
    // Three snapshot reads (keys, manage.status, nodegroups) are through; the 4th request, the
    // grains of the first batch, is waiting in the slowed master when it dies.
    await until(() => sim.controls.stats.requests >= 4);
    expect(sim.controls.stats.byFun['runner:manage.status']).toBe(1);
    await sim.controls.masterDown(true);
    expect(await run).toMatchObject({ masterReachable: false, hostsChanged: 0 });
    expect(await hosts()).toEqual(before);
  } finally {
    sim.controls.slow(0);
    await sim.controls.masterDown(false);
  }
  expect(await sync.runOnce()).toMatchObject({ masterReachable: true, hostsChanged: 1 });
});

test('a master slower than the client timeout is an outage, not a fleet of down hosts', async () => {
  const before = await hosts();
  sim.controls.slow(2500);
  try {
    expect(await sync.runOnce()).toMatchObject({ masterReachable: false, alertsRaised: 1 });
    expect(lines.some((l) => l.includes('did not answer within'))).toBe(true);
    expect(await hosts()).toEqual(before);
  } finally {
    sim.controls.slow(0);
  }
  expect(await sync.runOnce()).toMatchObject({ masterReachable: true, hostsChanged: 0 });
});

test('an expired salt-api session is replaced by one fresh login, transparently', async () => {
  await sync.runOnce();
  const alerts = (await masterAlerts()).length;
  sim.controls.resetStats();
  sim.controls.expireSessions();
  expect(await sync.runOnce()).toMatchObject({ masterReachable: true, hostsChanged: 0, alertsRaised: 0 });
  expect(sim.controls.stats.logins).toBe(1);
  expect(await masterAlerts()).toHaveLength(alerts);
});
