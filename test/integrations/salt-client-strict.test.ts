/**
 * The salt-api client speaks the master's real argument rules against the strict simulator
 * (real HTTP): wheel kwargs as top-level keys (`SyncClientMixin._low`), runner kwargs in `kwarg`
 * (`RunnerClient._reformat_low`), failed runner/wheel returns of 2018.3 and 3006 recognised, and
 * the 2018.3.0-2018.3.2 JSON 500 for a refused token handled as an expired session (one re-login).
 */
import { DEFAULT_MASTER_VERSION, startSaltSim, type SaltSim } from '@fleet/salt-sim';
import { createSaltClient, runnerChunk, wheelChunk, type SaltClient } from '@fleet/salt';
import { BadGateway } from '../../engine/src/errors';
import { minionIds } from '../helpers/minions';

let sim: SaltSim;
let c: SaltClient;

const received = (client: string, fun: string): Array<Record<string, unknown>> =>
  sim.controls.stats.lowstates.filter((l) => l['client'] === client && l['fun'] === fun);
const accepted = (): string[] => minionIds(sim, 'accepted');

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 8, seed: 9, returnDelayMs: 2, noReturnWaitMs: 10 });
  c = createSaltClient({ url: sim.url, ...sim.credentials, retry: { baseDelayMs: 5 } });
});

afterEach(() => {
  sim.controls.settings.masterVersion = DEFAULT_MASTER_VERSION;
});

afterAll(async () => {
  c.close();
  await sim.close();
});

test('wheel calls send their kwargs as top-level keys, so key.finger gets its match', async () => {
  sim.controls.resetStats();
  const fps = await c.keyFingerprints('*');
  expect(Object.keys(fps.accepted).sort()).toEqual(accepted());
  expect(received('wheel', 'key.finger')).toEqual([{ client: 'wheel', fun: 'key.finger', match: '*' }]);
  expect(wheelChunk('key.accept', { match: 'web-1', include_rejected: true })).toEqual({
    client: 'wheel',
    fun: 'key.accept',
    match: 'web-1',
    include_rejected: true,
  });
  // A kwarg named like a key salt-api reads itself could never reach the function.
  expect(() => wheelChunk('key.finger', { kwarg: { match: '*' } })).toThrow(
    /kwarg cannot be sent as a wheel argument/,
  );
  expect(() => wheelChunk('key.finger', { token: 'x' })).toThrow(/token/);
});

test('runner calls send their kwargs in kwarg, so config.get gets its key (a top-level key is a credential)', async () => {
  sim.controls.resetStats();
  expect(Object.keys(await c.nodegroups()).sort()).toEqual(Object.keys(sim.fleet.nodegroups).sort());
  expect(received('runner', 'config.get')).toEqual([
    { client: 'runner', fun: 'config.get', kwarg: { key: 'nodegroups' } },
  ]);
  expect(runnerChunk('manage.present')).toEqual({ client: 'runner', fun: 'manage.present' });
  const swallowed = await c.run({ client: 'runner', fun: 'config.get', key: 'nodegroups' });
  expect(swallowed[0]).toMatch(/^Exception occurred in runner config\.get/);
});

test('a failed runner or wheel call is BadGateway, in the 2018.3 and the 3006 wording', async () => {
  await expect(c.runner('jobs.list_job')).rejects.toThrow(
    /salt runner jobs\.list_job failed: Exception occurred in runner jobs\.list_job/,
  );
  await expect(c.wheel('key.accept')).rejects.toThrow(
    /salt wheel key\.accept failed: .*SaltInvocationError: accept takes at least 1 argument/,
  );
  sim.controls.settings.masterVersion = '3006.9';
  // 3006 returns "\nPassed invalid arguments: ..." for a TypeError, with success still true.
  const err = await c.runner('jobs.list_job').then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BadGateway);
  expect((err as Error).message).toContain(
    "Passed invalid arguments: list_job() missing 1 required positional argument: 'jid'",
  );
});

test('LocalClient.run_job 2018.3.0-2: the JSON 500 of a local call with a refused token is an expired session: one re-login, one execution', async () => {
  await c.keys();
  sim.controls.resetStats();
  sim.controls.revokeSaltTokens();
  const marker = `echo refused-token-${Date.now()}`;
  const result = await c.local(accepted()[0] ?? '', 'cmd.run', { arg: [marker] });
  expect(Object.values(result.minions).map((m) => m.status)).toEqual(['returned']);
  expect(sim.controls.stats.logins).toBe(1);
  // The refused call, the probe (refused too), the call again after the login.
  expect(sim.controls.stats.lowstates.map((l) => `${String(l['client'])}:${String(l['fun'])}`)).toEqual([
    'local:cmd.run',
    'wheel:key.finger_master',
    'local:cmd.run',
  ]);
  const published = Object.values(await c.jobs()).filter(
    (j) => j.function === 'cmd.run' && JSON.stringify(j.arguments).includes(marker),
  );
  expect(published).toHaveLength(1);
});

test('a local_batch refused that way is not sent again (earlier batches may have run); the next call logs in', async () => {
  await c.keys();
  sim.controls.resetStats();
  sim.controls.revokeSaltTokens();
  const batch = { client: 'local_batch', tgt: '*', fun: 'test.ping', batch: '2' };
  await expect(c.run(batch)).rejects.toThrow(
    /refused the session during a local_batch call .* the batch is not sent again/,
  );
  expect(sim.controls.stats.lowstates.map((l) => `${String(l['client'])}:${String(l['fun'])}`)).toEqual([
    'local_batch:test.ping',
    'wheel:key.finger_master',
  ]);
  expect((await c.run(batch)).length).toBeGreaterThan(0);
  expect(sim.controls.stats.logins).toBe(1);
});

test('a JSON 500 to a local call with a session the master accepts is not retried', async () => {
  await c.keys();
  sim.controls.resetStats();
  sim.controls.failNext(1, 500);
  await expect(c.localAsync('*', 'test.ping')).rejects.toBeInstanceOf(BadGateway);
  expect(sim.controls.stats.logins).toBe(0);
  expect(sim.controls.stats.lowstates.map((l) => `${String(l['client'])}:${String(l['fun'])}`)).toEqual([
    'wheel:key.finger_master',
  ]);
});
