/**
 * The salt-api client against the simulator over real HTTP: session reuse and the single
 * transparent re-login, error mapping (unreachable, timeout, 5xx, HTML bodies) with no
 * credential leaks, retries for reads only, local/async/state results, silent minions
 * told apart from `false`, the event stream, keys, nodegroups and files.
 */
import { startSaltSim, type SaltSim } from '@fleet/salt-sim';
import {
  createSaltClient,
  eventPayload,
  type SaltClient,
  type SaltClientOptions,
  type SaltEvent,
  type SaltEventStream,
} from '@fleet/salt';
import { BadGateway, GatewayTimeout, HttpError, ServiceUnavailable } from '../../engine/src/errors';
import { minionIds } from '../helpers/minions';

const PASSWORD = 'correct-horse-battery-staple';
let sim: SaltSim;
const clients: SaltClient[] = [];

function client(overrides: Partial<SaltClientOptions> = {}): SaltClient {
  const c = createSaltClient({
    url: sim.url,
    username: 'fleet',
    password: PASSWORD,
    retry: { baseDelayMs: 10 },
    ...overrides,
  });
  clients.push(c);
  return c;
}

const route = (r: string): number => sim.controls.stats.byRoute[r] ?? 0;
const accepted = (): string[] => minionIds(sim, 'accepted');
const upIds = (): string[] => minionIds(sim, 'up');
const downIds = (): string[] => minionIds(sim, 'down');

/** The rejection of a promise (fails the test if it resolves). */
async function rejection(p: Promise<unknown>): Promise<HttpError> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  return err as HttpError;
}

/** Collects events until `stop` matches one or the stream ends; the stream stays open (no `break`, which would close it). */
async function collect(stream: SaltEventStream, stop: (e: SaltEvent) => boolean): Promise<SaltEvent[]> {
  const seen: SaltEvent[] = [];
  const it = stream[Symbol.asyncIterator]();
  for (let r = await it.next(); r.done !== true; r = await it.next()) {
    seen.push(r.value);
    if (stop(r.value)) break;
  }
  return seen;
}

beforeAll(async () => {
  sim = await startSaltSim({
    hosts: 16,
    seed: 21,
    returnDelayMs: 5,
    noReturnWaitMs: 30,
    users: [{ username: 'fleet', password: PASSWORD }],
  });
});

afterEach(async () => {
  sim.controls.slow(0);
  sim.controls.failNext(0);
  sim.controls.masterUnavailable(false);
  await sim.controls.masterDown(false);
});

afterAll(async () => {
  for (const c of clients) c.close();
  await sim.close();
});

describe('session', () => {
  it('logs in once and reuses the token; concurrent first calls share one login', async () => {
    const c = client();
    const before = sim.controls.stats.logins;
    await Promise.all([c.manageStatus(), c.keys(), c.jobs(), c.nodegroups(), c.listKeys()]);
    await c.keys();
    expect(sim.controls.stats.logins - before).toBe(1);
  });

  it('re-logs in exactly once, transparently, after the sessions are gone', async () => {
    const c = client();
    await c.keys();
    sim.controls.expireSessions();
    const before = sim.controls.stats.logins;
    const [lists, status] = await Promise.all([c.keys(), c.manageStatus(), c.jobs()]);
    expect(lists.minions).toEqual(accepted());
    expect(status.up).toEqual(upIds());
    expect(sim.controls.stats.logins - before).toBe(1);
  });

  it('re-logs in once when the idle session TTL has passed', async () => {
    const c = client();
    await c.keys();
    const previous = sim.controls.settings.sessionTtlMs;
    sim.controls.settings.sessionTtlMs = 300;
    try {
      await new Promise((r) => setTimeout(r, 450));
      const before = sim.controls.stats.logins;
      await c.keys();
      expect(sim.controls.stats.logins - before).toBe(1);
    } finally {
      sim.controls.settings.sessionTtlMs = previous;
    }
  });

  it('renews the token before its expire without waiting for a 401', async () => {
    const short = await startSaltSim({
      hosts: 3,
      seed: 5,
      tokenExpireS: 1,
      users: [{ username: 'fleet', password: PASSWORD }],
    });
    const c = createSaltClient({ url: short.url, username: 'fleet', password: PASSWORD });
    try {
      await c.keys();
      await c.keys();
      expect(short.controls.stats.logins).toBe(1);
      await new Promise((r) => setTimeout(r, 1100));
      await c.keys();
      expect(short.controls.stats.logins).toBe(2);
      expect(short.controls.stats.unauthorized).toBe(0);
    } finally {
      c.close();
      await short.close();
    }
  });

  it('reports a wrong password as BadGateway without the password anywhere', async () => {
    const secret = 'not-the-password-0451';
    const c = client({ password: secret });
    const err = await rejection(c.keys());
    expect(err).toBeInstanceOf(BadGateway);
    expect(err.message).toContain("user 'fleet'");
    expect(err.message).toContain('Could not authenticate using provided credentials');
    for (const text of [err.message, String(err.stack), JSON.stringify(err)])
      expect(text).not.toContain(secret);
  });

  it('never logs the password or the token', async () => {
    const lines: string[] = [];
    const log = (obj: Record<string, unknown>, msg: string): void => {
      lines.push(`${msg} ${JSON.stringify(obj)}`);
    };
    const c = client({ logger: { debug: log, info: log, warn: log, error: log } });
    await c.keys();
    sim.controls.expireSessions();
    sim.controls.failNext(1, 500);
    await c.keys();
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });
});

