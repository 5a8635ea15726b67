/**
 * salt-sim's `returnSpacingMs`: the time between two minions' returns of one job. The master
 * fires each `salt/job/<jid>/ret/<id>` as the minion's return arrives; the option spaces the
 * minions' finishing times (default 2 ms, as before), and 0 lets every minion finish at once, as
 * in a burst. The event stream keeps salt-api's format either way.
 */
import { createSaltClient, type SaltClient, type SaltEvent } from '@fleet/salt';
import { startSaltSim, type SaltSim } from '@fleet/salt-sim';

let sim: SaltSim;
let client: SaltClient;

/** The `count` return events of `jid`, as the stream delivers them. */
async function returnsOf(events: AsyncIterable<SaltEvent>, jid: string, count: number): Promise<SaltEvent[]> {
  const seen: SaltEvent[] = [];
  for await (const event of events) {
    if (event.tag.startsWith(`salt/job/${jid}/ret/`)) seen.push(event);
    if (seen.length === count) break;
  }
  return seen;
}

/** Publishes `cmd.run` on every minion; resolves when it was asked, the returns, and the up minions. */
async function burst(): Promise<{ askedAt: number; returns: SaltEvent[]; up: string[] }> {
  const up = new Set((await client.manageStatus('*')).up);
  const stream = await client.events();
  try {
    const askedAt = Date.now();
    const job = await client.localAsync('*', 'cmd.run', { arg: ['uptime'] });
    const expected = job.minions.filter((m) => up.has(m));
    return { askedAt, returns: await returnsOf(stream, job.jid ?? '', expected.length), up: expected };
  } finally {
    stream.close();
  }
}

/** `_stamp` (UTC, microseconds, no zone) as epoch milliseconds. */
const stampMs = (event: SaltEvent): number => Date.parse(`${String(event.data['_stamp']).slice(0, 23)}Z`);

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 12, seed: 6, returnDelayMs: 1 });
  client = createSaltClient({ url: sim.url, ...sim.credentials });
});

afterAll(async () => {
  client.close();
  await sim.close();
});

test('the default spacing stays 2 ms between two minions', () => {
  expect(sim.controls.settings.returnSpacingMs).toBe(2);
});

test('spaced returns: the n-th up minion returns no sooner than n spacings after the publish', async () => {
  sim.controls.settings.returnSpacingMs = 40;
  const { askedAt, returns, up } = await burst();
  expect(returns.map((e) => e.data['id']).sort()).toEqual([...up].sort());
  // Timers never fire early: the last of n returns comes at least (n - 1) spacings after the publish.
  const last = Math.max(...returns.map(stampMs));
  expect(last - askedAt).toBeGreaterThanOrEqual((up.length - 1) * 40 - 1);
});

test('spacing 0: every up minion returns at once, each in the stream format of salt-api', async () => {
  sim.controls.settings.returnSpacingMs = 0;
  const { returns, up } = await burst();
  sim.controls.settings.returnSpacingMs = 2;
  expect(returns.map((e) => e.data['id']).sort()).toEqual([...up].sort());
  for (const event of returns)
    expect(event.data).toMatchObject({
      cmd: '_return',
      id: expect.any(String),
      jid: expect.any(String),
      fun: 'cmd.run',
      retcode: 0,
      _stamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/),
    });
});
