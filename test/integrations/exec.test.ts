/**
 * Execution proxying over real HTTP: POST /api/hosts/{id} and POST /api/groups/{id} against
 * salt-sim. Response shape, the actions recorded (user = the token's name), hosts' last_action,
 * local_async follow-up, silent minions, and every refusal (422, 403, 404).
 */
import { createSaltClient, type SaltClient } from '@fleet/salt';
import { auth, expectEveError, insertHost, uniqueName } from '../helpers';
import {
  actionsOf,
  eventually,
  saltEnv,
  SALT_USER,
  startApi,
  startMasterEnv,
  syncNow,
  type MasterEnv,
} from './master-env';

let env: MasterEnv;
let salt: SaltClient;

beforeAll(async () => {
  env = await startMasterEnv();
  salt = createSaltClient({ url: env.sim.url, username: SALT_USER.username, password: SALT_USER.password });
});

afterAll(async () => {
  salt.close();
  await env.close();
});

interface Execution {
  task_id: string;
  status: string;
  return: { return: Record<string, unknown>[] };
}

async function makeGroup(hosts: readonly string[]): Promise<string> {
  const res = await env.api.request
    .post('/api/groups')
    .set(auth('admin'))
    .send({ name: uniqueName('grp'), hosts });
  expect(res.status).toBe(201);
  return (res.body as { _id: string })._id;
}

function host(i: number): string {
  const id = env.up[i];
  if (id === undefined) throw new Error('not enough up hosts in the simulated fleet');
  return id;
}

describe('POST /api/hosts/{id}', () => {
  it('runs a local call, answers {task_id, status, return} and records the action with the token name', async () => {
    const id = host(0);
    const res = await env.api.request
      .post(`/api/hosts/${id}`)
      .set(auth('operator'))
      .send({ exec_client: 'local', fun: 'cmd.run', kwarg: { cmd: 'hostname -f' } });
    expect(res.status).toBe(200);
    const body = res.body as Execution;
    expect(Object.keys(body).sort()).toEqual(['return', 'status', 'task_id']);
    expect(body.task_id).toMatch(/^\d{20}$/);
    expect(body).toMatchObject({ status: 'success', return: { return: [{ [id]: id }] } });

    const action = await env.api.request.get(`/api/actions/${body.task_id}${id}`).set(auth('viewer'));
    expect(action.status).toBe(200);
    expect(action.body).toMatchObject({
      jid: body.task_id,
      action: 'cmd.run',
      host: id,
      state: 'finished',
      return: id,
      user: 'operator',
      success: true,
    });
    expect((action.body as { args: unknown }).args).toEqual([{ cmd: 'hostname -f', __kwarg__: true }]);
    const stored = await env.api.request.get(`/api/hosts/${id}`).set(auth('viewer'));
    expect((stored.body as { last_action: string }).last_action).toBe(`${body.task_id}${id}`);
  });

  it('passes arg and other salt-api fields through, and never the body tgt', async () => {
    const id = host(1);
    const res = await env.api.request
      .post(`/api/hosts/${id}`)
      .set(auth('operator'))
      .send({ exec_client: 'local', fun: 'test.echo', arg: ['hello'], tgt: '*', timeout: 5 });
    expect(res.status).toBe(200);
    expect((res.body as Execution).return.return).toEqual([{ [id]: 'hello' }]);
    const job = await salt.jobs((res.body as Execution).task_id);
    expect(job).toMatchObject({ target: id, function: 'test.echo', minions: [id] });
  });

  it('shows and records a host that does not answer', async () => {
    const id = env.down[0] ?? '';
    const res = await env.api.request
      .post(`/api/hosts/${id}`)
      .set(auth('operator'))
      .send({ exec_client: 'local', fun: 'test.ping' });
    expect(res.status).toBe(200);
    const body = res.body as Execution;
    expect(body.status).toBe('failed');
    expect(String(body.return.return[0]?.[id])).toMatch(/^Minion did not return/);
    const [action] = await actionsOf(env.api, body.task_id);
    expect(action).toMatchObject({ host: id, success: false, user: 'operator' });
  });

  it('refuses a client that is not proxied, a bad fun, bad arg/kwarg and credentials with 422', async () => {
    const id = host(0);
    const post = (body: Record<string, unknown>) =>
      env.api.request.post(`/api/hosts/${id}`).set(auth('operator')).send(body);
    expectEveError(await post({ exec_client: 'runner', fun: 'manage.status' }), 422, {
      issues: ['exec_client'],
    });
    expectEveError(await post({ exec_client: 'wheel', fun: 'key.delete' }), 422, { issues: ['exec_client'] });
    expectEveError(await post({ fun: 'test.ping' }), 422, { issues: ['exec_client'] });
    expectEveError(await post({ exec_client: 'local', fun: 'rm -rf /' }), 422, { issues: ['fun'] });
    expectEveError(await post({ exec_client: 'local', fun: 'test.ping', arg: 'x', kwarg: [1] }), 422, {
      issues: ['arg', 'kwarg'],
    });
    expectEveError(await post({ exec_client: 'local', fun: 'test.ping', password: 'x', eauth: 'pam' }), 422, {
      issues: ['password', 'eauth'],
    });
    expectEveError(
      await env.api.request
        .post(`/api/hosts/${id}`)
        .set(auth('operator'))
        .send([{ exec_client: 'local' }]),
      400,
    );
  });

  it('needs the operator role', async () => {
    const res = await env.api.request
      .post(`/api/hosts/${host(0)}`)
      .set(auth('viewer'))
      .send({ exec_client: 'local', fun: 'test.ping' });
    expectEveError(res, 403);
    expectEveError(
      await env.api.request.post(`/api/hosts/${host(0)}`).send({ exec_client: 'local', fun: 'test.ping' }),
      401,
    );
  });

  it('answers 404 for an unknown host and for a soft-deleted one, without calling the master', async () => {
    const before = env.sim.controls.stats.byFun['local:test.ping'] ?? 0;
    const unknown = await env.api.request
      .post('/api/hosts/nope.fleet.test')
      .set(auth('operator'))
      .send({ exec_client: 'local', fun: 'test.ping' });
    expect(expectEveError(unknown, 404)._error.message).toMatch(/nope\.fleet\.test/);
    const deleted = uniqueName('gone');
    await insertHost(env.api.store, deleted, { _soft_deleted: true });
    expectEveError(
      await env.api.request
        .post(`/api/hosts/${deleted}`)
        .set(auth('operator'))
        .send({ exec_client: 'local', fun: 'test.ping' }),
      404,
    );
    expect(env.sim.controls.stats.byFun['local:test.ping'] ?? 0).toBe(before);
  });
});