describe('executions', () => {
  it('local returns per-minion outcomes; a silent minion is not a false', async () => {
    const c = client();
    const res = await c.local('*', 'test.false');
    expect(res.jid).toMatch(/^\d{20}$/);
    expect(Object.keys(res.minions).sort()).toEqual(accepted());
    for (const id of upIds())
      expect(res.minions[id]).toEqual({ status: 'returned', ret: false, retcode: 0, jid: res.jid });
    for (const id of downIds()) expect(res.minions[id]?.status).toBe('no_response');
    const plain = await c.local('*', 'test.false', { fullReturn: false });
    for (const id of downIds()) expect(plain.minions[id]).toEqual({ status: 'ambiguous_false' });
  });

  it('local on a list marks ids without a key as no_response', async () => {
    const c = client();
    const id = upIds()[0] ?? '';
    const res = await c.local([id, 'ghost.fleet.example.com'], 'cmd.run', {
      tgt_type: 'list',
      arg: ['hostname -f'],
    });
    expect(res.minions[id]).toEqual(expect.objectContaining({ status: 'returned', ret: id, retcode: 0 }));
    expect(res.minions['ghost.fleet.example.com']).toEqual({
      status: 'no_response',
      message: 'Minion did not return. [No response]',
    });
    expect((await c.local('nothing-matches-*', 'test.ping')).minions).toEqual({});
  });

  it('state.apply results carry the failing steps and retcode 2 on failing hosts', async () => {
    const c = client();
    const res = await c.local('*', 'state.apply', { arg: ['patches.openssl-cve-2024-5535'] });
    for (const id of upIds()) {
      const outcome = res.minions[id];
      if (outcome?.status !== 'returned') throw new Error(`${id} did not return`);
      const steps = Object.values(
        outcome.ret as Record<string, { result: boolean; changes: { retcode: number } }>,
      );
      const failing = sim.fleet.minions.get(id)?.failingStates === true;
      expect(steps.some((s) => s.result === false)).toBe(failing);
      expect(outcome.retcode).toBe(failing ? 2 : 0);
      expect(outcome.out).toBe('highstate');
    }
  });

  it('localAsync returns the jid; jobs(jid) fills in until only silent minions are pending', async () => {
    const c = client();
    const job = await c.localAsync('*', 'grains.item', { arg: ['os'] });
    expect(job.jid).toMatch(/^\d{20}$/);
    expect([...job.minions].sort()).toEqual(accepted());
    let detail = await c.jobs(job.jid ?? '');
    for (let i = 0; i < 200 && detail.pending.length > downIds().length; i += 1) {
      await new Promise((r) => setTimeout(r, 20));
      detail = await c.jobs(job.jid ?? '');
    }
    expect(detail.function).toBe('grains.item');
    expect(detail.pending).toEqual(downIds());
    expect(Object.keys(detail.result).sort()).toEqual(upIds());
    expect(Object.keys(await c.jobs())).toContain(job.jid);
    expect(await c.localAsync('nothing-matches-*', 'test.ping')).toEqual({ jid: null, minions: [] });
  });

  it('run() passes any lowstate through', async () => {
    const c = client();
    const [present, envs] = await c.run([
      { client: 'runner', fun: 'manage.present' },
      { client: 'runner', fun: 'fileserver.envs' },
    ]);
    expect(present).toEqual(upIds());
    expect(envs).toEqual(['base']);
  });
});

