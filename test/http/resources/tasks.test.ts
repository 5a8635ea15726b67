/**
 * tasks through HTTP: creation with a UTC "YYYY-MM-DD HH:MM" start and an interval or a cron rule
 * (`next` computed against the clock), the schedule refusals, PATCH /tasks/{id}/{status}, PUT
 * /tasks naming the task by `_id` in the body, DELETE.
 */
import { auth, expectEveError, RFC1123, startTestServer, uniqueName, type TestServer } from '../../helpers';
import { utcMinute } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
/** A whole UTC minute `offsetMs` away from now. */
const minuteFromNow = (offsetMs: number) => new Date(Math.floor((Date.now() + offsetMs) / MIN) * MIN);

interface Task {
  _id: string;
  _etag: string;
  start: string;
  next: string | null;
  status: string;
  tgt: string[];
  name: string;
  interval?: number | null;
  count_of_execution: number;
}

function taskBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    salt_client: 'local_async',
    name: uniqueName('task'),
    fun: 'cmd.run',
    kwarg: { cmd: 'uptime' },
    status: 'scheduled',
    tgt: ['web-01.fleet.test'],
    ...overrides,
  };
}

/** POSTs a task as operator and reads it back; `before`/`after` bracket the request on the clock. */
async function createTask(
  overrides: Record<string, unknown>,
): Promise<{ task: Task; before: number; after: number }> {
  const before = Date.now();
  const res = await t.request.post('/api/tasks').set(auth('operator')).send(taskBody(overrides));
  const after = Date.now();
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({
    status: 201,
    body: { _status: 'OK' },
  });
  const got = await t.request.get(`/api/tasks/${(res.body as { _id: string })._id}`).set(auth('viewer'));
  expect(got.status).toBe(200);
  return { task: got.body as Task, before, after };
}

const ms = (rfc1123: string | null) => Date.parse(rfc1123 ?? 'invalid');

describe('POST /api/tasks', () => {
  it('runs a one-shot task whose start has already passed now, instead of never', async () => {
    const { task, before, after } = await createTask({ start: utcMinute(minuteFromNow(-5 * MIN)) });
    expect(task.status).toBe('scheduled');
    expect(ms(task.next)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(ms(task.next)).toBeLessThanOrEqual(after);
  });

  it('refuses a schedule whose end has already passed (it would never run)', async () => {
    const res = await t.request
      .post('/api/tasks')
      .set(auth('operator'))
      .send(
        taskBody({
          start: utcMinute(minuteFromNow(-2 * DAY)),
          end: utcMinute(minuteFromNow(-DAY)),
          interval: 60,
        }),
      );
    expectEveError(res, 422, { issues: ['end'] });
  });

  it('reads start "YYYY-MM-DD HH:MM" as UTC and returns it as a timestamp; a future start is the next run', async () => {
    const start = minuteFromNow(2 * DAY);
    const { task } = await createTask({ start: utcMinute(start), interval: 3600 });
    expect(task.start).toMatch(RFC1123);
    expect(task.start).toBe(start.toUTCString());
    expect(task.next).toBe(start.toUTCString());
    expect(task).toMatchObject({
      status: 'scheduled',
      interval: 3600,
      count_of_execution: 0,
      tgt: ['web-01.fleet.test'],
    });
  });

  it('computes next from a past start and an interval in seconds: the first run at or after now', async () => {
    const start = minuteFromNow(-DAY - 7 * MIN);
    const { task, before, after } = await createTask({ start: utcMinute(start), interval: 180 });
    const next = ms(task.next);
    expect(next).toBeGreaterThanOrEqual(before - 1000);
    expect(next).toBeLessThanOrEqual(after + 180_000);
    expect((next - start.getTime()) % 180_000).toBe(0);
  });

  it('computes next from a cron rule (UTC)', async () => {
    const { task, before, after } = await createTask({
      start: utcMinute(minuteFromNow(-DAY)),
      cron: '*/15 * * * *',
    });
    const next = new Date(ms(task.next));
    expect(next.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(next.getTime()).toBeLessThanOrEqual(after + 15 * MIN);
    expect(next.getUTCMinutes() % 15).toBe(0);
    expect(next.getUTCSeconds()).toBe(0);
  });

  it('never schedules a cron run before a future start', async () => {
    const start = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 2, 10, 3, 0));
    const { task } = await createTask({ start: utcMinute(start), cron: '30 6 * * *' });
    expect(task.next).toBe(new Date(Date.UTC(start.getUTCFullYear(), 2, 10, 6, 30)).toUTCString());
  });

  it('runs a task with neither interval nor cron once, at start', async () => {
    const start = minuteFromNow(3 * DAY);
    const { task } = await createTask({ start: utcMinute(start) });
    expect(task.next).toBe(start.toUTCString());
  });

  it.each([
    ['both interval and cron', { interval: 60, cron: '* * * * *' }, 'cron'],
    ['a cron rule that does not parse', { cron: 'every tuesday' }, 'cron'],
    ['a cron rule out of range', { cron: '61 * * * *' }, 'cron'],
    ['an end before the start', { end: '2001-01-01 00:00' }, 'end'],
    ['a start that is not a date', { start: '2026-02-31 10:00' }, 'start'],
    ['an interval below one second', { interval: 0 }, 'interval'],
    ['an unknown status', { status: 'running' }, 'status'],
    ['a new task that is already finished', { status: 'finished' }, 'status'],
    ['the server-set next', { next: '2030-01-01 00:00' }, 'next'],
    ['the server-set count_of_execution', { count_of_execution: 3 }, 'count_of_execution'],
  ])('refuses %s with 422 naming the field and stores nothing', async (_case, overrides, field) => {
    const name = uniqueName('bad');
    const res = await t.request
      .post('/api/tasks')
      .set(auth('operator'))
      .send(taskBody({ name, start: utcMinute(minuteFromNow(DAY)), ...overrides }));
    expectEveError(res, 422, { issues: [field] });
    expect(await t.store.count('tasks', { name })).toBe(0);
  });

  it('refuses a body without the required fields, naming each', async () => {
    const res = await t.request.post('/api/tasks').set(auth('operator')).send({ kwarg: {} });
    expectEveError(res, 422, { issues: ['name', 'fun', 'start', 'tgt'] });
  });

  it('needs the operator role', async () => {
    const res = await t.request
      .post('/api/tasks')
      .set(auth('viewer'))
      .send(taskBody({ start: utcMinute(minuteFromNow(DAY)) }));
    expectEveError(res, 403);
  });
});

