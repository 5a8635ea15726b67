/**
 * POST /api/graph request_ips answers what the spec's client expects, the action's result: without
 * `Prefer: respond-async` the request waits for the job and answers its final state with 200.
 * Past the server's bound (GRAPH_WAIT_S), or when `Prefer: wait=N` shortens it, the answer is 202
 * with the running job and its Location, as with respond-async; the job runs on either way.
 */
import { auth } from '../helpers';
import { eventually, startMasterEnv, type MasterEnv } from '../integrations/master-env';
import { loadConfig } from '../../packages/server/src/config';
import { waitMs } from '../../resources/graph/answer';

let env: MasterEnv;
const URL = 'http://resolver.example.net/ip?format=text';

beforeAll(async () => {
  env = await startMasterEnv({ sim: { hosts: 5, seed: 5 }, env: { GRAPH_WAIT_S: '20' } });
}, 60_000);
afterAll(() => env.close());

const post = (prefer?: string) => {
  const req = env.api.request.post('/api/graph').set(auth('admin'));
  return (prefer === undefined ? req : req.set('Prefer', prefer)).send({
    action: 'request_ips',
    ip_resolver: URL,
  });
};

async function finished(id: string): Promise<Record<string, unknown>> {
  return eventually(
    async () => {
      const job = (await env.api.request.get(`/api/graph/jobs/${id}`).set(auth('viewer'))).body;
      return job.state === 'running' ? undefined : (job as Record<string, unknown>);
    },
    20_000,
    `job ${id}`,
  );
}

test('within the bound: 200 with the final state, the same as the job reads', async () => {
  const res = await post();
  expect(res.status).toBe(200);
  expect(res.headers['location']).toBeUndefined();
  expect(res.body).toMatchObject({ _status: 'OK', action: 'request_ips', state: 'done' });
  expect(res.body.probed).toBe(res.body.targeted);
  expect(res.body.finished).toEqual(expect.any(String));
  const { _status, ...job } = res.body as Record<string, unknown>;
  expect(_status).toBe('OK');
  expect(await finished(String(job._id))).toEqual(job);
}, 30_000);

test('past the bound: 202 with the running job and its Location; it runs to its end', async () => {
  // A bound (wait=1) below the slowed master's answer time: both timers are of this one process,
  // the bound's set first and the shorter, so it fires first however busy the machine.
  env.sim.controls.slow(2500);
  let id = '';
  try {
    const res = await post('wait=1');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ _status: 'OK', state: 'running' });
    expect(res.headers['preference-applied']).toBeUndefined();
    id = String(res.body._id);
    expect(res.headers['location']).toBe(`/api/graph/jobs/${id}`);
  } finally {
    env.sim.controls.slow(0);
  }
  expect(await finished(id)).toMatchObject({ state: 'done' });
}, 30_000);

test('Prefer: wait=0 answers at once (202); respond-async too, saying it applied it', async () => {
  const now = await post('wait=0');
  expect(now.status).toBe(202);
  await finished(String(now.body._id));
  const async = await post('respond-async, wait=100');
  expect(async.status).toBe(202);
  expect(async.headers['preference-applied']).toBe('respond-async');
  await finished(String(async.body._id));
}, 30_000);

test('the bound: GRAPH_WAIT_S (25 s unset), shortened by Prefer: wait, none with respond-async', () => {
  const ctx = (graphWaitS?: number) => ({
    runtime: { config: graphWaitS === undefined ? {} : { graphWaitS } },
  });
  const prefs = (entries: [string, string][] = []) => new Map(entries);
  expect(waitMs(ctx(), prefs())).toBe(25_000);
  expect(waitMs(ctx(0), prefs())).toBe(0);
  expect(waitMs(ctx(10), prefs([['wait', '3']]))).toBe(3000);
  expect(waitMs(ctx(10), prefs([['wait', '300']]))).toBe(10_000);
  expect(waitMs(ctx(10), prefs([['wait', 'soon']]))).toBe(10_000);
  expect(waitMs(ctx(10), prefs([['respond-async', '']]))).toBe(0);
});

test('GRAPH_WAIT_S: seconds from 0 to 3600; anything else stops the start naming it', () => {
  expect(loadConfig({}).GRAPH_WAIT_S).toBe(25);
  expect(loadConfig({ GRAPH_WAIT_S: '0' }).GRAPH_WAIT_S).toBe(0);
  for (const bad of ['-1', 'soon', '3601'])
    expect(() => loadConfig({ GRAPH_WAIT_S: bad })).toThrow(/^Invalid configuration: GRAPH_WAIT_S /);
});