describe('POST /api/groups/{id}', () => {
  it('runs local_async on the group hostnames (tgt list) and records the actions when the returns arrive', async () => {
    const members = [host(0), host(1), host(2)].sort();
    const group = await makeGroup(members);
    const res = await env.api.request
      .post(`/api/groups/${group}`)
      .set(auth('operator'))
      .send({ exec_client: 'local_async', fun: 'test.ping' });
    expect(res.status).toBe(200);
    const body = res.body as Execution;
    expect(body).toMatchObject({
      status: 'success',
      return: { return: [{ jid: body.task_id, minions: members }] },
    });
    const job = await salt.jobs(body.task_id);
    expect(job).toMatchObject({ target: members, targetType: 'list' });
    // The event consumer may record a return first (with the salt-api user); the follow-up's
    // record names the token.
    const actions = await eventually(
      async () => {
        const found = await actionsOf(env.api, body.task_id);
        return found.length === members.length && found.every((a) => a.user === 'operator')
          ? found
          : undefined;
      },
      10_000,
      'the async returns to be recorded',
    );
    expect(actions.map((a) => a.host).sort()).toEqual(members);
    for (const a of actions)
      expect(a).toMatchObject({ action: 'test.ping', return: 'true', success: true, user: 'operator' });
  });

  it('targets nested subgroups too, and shows silent members in a local call as partial', async () => {
    const inner = await makeGroup([env.down[0] ?? '']);
    const outer = await makeGroup([host(3)]);
    await env.api.request
      .patch(`/api/groups/${outer}`)
      .set(auth('admin'))
      .send({ subgroups: [inner] })
      .expect(200);
    const res = await env.api.request
      .post(`/api/groups/${outer}`)
      .set(auth('operator'))
      .send({ exec_client: 'local', fun: 'test.ping' });
    expect(res.status).toBe(200);
    const body = res.body as Execution;
    expect(body.status).toBe('partial');
    expect(body.return.return[0]).toMatchObject({
      [host(3)]: true,
      [env.down[0] ?? '']: expect.stringMatching(/^Minion did not return/),
    });
    const actions = await actionsOf(env.api, body.task_id);
    expect(Object.fromEntries(actions.map((a) => [a.host, a.success]))).toEqual({
      [host(3)]: true,
      [env.down[0] ?? '']: false,
    });
  });

  it('runs local_batch: one element per host, silent members added, one action per host', async () => {
    const group = await makeGroup([host(4), env.down[0] ?? '']);
    const res = await env.api.request
      .post(`/api/groups/${group}`)
      .set(auth('operator'))
      .send({ exec_client: 'local_batch', fun: 'test.ping', batch: '1' });
    expect(res.status).toBe(200);
    const body = res.body as Execution;
    expect(body.status).toBe('partial');
    expect(body.return.return).toEqual(
      expect.arrayContaining([
        { [host(4)]: true },
        { [env.down[0] ?? '']: expect.stringMatching(/^Minion did not return/) },
      ]),
    );
    // The answering host's action carries its batch's jid (the run's task_id: its first batch).
    expect(await actionsOf(env.api, body.task_id)).toEqual([
      expect.objectContaining({ host: host(4), success: true, user: 'operator' }),
    ]);
  });

  it('answers 422 for an empty group and 404 for an unknown one', async () => {
    const empty = await makeGroup([]);
    const res = await env.api.request
      .post(`/api/groups/${empty}`)
      .set(auth('operator'))
      .send({ exec_client: 'local', fun: 'test.ping' });
    expect(expectEveError(res, 422)._error.message).toBe('group has no hosts');
    expectEveError(
      await env.api.request
        .post('/api/groups/0123456789abcdef01234567')
        .set(auth('operator'))
        .send({ exec_client: 'local', fun: 'test.ping' }),
      404,
    );
  });
});

describe('EXEC_ALLOWED_FUNS', () => {
  it('refuses functions outside the allow-list with 403 and runs the others', async () => {
    const api = await startApi({ ...saltEnv(env.sim), EXEC_ALLOWED_FUNS: 'test.*,grains.items' });
    try {
      const id = host(0);
      await syncNow(api);
      const refused = await api.request
        .post(`/api/hosts/${id}`)
        .set(auth('operator'))
        .send({ exec_client: 'local', fun: 'cmd.run', arg: ['id'] });
      expect(expectEveError(refused, 403)._error.message).toMatch(/cmd\.run.*EXEC_ALLOWED_FUNS/);
      const allowed = await api.request
        .post(`/api/hosts/${id}`)
        .set(auth('operator'))
        .send({ exec_client: 'local', fun: 'test.ping' });
      expect(allowed.status).toBe(200);
    } finally {
      await api.close();
    }
  });
});