describe('error mapping', () => {
  it('master down -> ServiceUnavailable naming the URL, never the password', async () => {
    const c = client();
    await c.keys();
    await sim.controls.masterDown(true);
    const err = await rejection(c.manageStatus());
    expect(err).toBeInstanceOf(ServiceUnavailable);
    expect(err.message).toContain(`salt master unreachable at ${sim.url}`);
    expect(err.message).not.toContain(PASSWORD);
    await sim.controls.masterDown(false);
    expect((await c.manageStatus()).up).toEqual(upIds());
  });

  it('slow master -> GatewayTimeout within the configured timeout', async () => {
    const c = client({ timeouts: { exec: 150, read: 150 }, retry: { attempts: 1 } });
    await c.keys();
    sim.controls.slow(1500);
    expect(await rejection(c.local('*', 'test.ping'))).toBeInstanceOf(GatewayTimeout);
    expect(await rejection(c.keys())).toBeInstanceOf(GatewayTimeout);
  });

  it("a 500 becomes BadGateway with the master's message; HTML bodies are read, not parsed as JSON", async () => {
    const c = client();
    await c.keys();
    sim.controls.failNext(1, 500);
    const err = await rejection(c.local('*', 'test.ping'));
    expect(err).toBeInstanceOf(BadGateway);
    expect(err.message).toContain('An unexpected error occurred');
    sim.controls.failNext(1, 502, 'the proxy in front of salt-api gave up');
    const html = await rejection(c.localAsync('*', 'test.ping'));
    expect(html).toBeInstanceOf(BadGateway);
    expect(html.message).toContain('the proxy in front of salt-api gave up');
    expect(html.message).not.toContain('<');
  });

  it('master daemon not running (503) and runner exceptions are reported', async () => {
    const c = client({ retry: { attempts: 1 } });
    sim.controls.masterUnavailable(true);
    const down = await rejection(c.manageStatus());
    expect(down).toBeInstanceOf(ServiceUnavailable);
    expect(down.message).toContain('Salt Master is not available.');
    sim.controls.masterUnavailable(false);
    const raised = await rejection(c.runner('jobs.list_job'));
    expect(raised).toBeInstanceOf(BadGateway);
    expect(raised.message).toContain("missing 1 required positional argument: 'jid'");
  });
});

describe('retries', () => {
  it('retries reads with back-off and never executions', async () => {
    const c = client();
    await c.keys();
    sim.controls.failNext(2, 500);
    let before = route('POST /');
    expect((await c.manageStatus()).down).toEqual(downIds());
    expect(route('POST /') - before).toBe(3);

    sim.controls.failNext(5, 503);
    before = route('GET /keys');
    expect(await rejection(c.keys())).toBeInstanceOf(ServiceUnavailable);
    expect(route('GET /keys') - before).toBe(3);
    sim.controls.failNext(0);

    // A JSON 500 to a local call is checked with the session probe (2018.3.0-2 refusals look the
    // same), which the master answers: the execution is not sent again.
    sim.controls.failNext(1, 500);
    before = route('POST /');
    const probes = sim.controls.stats.byFun['wheel:key.finger_master'] ?? 0;
    expect(await rejection(c.local('*', 'cmd.run', { arg: ['uptime'] }))).toBeInstanceOf(BadGateway);
    expect(route('POST /') - before).toBe(2);
    expect((sim.controls.stats.byFun['wheel:key.finger_master'] ?? 0) - probes).toBe(1);

    sim.controls.failNext(1, 500);
    before = route('POST /');
    expect(await rejection(c.wheel('key.accept', { match: 'nobody' }))).toBeInstanceOf(BadGateway);
    expect(route('POST /') - before).toBe(1);
  });

  it('does not retry a 4xx answer', async () => {
    const c = client();
    await c.keys();
    sim.controls.failNext(1, 400, 'Lowstates must be a list');
    const before = route('GET /jobs');
    expect(await rejection(c.jobs())).toBeInstanceOf(BadGateway);
    expect(route('GET /jobs') - before).toBe(1);
  });
});