describe('PATCH /api/tasks/{id}/{status}', () => {
  it('pauses a task, and resuming recomputes next from now', async () => {
    const start = minuteFromNow(-10 * DAY);
    const { task } = await createTask({ start: utcMinute(start), interval: 60 });
    const paused = await t.request.patch(`/api/tasks/${task._id}/paused`).set(auth('operator'));
    expect(paused.status).toBe(200);
    // The standard write response, rendered by the serializer like every other write.
    expect(Object.keys(paused.body as object).sort()).toEqual([
      '_created',
      '_etag',
      '_id',
      '_links',
      '_status',
      '_updated',
    ]);
    expect(paused.body).toMatchObject({
      _id: task._id,
      _status: 'OK',
      _links: { self: { title: 'Task', href: `tasks/${task._id}` } },
    });
    expect(paused.headers.etag).toBe(`"${String(paused.body._etag)}"`);
    expect((await t.request.get(`/api/tasks/${task._id}`).set(auth('viewer'))).body).toMatchObject({
      status: 'paused',
      _etag: paused.body._etag,
    });

    // A long pause: the stored next run is now well in the past.
    await t.store.update('tasks', { _id: task._id }, { $set: { next: new Date(start.getTime() + MIN) } });
    const before = Date.now();
    const resumed = await t.request.patch(`/api/tasks/${task._id}/scheduled`).set(auth('operator'));
    const after = Date.now();
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ _id: task._id, _status: 'OK' });
    const got = (await t.request.get(`/api/tasks/${task._id}`).set(auth('viewer'))).body as Task;
    expect(got.status).toBe('scheduled');
    const next = ms(got.next);
    expect(next).toBeGreaterThanOrEqual(before - 1000);
    expect(next).toBeLessThanOrEqual(after + MIN);
    expect((next - start.getTime()) % MIN).toBe(0);
  });

  it('honours If-Match: a stale version is 412 and changes nothing, the current one is applied', async () => {
    const { task } = await createTask({ start: utcMinute(minuteFromNow(DAY)), interval: 60 });
    const stale = await t.request
      .patch(`/api/tasks/${task._id}/paused`)
      .set(auth('operator'))
      .set('If-Match', '"0000000000000000000000000000000000000000"');
    expectEveError(stale, 412);
    expect((await t.request.get(`/api/tasks/${task._id}`).set(auth('viewer'))).body).toMatchObject({
      status: 'scheduled',
    });
    const current = await t.request
      .patch(`/api/tasks/${task._id}/paused`)
      .set(auth('operator'))
      .set('If-Match', `"${task._etag}"`);
    expect(current.status).toBe(200);
    expect((await t.request.get(`/api/tasks/${task._id}`).set(auth('viewer'))).body).toMatchObject({
      status: 'paused',
    });
  });

  it('refuses an unknown status with 422 and leaves the task as it was', async () => {
    const { task } = await createTask({ start: utcMinute(minuteFromNow(DAY)), interval: 60 });
    expectEveError(await t.request.patch(`/api/tasks/${task._id}/finished`).set(auth('operator')), 422, {
      issues: ['status'],
    });
    expectEveError(await t.request.patch(`/api/tasks/${task._id}/running`).set(auth('operator')), 422, {
      issues: ['status'],
    });
    expect((await t.request.get(`/api/tasks/${task._id}`).set(auth('viewer'))).body).toMatchObject({
      status: 'scheduled',
      next: task.next,
    });
  });

  it('answers 404 for an unknown task, 409 for a finished one, 403 for a viewer', async () => {
    expectEveError(
      await t.request.patch('/api/tasks/ffffffffffffffffffffffff/paused').set(auth('operator')),
      404,
    );
    const { task } = await createTask({ start: utcMinute(minuteFromNow(DAY)) });
    expectEveError(await t.request.patch(`/api/tasks/${task._id}/paused`).set(auth('viewer')), 403);
    await t.store.update('tasks', { _id: task._id }, { $set: { status: 'finished', next: null } });
    expectEveError(await t.request.patch(`/api/tasks/${task._id}/scheduled`).set(auth('operator')), 409);
  });
});

