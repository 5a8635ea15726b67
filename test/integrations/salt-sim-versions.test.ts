/**
 * The simulator's version matrix: every rule whose behaviour changed between Salt 2018.3, 2019.2
 * and 3006 is checked against each version (`masterVersion`), and the rules that did not change
 * are checked to hold in all of them. Each test names the Salt function it copies.
 */
import { DEFAULT_MASTER_VERSION, startSaltSim, type SaltSim } from '@fleet/salt-sim';
import { minionIds } from '../helpers/minions';

const VERSIONS = ['2018.3.2', '2018.3.3', '2019.2.0', '3000', '3006.9'] as const;
type Version = (typeof VERSIONS)[number];

let sim: SaltSim;
let token: string;

async function post(body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${sim.url}/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth-Token': token },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: res.headers.get('content-type') === 'application/json' ? JSON.parse(text) : text,
  };
}

async function returns(chunk: Record<string, unknown>): Promise<unknown[]> {
  const res = await post(chunk);
  expect(res.status).toBe(200);
  return (res.json as { return: unknown[] }).return;
}

/** Collects the bus events fired while `fn` runs, by tag prefix. */
async function events(
  prefix: string,
  fn: () => Promise<unknown>,
): Promise<Array<{ tag: string; data: Record<string, unknown> }>> {
  const seen: Array<{ tag: string; data: Record<string, unknown> }> = [];
  const controller = new AbortController();
  const res = await fetch(`${sim.url}/events`, {
    headers: { 'X-Auth-Token': token },
    signal: controller.signal,
  });
  const reader = res.body?.getReader();
  let buffer = '';
  const pump = (async () => {
    for (;;) {
      const chunk = await reader?.read().catch(() => undefined);
      if (chunk === undefined || chunk.done) return;
      buffer += new TextDecoder().decode(chunk.value);
      for (const line of buffer.split('\n')) {
        if (!line.startsWith('data: ')) continue;
        const e = JSON.parse(line.slice(6)) as { tag: string; data: Record<string, unknown> };
        if (e.tag.startsWith(prefix)) seen.push(e);
      }
      buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
    }
  })();
  await fn();
  await new Promise((resolve) => setTimeout(resolve, 50));
  controller.abort();
  await pump;
  return seen;
}

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 8, seed: 5, returnDelayMs: 2, noReturnWaitMs: 10 });
  const res = await fetch(`${sim.url}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(sim.credentials),
  });
  token = ((await res.json()) as { return: Array<{ token: string }> }).return[0]?.token ?? '';
});

afterAll(async () => {
  sim.controls.settings.masterVersion = DEFAULT_MASTER_VERSION;
  await sim.close();
});

const failingHost = (): string =>
  [...sim.fleet.minions.values()].find((m) => m.key === 'accepted' && m.up && m.failingStates)?.id ?? '';

describe.each(VERSIONS)('Salt %s', (version: Version) => {
  const from = (floor: string): boolean => VERSIONS.indexOf(version) >= VERSIONS.indexOf(floor as Version);
  beforeAll(() => {
    sim.controls.settings.masterVersion = version;
  });

  test('minion.py _thread_return: a failed state run returns success True in 2018.3, retcode == 0 from 2019.2; no user in the return', async () => {
    const id = failingHost();
    const seen = await events('salt/job/', () =>
      returns({ client: 'local', tgt: id, fun: 'state.apply', arg: ['common'], full_return: true }),
    );
    const ret = seen.find((e) => e.tag.includes('/ret/'));
    expect(ret?.data).toMatchObject({ retcode: 2, success: !from('2019.2.0') });
    expect(ret?.data).not.toHaveProperty('user');
    const jid = String(ret?.data['jid']);
    const [job] = await returns({ client: 'runner', fun: 'jobs.list_job', kwarg: { jid } });
    expect((job as { Result: Record<string, unknown> }).Result[id]).toMatchObject({
      retcode: 2,
      success: !from('2019.2.0'),
    });
  });

  test('runners/manage.py status: no accepted minion matched is a ValueError in 2018.3, two empty lists from 2019.2', async () => {
    const [ret] = await returns({ client: 'runner', fun: 'manage.status', kwarg: { tgt: 'nobody*' } });
    if (from('2019.2.0')) expect(ret).toEqual({ up: [], down: [] });
    else {
      expect(ret).toMatch(/^Exception occurred in runner manage\.status: Traceback/);
      expect(ret).toContain('ValueError: not enough values to unpack (expected 2, got 0)');
    }
  });

  test('client/mixins.py _low: a wheel call missing an argument (arg and kwarg both given) is an exception in 2018.3/2019.2, "Passed invalid arguments" from 3000', async () => {
    const [answer] = await returns({ client: 'wheel', fun: 'key.finger', arg: [], kwarg: {} });
    const data = (answer as { data: { return: string; success: boolean } }).data;
    if (from('3000'))
      expect(data).toMatchObject({
        success: true,
        return: expect.stringMatching(/^\nPassed invalid arguments: /),
      });
    else
      expect(data).toMatchObject({
        success: false,
        return: expect.stringMatching(/^Exception occurred in wheel key\.finger: .*TypeError/s),
      });
  });

  test('utils/jid.py gen_jid: the master local time until 2019.2, UTC from 3000', async () => {
    sim.controls.settings.masterTz = 'Asia/Tokyo';
    try {
      const [job] = await returns({ client: 'local_async', tgt: minionIds(sim, 'up')[0], fun: 'test.ping' });
      const jid = String((job as { jid: string }).jid);
      const utcHour = new Date().getUTCHours();
      const hour = Number(jid.slice(8, 10));
      expect(hour === utcHour || hour === (utcHour + 1) % 24).toBe(from('3000'));
    } finally {
      sim.controls.settings.masterTz = 'UTC';
    }
  });

  test('client/__init__.py get_cli_event_returns: a listed id without a key is "Minion did not return. [No response]", with the lookup hint and retcode 1 in 3006', async () => {
    const id = minionIds(sim, 'up')[0] ?? '';
    const [ret] = await returns({
      client: 'local',
      tgt: [id, 'ghost.example'],
      tgt_type: 'list',
      fun: 'test.ping',
      full_return: true,
    });
    const ghost = (ret as Record<string, { ret: string; retcode?: number }>)['ghost.example'];
    expect(ghost?.ret).toMatch(/^Minion did not return\. \[No response\]/);
    expect(ghost?.retcode).toBe(from('3006.9') ? 1 : undefined);
  });

  test('master.py ClearFuncs.publish: a list target where no id has an accepted key publishes nothing and answers {} (every version)', async () => {
    const pending = [...sim.fleet.minions.values()].find((m) => m.key === 'pending')?.id ?? '';
    const before = Object.keys(
      (await returns({ client: 'runner', fun: 'jobs.list_jobs' }))[0] as object,
    ).length;
    const answer = await returns({
      client: 'local',
      tgt: [pending, 'ghost.example'],
      tgt_type: 'list',
      fun: 'test.ping',
    });
    expect(answer).toEqual([{}]);
    expect(
      await returns({ client: 'local_async', tgt: [pending], tgt_type: 'list', fun: 'test.ping' }),
    ).toEqual([{}]);
    const after = Object.keys(
      (await returns({ client: 'runner', fun: 'jobs.list_jobs' }))[0] as object,
    ).length;
    expect(after).toBe(before);
  });

  test('cli/batch.py Batch: a test.ping to the target first, batches as lists without metadata; raw yields return events (every version)', async () => {
    const ids = minionIds(sim, 'up').slice(0, 3);
    const seen = await events('salt/job/', () =>
      returns({
        client: 'local_batch',
        tgt: ids,
        tgt_type: 'list',
        fun: 'test.echo',
        arg: ['hi'],
        batch: '2',
        raw: true,
        metadata: { fleet_user: 'x' },
      }),
    );
    const published = seen.filter((e) => e.tag.endsWith('/new')).map((e) => e.data);
    expect(published[0]).toMatchObject({ fun: 'test.ping', tgt: ids, tgt_type: 'list', arg: [] });
    expect(published.slice(1).map((p) => [p['fun'], p['tgt_type'], (p['tgt'] as string[]).length])).toEqual([
      ['test.echo', 'list', 2],
      ['test.echo', 'list', 1],
    ]);
    expect(seen.filter((e) => e.tag.includes('/ret/')).every((e) => !('metadata' in e.data))).toBe(true);
    const raw = await returns({
      client: 'local_batch',
      tgt: ids[0],
      fun: 'state.apply',
      arg: ['common'],
      raw: true,
    });
    expect(raw).toEqual([
      {
        tag: expect.stringMatching(/^salt\/job\/\d{20}\/ret\//),
        data: expect.objectContaining({ id: ids[0], retcode: 0 }),
      },
    ]);
    const plain = await returns({ client: 'local_batch', tgt: ids[0], fun: 'state.apply', arg: ['common'] });
    expect((plain[0] as Record<string, Record<string, unknown>>)[ids[0] ?? '']).toMatchObject({ retcode: 0 });
  });

  test('transport/mixins/auth.py _auth: a new key of an accepted minion is denied beside it (every version)', async () => {
    const id = minionIds(sim, 'up').at(-1) ?? '';
    const fp = sim.controls.changeKey(id);
    try {
      const [answer] = await returns({ client: 'wheel', fun: 'key.finger', match: id });
      const fingers = (answer as { data: { return: Record<string, Record<string, string>> } }).data.return;
      expect(fingers['minions_denied']?.[id]).toBe(fp);
      expect(fingers['minions']?.[id]).toBeDefined();
    } finally {
      sim.controls.acceptNewKey(id);
    }
  });
});