describe('events', () => {
  it('yields job returns and vnc/connect events (runner- or minion-sent)', async () => {
    const c = client();
    const stream = await c.events();
    const id = upIds()[0] ?? '';
    const job = await c.localAsync(id, 'test.ping');
    const returned = await collect(stream, (e) => e.tag === `salt/job/${job.jid ?? ''}/ret/${id}`);
    expect(returned.at(-1)?.data).toEqual(
      expect.objectContaining({ id, jid: job.jid, fun: 'test.ping', return: true, success: true }),
    );
    expect(returned.map((e) => e.tag)).toContain(`salt/job/${job.jid ?? ''}/new`);
    sim.controls.emitEvent('vnc/connect', { hostname: id, status: 'connected' });
    sim.controls.minionEvent(id, 'vnc/connect', { hostname: id, status: 'disconnected' });
    const vnc: SaltEvent[] = [];
    await collect(stream, (e) => (e.tag === 'vnc/connect' ? vnc.push(e) >= 2 : false));
    expect(vnc.map(eventPayload).map((p) => ({ hostname: p['hostname'], status: p['status'] }))).toEqual([
      { hostname: id, status: 'connected' },
      { hostname: id, status: 'disconnected' },
    ]);
    expect(stream.retryMs).toBe(400);
    stream.close();
    expect(await stream.ended).toBe('closed_by_client');
  });

  it('ends the iterator when the server drops the stream', async () => {
    const c = client();
    const stream = await c.events();
    sim.controls.emitEvent('fleet/test', { n: 1 });
    const seen = await collect(stream, (e) => e.tag === 'fleet/test');
    expect(seen.map((e) => e.tag)).toContain('fleet/test');
    const rest = collect(stream, () => false);
    sim.controls.dropEventStream();
    await rest;
    expect(await stream.ended).toBe('closed_by_server');
  });

  it('a reader that falls behind a burst loses nothing: every event comes, in order, in batches of what waits', async () => {
    const c = client();
    const stream = await c.events();
    // More than the reader keeps waiting in memory: it stops reading the socket, then reads on.
    const count = 6000;
    for (let n = 0; n < count; n += 1) sim.controls.emitEvent('fleet/burst', { n, pad: 'x'.repeat(200) });
    const it = stream[Symbol.asyncIterator]();
    const seen: number[] = [];
    let biggest = 0;
    while (seen.length < count) {
      const first = await it.next();
      if (first.done === true) throw new Error('the stream ended during the burst');
      const batch = [first.value, ...stream.takeReady(500)].filter((e) => e.tag === 'fleet/burst');
      biggest = Math.max(biggest, batch.length);
      seen.push(...batch.map((e) => Number(e.data['n'])));
    }
    expect(seen).toEqual(Array.from({ length: count }, (_, n) => n));
    expect(biggest).toBeLessThanOrEqual(501);
    expect(stream.takeReady(10)).toEqual([]);
    stream.close();
  });

  it('re-logs in once when opening the stream with a stale session', async () => {
    const c = client();
    await c.keys();
    sim.controls.expireSessions();
    const before = sim.controls.stats.logins;
    const stream = await c.events();
    expect(sim.controls.stats.logins - before).toBe(1);
    stream.close();
  });
});

describe('fleet helpers', () => {
  it('keys, listKeys and keyFingerprints agree; a new key is denied beside the accepted one until accepted', async () => {
    const c = client();
    const [keys, listed, fps] = await Promise.all([c.keys(), c.listKeys(), c.keyFingerprints()]);
    expect(listed).toEqual(keys);
    expect(keys.minions_pre.length).toBeGreaterThan(0);
    expect(keys.minions_rejected.length).toBeGreaterThan(0);
    expect(Object.keys(fps.accepted).sort()).toEqual(keys.minions);
    expect(Object.keys(fps.pending).sort()).toEqual(keys.minions_pre);
    const id = keys.minions[0] ?? '';
    const fresh = sim.controls.changeKey(id);
    const denied = await c.keyFingerprints(id);
    expect(denied.accepted[id]).toBe(fps.accepted[id]);
    expect(denied.denied[id]).toBe(fresh);
    expect((await c.listKeys()).minions_denied).toContain(id);
    sim.controls.acceptNewKey(id);
    const after = await c.keyFingerprints(id);
    expect(after.accepted[id]).toBe(fresh);
    expect(after.denied[id]).toBeUndefined();
  });

  it('grains and minions give null for silent minions', async () => {
    const c = client();
    const [grains, minions] = await Promise.all([c.grains(), c.minions()]);
    for (const id of upIds()) {
      expect(grains[id]?.['id']).toBe(id);
      expect(minions[id]?.['fqdn']).toBe(id);
    }
    for (const id of downIds()) {
      expect(grains[id]).toBeNull();
      expect(minions[id]).toBeNull();
    }
    const one = upIds()[1] ?? '';
    expect(Object.keys(await c.minions(one))).toEqual([one]);
  });

  it('nodegroups come back as compound strings (list forms joined)', async () => {
    const c = client();
    const groups = await c.nodegroups();
    expect(Object.keys(groups).sort()).toEqual(Object.keys(sim.fleet.nodegroups).sort());
    for (const [name, expr] of Object.entries(sim.fleet.nodegroups)) {
      expect(groups[name]).toBe(Array.isArray(expr) ? expr.join(' ') : expr);
    }
  });

  it('lists and reads the patches on the file server', async () => {
    const c = client();
    const patches = await c.fileList('patches/');
    expect(patches).toEqual([...sim.fleet.files.keys()].filter((p) => p.startsWith('patches/')).sort());
    const first = patches[0] ?? '';
    expect(await c.fileRead(first)).toBe(sim.fleet.files.get(first));
    await expect(c.fileRead('patches/none.sls')).rejects.toMatchObject({ status: 404 });
  });
});
