/**
 * The task scheduler over real HTTP (salt-sim + the API): tasks created through /api/tasks run
 * when due, interval tasks keep running, paused ones never run, several schedulers on one store
 * run a due run exactly once, and a failed run records last_error and a task.failed alert.
 */
import { stampNow, type Runtime } from '@fleet/engine';
import { createMasterService, createSaltClient, startScheduler } from '@fleet/salt';
import { auth, uniqueName } from '../helpers';
import { actionsOf, eventually, startMasterEnv, type MasterEnv } from './master-env';

let env: MasterEnv;

beforeAll(async () => {
  env = await startMasterEnv();
});

afterAll(async () => {
  await env.close();
});

type Task = Record<string, unknown> & { _id: string };

function host(i: number): string {
  const id = env.up[i];
  if (id === undefined) throw new Error('not enough up hosts in the simulated fleet');
  return id;
}

/** "YYYY-MM-DD HH:MM" (UTC) `minutes` from now (negative: in the past). */
function minutesFromNow(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

async function createTask(body: Record<string, unknown>): Promise<Task> {
  const res = await env.api.request
    .post('/api/tasks')
    .set(auth('operator'))
    .send({ name: uniqueName('task'), fun: 'test.ping', salt_client: 'local', ...body });
  expect(res.status).toBe(201);
  return getTask((res.body as { _id: string })._id);
}

async function getTask(id: string): Promise<Task> {
  const res = await env.api.request.get(`/api/tasks/${id}`).set(auth('viewer'));
  expect(res.status).toBe(200);
  return res.body as Task;
}

/** The task once `ok` holds for it. */
function taskWhen(id: string, ok: (t: Task) => boolean, what: string, timeoutMs = 8000): Promise<Task> {
  return eventually(
    async () => {
      const t = await getTask(id);
      return ok(t) ? t : undefined;
    },
    timeoutMs,
    what,
  );
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('task scheduler', () => {
  it('runs a task whose start has passed once, soon, and records its action', async () => {
    const target = host(0);
    const created = await createTask({ tgt: [target], start: minutesFromNow(-5), kwarg: {} });
    const ran = await taskWhen(
      created._id,
      (t) => t.count_of_execution === 1 && typeof t.last_jid === 'string',
      'the one-shot run',
    );
    expect(ran).toMatchObject({ status: 'finished', next: null, last_error: null });
    expect(ran.last_run).not.toBeNull();
    const actions = await actionsOf(env.api, String(ran.last_jid));
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({
      host: target,
      action: 'test.ping',
      user: `task:${String(ran.name)}`,
      success: true,
    });
    await sleep(1500);
    expect((await getTask(created._id)).count_of_execution).toBe(1);
  });

  it('runs an interval task again and again, advancing next', async () => {
    const targets = [host(1), host(2)];
    const created = await createTask({ tgt: targets, start: minutesFromNow(-1), interval: 1 });
    try {
      const first = await taskWhen(
        created._id,
        (t) => Number(t.count_of_execution) >= 1 && typeof t.last_jid === 'string',
        'a first run',
      );
      const later = await taskWhen(
        created._id,
        (t) => Number(t.count_of_execution) >= 2 && t.last_jid !== first.last_jid,
        'a second run',
      );
      expect(later.status).toBe('scheduled');
      // A claim moves `next` past the run it claims (the poll may see a claim before its jid).
      expect(Date.parse(String(later.last_run))).toBeGreaterThan(Date.parse(String(first.last_run)) - 1);
      expect(Date.parse(String(later.next))).toBeGreaterThan(Date.parse(String(later.last_run)));
      const actions = await actionsOf(env.api, String(later.last_jid));
      expect(actions.map((a) => a.host).sort()).toEqual(targets);
    } finally {
      await env.api.request.patch(`/api/tasks/${created._id}/paused`).set(auth('operator')).expect(200);
    }
  });

  it('never runs a paused task', async () => {
    const created = await createTask({
      tgt: [host(3)],
      start: minutesFromNow(-1),
      interval: 1,
      status: 'paused',
    });
    await sleep(2500);
    const t = await getTask(created._id);
    expect(t).toMatchObject({ status: 'paused', count_of_execution: 0 });
    expect(t.last_run ?? null).toBeNull();
    expect(t.last_jid ?? null).toBeNull();
  });

  it('runs a due run exactly once when several schedulers share the store', async () => {
    const name = uniqueName('task');
    const created = await createTask({
      name,
      tgt: [host(4)],
      start: minutesFromNow(30),
      interval: 3600,
      status: 'paused',
    });
    // Four more schedulers on the server's store, with a master service of their own.
    const runtime: Runtime = env.api.engine.runtime;
    const client = createSaltClient({ url: env.sim.url, ...env.sim.credentials });
    const master = createMasterService({ client, runtime, log: runtime.log });
    const schedulers = Array.from({ length: 4 }, () => startScheduler({ log: runtime.log, master, runtime }));
    // Only this task may be due: the schedulers' run counts below are about it alone.
    await env.api.store.update(
      'tasks',
      { _id: { $ne: created._id }, status: 'scheduled' },
      { $set: { status: 'paused' } },
      { multi: true },
    );
    const now = stampNow();
    await env.api.store.update(
      'tasks',
      { _id: created._id },
      {
        $set: {
          status: 'scheduled',
          start: new Date(now.getTime() - 7_200_000),
          next: new Date(now.getTime() - 60_000),
        },
      },
    );
    const runs = await Promise.all(schedulers.map((s) => s.tick()));
    expect(runs.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
    const ran = await taskWhen(created._id, (t) => typeof t.last_jid === 'string', 'the claimed run');
    await Promise.all(schedulers.map((s) => s.tick()));
    await sleep(1500);
    const t = await getTask(created._id);
    expect(t).toMatchObject({ status: 'scheduled', count_of_execution: 1, last_jid: ran.last_jid });
    expect(Date.parse(String(t.next))).toBeGreaterThan(Date.now());
    const res = await env.api.request
      .get('/api/actions')
      .query({ where: JSON.stringify({ user: `task:${name}` }) })
      .set(auth('viewer'));
    expect((res.body as { _items: unknown[] })._items).toHaveLength(1);
    await Promise.all(schedulers.map((s) => s.stop()));
    await master.stop();
    client.close();
  });

  it('records last_error and raises task.failed when the master is down', async () => {
    await env.sim.controls.masterDown(true);
    try {
      const created = await createTask({ tgt: [host(5)], start: minutesFromNow(-5) });
      const failed = await taskWhen(
        created._id,
        (t) => typeof t.last_error === 'string',
        'the failed run',
        15_000,
      );
      expect(failed).toMatchObject({ count_of_execution: 1, last_jid: null, status: 'finished' });
      const alerts = await eventually(
        async () => {
          const res = await env.api.request
            .get('/api/alerts')
            .query({ where: JSON.stringify({ type: 'task.failed' }) })
            .set(auth('viewer'));
          const items = (res.body as { _items: Record<string, unknown>[] })._items.filter(
            (a) => (a.payload as { task?: unknown }).task === created._id,
          );
          return items.length > 0 ? items : undefined;
        },
        5000,
        'the task.failed alert',
      );
      expect(alerts[0]).toMatchObject({
        level: 'error',
        payload: { task: created._id, name: failed.name, error: failed.last_error },
      });
    } finally {
      await env.sim.controls.masterDown(false);
    }
  });
});
