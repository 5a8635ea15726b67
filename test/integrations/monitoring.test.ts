/**
 * POST /api/hosts/{id}/all_status over real HTTP against salt-sim: `start` stores a
 * `status.all_status` sample on the host and keeps taking them (ALL_STATUS_INTERVAL_S is short
 * here), `stop` / `stop_all` end it (no host is left to claim a sample of), no action takes one
 * sample now; refusals. In the `cluster` project, with two instances behind a balancer.
 */
import { auth, expectEveError } from '../helpers';
import { eventually, startMasterEnv, type MasterEnv } from './master-env';

let env: MasterEnv;
const samples = (): number => env.sim.controls.stats.byFun['local:status.all_status'] ?? 0;

beforeAll(async () => {
  env = await startMasterEnv({ knobs: { ALL_STATUS_INTERVAL_S: '0.2' } });
});

afterAll(async () => {
  await env.close();
});

interface Host {
  all_status?: Record<string, unknown> | null;
  _updated: string;
  _etag: string;
}

async function host(id: string): Promise<Host> {
  const res = await env.api.request.get(`/api/hosts/${id}`).set(auth('viewer'));
  expect(res.status).toBe(200);
  return res.body as Host;
}

function post(id: string, body: Record<string, unknown>, role: 'operator' | 'viewer' = 'operator') {
  return env.api.request.post(`/api/hosts/${id}/all_status`).set(auth(role)).send(body);
}

/** Resolves once the sample counter stops moving for a few intervals; returns its value. */
async function settledSamples(): Promise<number> {
  let last = samples();
  let quietSince = Date.now();
  return eventually(
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const now = samples();
      if (now !== last) {
        last = now;
        quietSince = Date.now();
        return undefined;
      }
      return Date.now() - quietSince >= 1000 ? now : undefined;
    },
    10_000,
    'sampling to stop',
  );
}

describe('POST /api/hosts/{id}/all_status', () => {
  it('start stores a sample on the host at once and keeps taking new ones; stop ends it', async () => {
    const id = env.up[0] ?? '';
    const res = await post(id, { action: 'start' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _status: 'OK',
      action: 'start',
      host: id,
      monitoring: true,
      interval_s: 0.2,
      answered: true,
    });
    const first = await host(id);
    expect(first.all_status).toMatchObject({
      loadavg: expect.any(Object),
      meminfo: expect.any(Object),
      uptime: expect.any(Object),
    });

    const counted = samples();
    await eventually(async () => (samples() >= counted + 3 ? true : undefined), 10_000, 'periodic samples');
    const later = await host(id);
    expect(later._etag).not.toBe(first._etag);

    const stopped = await post(id, { action: 'stop' });
    expect(stopped.body).toEqual({
      _status: 'OK',
      action: 'stop',
      host: id,
      monitoring: false,
      was_monitoring: true,
    });
    // Nothing left to claim: no instance takes another sample.
    expect(await env.api.store.count('monitored_hosts', {})).toBe(0);
    await settledSamples();
  });

  it('stop_all ends the monitoring of every host', async () => {
    const [a = '', b = ''] = env.up;
    await post(a, { action: 'start' }).expect(200);
    await post(b, { action: 'start' }).expect(200);
    const res = await post(a, { action: 'stop_all' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ _status: 'OK', action: 'stop_all', stopped: [a, b].sort() });
    expect(await env.api.store.count('monitored_hosts', {})).toBe(0);
    await settledSamples();
  });

  it('without an action takes one sample now and returns it', async () => {
    const id = env.up[1] ?? '';
    const before = samples();
    const res = await post(id, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      _status: 'OK',
      host: id,
      answered: true,
      all_status: { loadavg: expect.any(Object) },
    });
    expect(samples()).toBe(before + 1);
    expect((await host(id)).all_status).toEqual((res.body as { all_status: unknown }).all_status);
  });

  it('starts on a silent host without storing a sample', async () => {
    const id = env.down[0] ?? '';
    const res = await post(id, { action: 'start' });
    expect(res.body).toMatchObject({ monitoring: true, answered: false });
    expect((await host(id)).all_status ?? null).toBeNull();
    await post(id, { action: 'stop' }).expect(200);
  });

  it('refuses an unknown action (422), a viewer (403) and an unknown host (404)', async () => {
    const id = env.up[0] ?? '';
    expectEveError(await post(id, { action: 'pause' }), 422, { issues: ['action'] });
    expectEveError(await post(id, { action: 'start' }, 'viewer'), 403);
    expectEveError(await post('nope.fleet.test', { action: 'start' }), 404);
  });
});
