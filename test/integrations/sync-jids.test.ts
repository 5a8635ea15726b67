/**
 * Jids and time. A 2018.3 master writes jids in its local time (`gen_jid`: `datetime.now()`), so
 * the service reads them in SALT_MASTER_TZ, and its job watermark keeps an overlap window: when
 * daylight saving time ends the wall clock goes back an hour and new jobs get lower jids than the
 * ones already seen. Real HTTP against salt-sim with `masterTz: America/New_York` and the
 * master's clock moved to the night DST ends (2026-11-01, 02:00 EDT -> 01:00 EST).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Log, type Runtime, type Store } from '@fleet/engine';
import { openSqliteStore } from '../../engine/src/store/sqlite';
import { createFleetSync, createSaltClient, jidAt, jidInstant, shiftJid, type SaltClient } from '@fleet/salt';
import { startSaltSim, type SaltSim } from '@fleet/salt-sim';
import { loadConfig } from '../../packages/server/src/config';
import { runtimeOver } from '../helpers';
import { minionIds } from '../helpers/minions';

const TZ = 'America/New_York';
let sim: SaltSim;
let store: Store;
let runtime: Runtime;
let dir: string;
let client: SaltClient;
const log: Log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};

const upIds = (): string[] => minionIds(sim, 'up');
const downIds = (): string[] => minionIds(sim, 'down');
const listJobReads = (): number => sim.controls.stats.byRoute['GET /jobs/:jid'] ?? 0;

/** Sets the master's clock to an instant. */
function masterClock(iso: string): void {
  sim.controls.settings.clockOffsetMs = Date.parse(iso) - Date.now();
}

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 6, seed: 5, returnDelayMs: 2, noReturnWaitMs: 10, masterTz: TZ });
  dir = mkdtempSync(join(tmpdir(), 'fleet-jids-'));
  store = openSqliteStore({ path: join(dir, 'fleet.db') });
  runtime = await runtimeOver(store, log);
  client = createSaltClient({ url: sim.url, ...sim.credentials });
});

afterAll(async () => {
  client.close();
  await sim.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('jid digits are read in the master zone: jidAt and jidInstant round-trip; shiftJid moves the wall clock', () => {
  const summer = new Date('2026-07-01T12:00:00.250Z');
  expect(jidAt(summer, TZ).slice(0, 17)).toBe('20260701080000250');
  expect(jidInstant(jidAt(summer, TZ), TZ)).toBe(summer.getTime());
  expect(jidInstant('20260701120000250000')).toBe(summer.getTime());
  // Both readings of the repeated hour are instants in it: EDT (05:30Z) or EST (06:30Z).
  expect(['2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z']).toContain(
    new Date(jidInstant('20261101013000000000', TZ)).toISOString(),
  );
  expect(shiftJid('20261101003000123456', -3 * 3_600_000)).toBe('20261031213000123456');
  expect(Number.isNaN(jidInstant('not-a-jid', TZ))).toBe(true);
});

test('SALT_MASTER_TZ defaults to UTC; an unknown zone stops the start with one line naming it', () => {
  expect(loadConfig({}).SALT_MASTER_TZ).toBe('UTC');
  expect(loadConfig({ SALT_MASTER_TZ: 'Europe/Berlin' }).SALT_MASTER_TZ).toBe('Europe/Berlin');
  expect(() => loadConfig({ SALT_MASTER_TZ: 'Mars/Olympus_Mons' })).toThrow(
    /^Invalid configuration: SALT_MASTER_TZ must be an IANA time zone/,
  );
});

test('a job run after the clock went back (lower jid than the watermark) is still recorded by the sync', async () => {
  const sync = createFleetSync({ client, runtime, log, toolKey: 'tool', masterTz: TZ });
  const host = upIds()[0] ?? '';
  masterClock('2026-11-01T05:50:00Z'); // 01:50 EDT
  const before = (await client.local(host, 'cmd.run', { arg: ['echo before'] })).jid ?? '';
  await sync.runOnce();
  expect(await store.count('actions', { jid: before })).toBe(1);
  masterClock('2026-11-01T06:10:00Z'); // 01:10 EST, twenty minutes later
  const after = (await client.local(host, 'cmd.run', { arg: ['echo after'] })).jid ?? '';
  expect(after < before).toBe(true);
  expect((await sync.runOnce()).actionsRecorded).toBe(1);
  expect(await store.find('actions', { jid: after })).toEqual([
    expect.objectContaining({ host, action: 'cmd.run' }),
  ]);
  // Jobs handled inside the overlap window are not fetched again.
  const reads = listJobReads();
  expect((await sync.runOnce()).actionsRecorded).toBe(0);
  expect(listJobReads()).toBe(reads);
});

test('a job still waiting for a down minion is re-read within the grace period, judged in the master zone', async () => {
  masterClock('2026-11-03T15:00:00Z'); // 10:00 EST
  const job = await client.localAsync([upIds()[1] ?? '', downIds()[0] ?? ''], 'cmd.run', {
    tgt_type: 'list',
    arg: ['uptime'],
  });
  for (let i = 0; i < 100 && Object.keys((await client.jobs(job.jid ?? '')).result).length === 0; i += 1)
    await new Promise((r) => setTimeout(r, 10));
  const fiveMinutesLater = (): Date => new Date(Date.parse('2026-11-03T15:05:00Z'));
  const rereads = async (masterTz: string): Promise<number> => {
    const sync = createFleetSync({ client, runtime, log, toolKey: 'tool', masterTz, now: fiveMinutesLater });
    await sync.runOnce();
    const reads = listJobReads();
    await sync.runOnce();
    return listJobReads() - reads;
  };
  // Read in New York the job is five minutes old: it waits, and the next run reads it again.
  expect(await rereads(TZ)).toBe(1);
  // Read as UTC it would look five hours old, past the grace period: never read again.
  expect(await rereads('UTC')).toBe(0);
});