describe('PUT /api/tasks', () => {
  it('changes the task named by _id in the body, keeping the other fields', async () => {
    const { task } = await createTask({ start: utcMinute(minuteFromNow(DAY)), interval: 60 });
    const res = await t.request
      .put('/api/tasks')
      .set(auth('operator'))
      .send({ _id: task._id, tgt: ['db-01.fleet.test', 'db-02.fleet.test'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      _id: task._id,
      _status: 'OK',
      _links: { self: { href: `tasks/${task._id}` } },
    });
    const got = (await t.request.get(`/api/tasks/${task._id}`).set(auth('viewer'))).body as Task;
    expect(got).toMatchObject({
      tgt: ['db-01.fleet.test', 'db-02.fleet.test'],
      name: task.name,
      interval: 60,
      start: task.start,
      next: task.next,
    });
  });

  it('recomputes next when the schedule changes', async () => {
    const start = minuteFromNow(-DAY);
    const { task } = await createTask({ start: utcMinute(start), interval: 60 });
    const before = Date.now();
    await t.request
      .put('/api/tasks')
      .set(auth('operator'))
      .send({ _id: task._id, interval: 7200 })
      .expect(200);
    const got = (await t.request.get(`/api/tasks/${task._id}`).set(auth('viewer'))).body as Task;
    const next = ms(got.next);
    expect((next - start.getTime()) % 7_200_000).toBe(0);
    expect(next).toBeGreaterThanOrEqual(before - 1000);
    expect(next).toBeLessThanOrEqual(Date.now() + 7_200_000);
  });

  it('refuses a body without _id (400), an unknown _id (404) and an invalid change (422)', async () => {
    expectEveError(
      await t.request
        .put('/api/tasks')
        .set(auth('operator'))
        .send({ tgt: ['x'] }),
      400,
    );
    expectEveError(
      await t.request
        .put('/api/tasks')
        .set(auth('operator'))
        .send({ _id: 'ffffffffffffffffffffffff', tgt: ['x'] }),
      404,
    );
    const { task } = await createTask({ start: utcMinute(minuteFromNow(DAY)), interval: 60 });
    expectEveError(
      await t.request.put('/api/tasks').set(auth('operator')).send({ _id: task._id, cron: '* * * * *' }),
      422,
      { issues: ['cron'] },
    );
    expectEveError(
      await t.request.put('/api/tasks').set(auth('operator')).send({ _id: task._id, tgt: 'web' }),
      422,
      { issues: ['tgt'] },
    );
  });
});

describe('DELETE /api/tasks/{id}', () => {
  it('deletes the task', async () => {
    const { task } = await createTask({ start: utcMinute(minuteFromNow(DAY)) });
    expectEveError(await t.request.delete(`/api/tasks/${task._id}`).set(auth('viewer')), 403);
    expect((await t.request.delete(`/api/tasks/${task._id}`).set(auth('operator'))).status).toBe(204);
    expectEveError(await t.request.get(`/api/tasks/${task._id}`).set(auth('viewer')), 404);
    expect(await t.store.count('tasks', { _id: task._id })).toBe(0);
    expectEveError(await t.request.delete(`/api/tasks/${task._id}`).set(auth('operator')), 404);
  });
});
