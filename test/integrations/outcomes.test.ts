/**
 * Every path that records a job's return agrees, against the simulated master at 2018.3, 2019.2
 * and 3006: the execution request, the live events and the job cache (the sync). The outcome is
 * the retcode (a 2018.3 minion reports `success: True` for a failed state), a state run answered
 * with error messages is a failed patch, `local_batch` makes one action per host and run (its
 * ping is bookkeeping, a minion that timed out in its batch is no success), and who ran it is the
 * fleet user, kept apart from the master account that published the job.
 */
import { createSaltClient, type SaltClient } from '@fleet/salt';
import { auth, uniqueName } from '../helpers';
import { eventually, SALT_USER, startMasterEnv, syncNow, type MasterEnv } from './master-env';

const VERSIONS = ['2018.3.2', '2019.2.0', '3006.9'] as const;

let env: MasterEnv;
let salt: SaltClient;

beforeAll(async () => {
  env = await startMasterEnv({ sim: { hosts: 14, seed: 11 } });
  salt = createSaltClient({ url: env.sim.url, username: SALT_USER.username, password: SALT_USER.password });
});

afterAll(async () => {
  salt.close();
  await env.close();
});

type Doc = Record<string, unknown>;

async function list(resource: string, where: Doc): Promise<Doc[]> {
  const res = await env.api.request
    .get(`/api/${resource}`)
    .query({ where: JSON.stringify(where), max_results: '200' })
    .set(auth('viewer'));
  expect(res.status).toBe(200);
  return (res.body as { _items: Doc[] })._items;
}

/** Waits until the event consumer has handled every event fired so far (events are handled in order). */
async function eventsDrained(): Promise<void> {
  const marker = uniqueName('drain');
  const id = env.up[0] ?? '';
  env.sim.controls.minionEvent(id, 'vnc/connect', { hostname: marker, status: 'connected' });
  await eventually(
    async () => ((await list('alerts', { 'payload.hostname': marker })).length > 0 ? true : undefined),
    10_000,
    'the event stream to be handled',
  );
}

/** Every path has had its say: the events are handled and the job cache walked. */
async function allPathsDone(): Promise<void> {
  await eventsDrained();
  await syncNow(env.api);
}

const failing = (): string => {
  const m = [...env.sim.fleet.minions.values()].find((x) => x.key === 'accepted' && x.up && x.failingStates);
  if (m === undefined) throw new Error('the simulated fleet has no failing host');
  return m.id;
};
const healthy = (i: number): string => {
  const ids = env.up.filter((id) => env.sim.fleet.minions.get(id)?.failingStates !== true);
  const id = ids[i];
  if (id === undefined) throw new Error('not enough healthy up hosts');
  return id;
};

async function exec(
  path: string,
  body: Doc,
): Promise<{ task_id: string; status: string; return: { return: Doc[] } }> {
  const res = await env.api.request.post(path).set(auth('operator')).send(body);
  expect(res.status).toBe(200);
  return res.body as { task_id: string; status: string; return: { return: Doc[] } };
}

