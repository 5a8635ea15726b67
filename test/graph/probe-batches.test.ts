/**
 * The probe's batching against salt-sim over real HTTP: one `local` cmd.run per batch targeted
 * as a list (the lowstate of docs/salt-calls.md), two batches in flight, reports one after the
 * other in order, each host's answer or reason, and a stop or a master failure ending the run
 * before the next batch.
 */
import { createSaltClient, OUTWARD_METADATA, probeKwarg, probeOutward, type SaltClient } from '@fleet/salt';
import { DEFAULT_RESOLVER, startSaltSim, type SaltSim } from '@fleet/salt-sim';
import { ServiceUnavailable } from '../../engine/src/errors';

let sim: SaltSim;
let c: SaltClient;
let up: string[];
const RESOLVER = `http://${DEFAULT_RESOLVER}/`;

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 12, seed: 5, returnDelayMs: 2, noReturnWaitMs: 10 });
  c = createSaltClient({ url: sim.url, ...sim.credentials, retry: { baseDelayMs: 5 } });
  up = [...sim.fleet.minions.values()]
    .filter((m) => m.key === 'accepted' && m.up)
    .map((m) => m.id)
    .sort();
  for (const id of up) sim.controls.setNetwork(id, { httpTools: ['curl'] });
});

afterAll(async () => {
  c.close();
  await sim.close();
});

test('batches of 3, two in flight: one list-targeted cmd.run each, reports in turn, answers in host order', async () => {
  expect(up.length).toBeGreaterThanOrEqual(7);
  const slowHost = up[4] ?? '';
  sim.controls.setNetwork(slowHost, { httpTools: ['wget'], egress: 'blocked' });
  sim.controls.resetStats();
  const reports: string[][] = [];
  let reporting = false;
  const answers = await probeOutward(
    { client: c, stopping: () => false, batch: 3, parallel: 2 },
    {
      hosts: up,
      resolver: RESOLVER,
      async onBatch(batch) {
        expect(reporting).toBe(false);
        reporting = true;
        await new Promise((resolve) => setTimeout(resolve, 5));
        reports.push(batch.map((a) => a.host));
        reporting = false;
      },
    },
  );
  expect(answers.map((a) => a.host)).toEqual(up);
  expect(reports.flat().sort()).toEqual(up);
  expect(reports.every((r) => r.length <= 3)).toBe(true);
  expect(answers.find((a) => a.host === slowHost)).toEqual({
    host: slowHost,
    error: 'no answer from the resolver within 15 seconds (cmd.run timeout)',
  });
  expect(answers.filter((a) => 'address' in a)).toHaveLength(up.length - 1);
  const chunks = sim.controls.stats.lowstates.filter((l) => l['fun'] === 'cmd.run');
  expect(chunks).toHaveLength(Math.ceil(up.length / 3));
  for (const chunk of chunks) {
    expect(chunk).toEqual({
      client: 'local',
      tgt: expect.any(Array) as unknown,
      tgt_type: 'list',
      fun: 'cmd.run',
      arg: [],
      kwarg: probeKwarg(RESOLVER),
      metadata: OUTWARD_METADATA,
      full_return: true,
    });
  }
  sim.controls.setNetwork(slowHost, { httpTools: ['curl'], egress: 'open' });
});

test("a stop ends the run before its next batch (503); a master failure rejects with the master's error", async () => {
  let batches = 0;
  const stopped = probeOutward(
    { client: c, stopping: () => batches > 0, batch: 2, parallel: 1 },
    {
      hosts: up,
      resolver: RESOLVER,
      onBatch: async () => {
        batches += 1;
      },
    },
  );
  await expect(stopped).rejects.toBeInstanceOf(ServiceUnavailable);
  expect(batches).toBe(1);
  sim.controls.failNext(1, 500);
  await expect(
    probeOutward({ client: c, stopping: () => false, batch: 50 }, { hosts: up, resolver: RESOLVER }),
  ).rejects.toMatchObject({ status: 502 });
});