describe.each(VERSIONS)('Salt %s', (version) => {
  beforeAll(() => {
    env.sim.controls.settings.masterVersion = version;
  });

  test('a failed state.apply is a failure on every path: one action, success false, the fleet user kept, a failed patch', async () => {
    const id = failing();
    const body = await exec(`/api/hosts/${id}`, {
      exec_client: 'local',
      fun: 'state.apply',
      arg: ['common'],
    });
    expect(body.status).toBe('failed');
    await allPathsDone();
    const actions = await list('actions', { jid: body.task_id });
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({
      host: id,
      success: false,
      user: 'operator',
      salt_user: SALT_USER.username,
    });
    expect(await list('failed_patches', { jid: body.task_id })).toHaveLength(1);
  });

  test('local_async: the follow-up, the events and the job cache agree on a failed state run', async () => {
    const id = failing();
    const body = await exec(`/api/hosts/${id}`, {
      exec_client: 'local_async',
      fun: 'state.apply',
      arg: ['common'],
    });
    await eventually(
      async () => ((await list('failed_patches', { jid: body.task_id })).length === 1 ? true : undefined),
      10_000,
      'the failed patch',
    );
    await allPathsDone();
    const actions = await list('actions', { jid: body.task_id });
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ success: false, user: 'operator', salt_user: SALT_USER.username });
  });

  test('a state run answered with error messages (retcode 1) is a failed patch, the messages its steps', async () => {
    const id = healthy(0);
    const body = await exec(`/api/hosts/${id}`, {
      exec_client: 'local',
      fun: 'state.apply',
      arg: ['nosuch'],
    });
    expect(body.status).toBe('failed');
    await allPathsDone();
    const [patch] = await list('failed_patches', { jid: body.task_id });
    expect(patch).toMatchObject({ host: id, patch: 'nosuch' });
    expect((patch?.['return'] as Doc[])[0]).toMatchObject({
      result: false,
      comment: "No matching sls found for 'nosuch' in env 'base'",
    });
    expect((await list('actions', { jid: body.task_id }))[0]).toMatchObject({ success: false });
  });

  test('local_batch: one action per host and run with its outcome, the ping not recorded, a silent host no success', async () => {
    const members = [healthy(1), failing(), env.down[0] ?? ''];
    const before = new Set((await list('actions', { host: { $in: members } })).map((a) => a['_id']));
    const group = await env.api.request
      .post('/api/groups')
      .set(auth('admin'))
      .send({ name: uniqueName('batch'), hosts: members });
    expect(group.status).toBe(201);
    const body = await exec(`/api/groups/${(group.body as { _id: string })._id}`, {
      exec_client: 'local_batch',
      fun: 'state.apply',
      arg: ['common'],
      batch: '1',
    });
    expect(body.status).toBe('partial');
    await allPathsDone();
    const fresh = (await list('actions', { host: { $in: members } })).filter((a) => !before.has(a['_id']));
    // No test.ping action from the batch's ping, and no second action from the events or the job cache.
    expect(fresh.map((a) => [a['host'], a['action']]).sort()).toEqual(
      members.map((h) => [h, 'state.apply']).sort(),
    );
    const byHost = Object.fromEntries(fresh.map((a) => [String(a['host']), a]));
    expect(byHost[members[0] ?? '']).toMatchObject({ success: true, user: 'operator' });
    expect(byHost[members[1] ?? '']).toMatchObject({ success: false, user: 'operator' });
    expect(byHost[members[2] ?? '']).toMatchObject({ success: false });
    expect(
      await list('failed_patches', { jid: byHost[members[1] ?? '']?.['jid'], host: members[1] }),
    ).toHaveLength(1);
  });

  test('local_batch: a minion that does not return in its batch is shown silent and is no success', async () => {
    const id = healthy(2);
    // A download without a timeout on a host whose packets are dropped never ends (wget -T 0).
    env.sim.controls.setNetwork(id, { egress: 'blocked', httpTools: ['curl', 'wget'] });
    try {
      const body = await exec(`/api/hosts/${id}`, {
        exec_client: 'local_batch',
        fun: 'cmd.run',
        arg: ['wget -qO- -T 0 http://ip.fleet.example.com/'],
      });
      expect(body.status).toBe('failed');
      expect(body.return.return).toEqual([{ [id]: expect.stringMatching(/^Minion did not return/) }]);
    } finally {
      env.sim.controls.setNetwork(id, { egress: 'open' });
    }
  });

  test('a job started outside the service: no fleet user; the job cache names the master account apart', async () => {
    const id = healthy(3);
    const job = await salt.localAsync(id, 'test.echo', { arg: ['cli'] });
    await eventually(async () => ((await list('actions', { jid: job.jid })).length === 1 ? true : undefined));
    await allPathsDone();
    const [action] = await list('actions', { jid: job.jid });
    expect(action).toMatchObject({ user: null, salt_user: SALT_USER.username, success: true });
  });
});
