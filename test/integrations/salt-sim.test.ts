/**
 * The salt-api simulator over real HTTP on loopback, checked against the rest_cherrypy
 * contract (salt-api 2018.3, salt/netapi/rest_cherrypy/app.py): auth and sessions, lowstate clients and
 * their return shapes, targeting, the job cache, key management, SSE framing, error pages,
 * fault controls, and the deterministic fleet generator.
 */
import http from 'node:http';
import {
  DEFAULT_MASTER_VERSION,
  generateFleet,
  pemFinger,
  startSaltSim,
  type SaltSim,
} from '@fleet/salt-sim';
import { minionIds } from '../helpers/minions';

let sim: SaltSim;
let token: string;

interface Answer {
  status: number;
  type: string;
  text: string;
  headers: Headers;
  json: () => unknown;
}

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    text,
    headers: res.headers,
    json: () => JSON.parse(text) as unknown,
  };
}

/** POST / with the session; returns the `return` list. */
async function lowstate(chunks: unknown): Promise<unknown[]> {
  const res = await call('POST', '/', chunks, { 'X-Auth-Token': token });
  expect(res.status).toBe(200);
  return (res.json() as { return: unknown[] }).return;
}

function obj(v: unknown): Record<string, unknown> {
  expect(v).toEqual(expect.any(Object));
  return v as Record<string, unknown>;
}

const accepted = (): string[] => minionIds(sim, 'accepted');
const upIds = (): string[] => minionIds(sim, 'up');
const downIds = (): string[] => minionIds(sim, 'down');

/** Reads SSE blocks from /events until `done` says stop (or the stream ends). */
function readEvents(
  path: string,
  headers: Record<string, string>,
  done: (raw: string) => boolean,
): Promise<{ status: number; raw: string; type: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${sim.url}${path}`, { headers }, (res) => {
      let raw = '';
      const finish = (): void =>
        resolve({ status: res.statusCode ?? 0, raw, type: String(res.headers['content-type']) });
      res.on('data', (d: Buffer) => {
        raw += d.toString();
        if (done(raw)) {
          req.destroy();
          finish();
        }
      });
      res.on('end', finish);
      res.on('close', finish);
    });
    req.on('error', (err) => (err.message === 'socket hang up' ? undefined : reject(err)));
  });
}

/** Waits until the simulator has `n` open event streams (the subscription is live). */
async function streamsOpen(n = 1): Promise<void> {
  for (let i = 0; i < 200 && sim.controls.openEventStreams() < n; i += 1)
    await new Promise((r) => setTimeout(r, 10));
  expect(sim.controls.openEventStreams()).toBeGreaterThanOrEqual(n);
}

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 24, seed: 7, returnDelayMs: 5, noReturnWaitMs: 30 });
  const res = await call('POST', '/login', sim.credentials);
  token = (res.json() as { return: Array<{ token: string }> }).return[0]?.token ?? '';
});

afterAll(async () => {
  await sim.close();
});

describe('fleet generator', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const snapshot = (seed: number): string => {
      const f = generateFleet({ hosts: 30, seed });
      return JSON.stringify({ m: [...f.minions.values()], n: f.nodegroups, f: [...f.files] });
    };
    expect(snapshot(11)).toBe(snapshot(11));
    expect(snapshot(11)).not.toBe(snapshot(12));
  });

  it('has FQDN ids, the spec grains, down hosts, pending and rejected keys, failing hosts', () => {
    const fleet = generateFleet({ hosts: 40, seed: 3 });
    const minions = [...fleet.minions.values()];
    const keys = [
      'cpu_model',
      'cpuarch',
      'virtual',
      'kernel',
      'kernelrelease',
      'lsb_distrib_id',
      'osfullname',
      'host',
      'domain',
      'localhost',
      'ip',
      'mem_total',
      'num_cpus',
      'num_gpus',
      'gpus',
      'serialnumber',
      'biosversion',
      'lsb_distrib_description',
      'ip_interfaces',
      'fqdn_ip4',
      'saltversion',
      'os',
      'id',
    ];
    for (const m of minions) {
      expect(m.id).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+){2,}$/);
      for (const k of keys) expect(m.grains).toHaveProperty([k]);
      expect(m.grains['id']).toBe(m.id);
      expect(`${String(m.grains['host'])}.${String(m.grains['domain'])}`).toBe(m.id);
      expect(m.grains['num_gpus']).toBe((m.grains['gpus'] as unknown[]).length);
      const tool = obj(m.grains['tool']);
      expect(tool['last_distupgrade']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00:00$/);
      expect(tool['last_stateapply']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00:00$/);
    }
    expect(minions.filter((m) => m.key === 'accepted')).toHaveLength(40);
    expect(minions.some((m) => m.key === 'accepted' && !m.up)).toBe(true);
    expect(minions.some((m) => m.key === 'pending')).toBe(true);
    expect(minions.some((m) => m.key === 'rejected')).toBe(true);
    expect(minions.some((m) => m.key === 'accepted' && m.up && m.failingStates)).toBe(true);
    const expressions = Object.values(fleet.nodegroups).flat().join(' ');
    for (const engine of ['E@', 'G@', 'L@']) expect(expressions).toContain(engine);
    expect([...fleet.files.keys()].filter((p) => p.startsWith('patches/')).length).toBeGreaterThan(1);
  });
});

describe('authentication', () => {
  it("answers a wrong password with 401 and CherryPy's HTML page", async () => {
    const res = await call('POST', '/login', { ...sim.credentials, password: 'wrong' });
    expect(res.status).toBe(401);
    expect(res.type).toBe('text/html;charset=utf-8');
    expect(res.text).toContain('<title>401 Unauthorized</title>');
    expect(res.text).toContain('<p>Could not authenticate using provided credentials</p>');
  });

  it('logs in with JSON or a form and returns the same token in header, cookie and body', async () => {
    const form = new URLSearchParams(sim.credentials).toString();
    const res = await call('POST', '/login', form, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/json');
    const body = obj((res.json() as { return: unknown[] }).return[0]);
    expect(body['token']).toMatch(/^[0-9a-f]{40}$/);
    expect(res.headers.get('x-auth-token')).toBe(body['token']);
    expect(res.headers.get('set-cookie')).toContain(`session_id=${String(body['token'])}`);
    expect(body['user']).toBe(sim.credentials.username);
    expect(body['eauth']).toBe('pam');
    expect(Number(body['expire']) - Number(body['start'])).toBeCloseTo(43200, 0);
    expect(body['perms']).toEqual(expect.arrayContaining(['@runner', '@wheel']));
  });

  it('requires a session on POST / and accepts the session_id cookie', async () => {
    const none = await call('POST', '/', { client: 'local', tgt: '*', fun: 'test.ping' });
    expect(none.status).toBe(401);
    expect(none.type).toContain('text/html');
    const viaCookie = await call(
      'POST',
      '/',
      { client: 'runner', fun: 'manage.present' },
      { Cookie: `session_id=${token}` },
    );
    expect(viaCookie.status).toBe(200);
  });

  it('expires idle sessions after the configured TTL and forgets all on expireSessions()', async () => {
    const login = await call('POST', '/login', sim.credentials);
    const mine = (login.json() as { return: Array<{ token: string }> }).return[0]?.token ?? '';
    const previous = sim.controls.settings.sessionTtlMs;
    sim.controls.settings.sessionTtlMs = 40;
    try {
      await new Promise((r) => setTimeout(r, 120));
      expect((await call('GET', '/jobs', undefined, { 'X-Auth-Token': mine })).status).toBe(401);
    } finally {
      sim.controls.settings.sessionTtlMs = previous;
    }
    sim.controls.expireSessions();
    expect((await call('GET', '/jobs', undefined, { 'X-Auth-Token': token })).status).toBe(401);
    const again = await call('POST', '/login', sim.credentials);
    token = (again.json() as { return: Array<{ token: string }> }).return[0]?.token ?? '';
    expect((await call('GET', '/jobs', undefined, { 'X-Auth-Token': token })).status).toBe(200);
  });
});

describe('/token and /run', () => {
  it('/token answers a bare list with a Salt token that /run accepts; a session id is refused there', async () => {
    const res = await call('POST', '/token', sim.credentials);
    const [salt] = res.json() as Array<Record<string, unknown>>;
    expect(salt).toEqual(
      expect.objectContaining({
        token: expect.stringMatching(/^[0-9a-f]+$/),
        name: sim.credentials.username,
        eauth: 'pam',
      }),
    );
    const ok = await call('POST', '/run', [
      { client: 'runner', fun: 'fileserver.envs', token: salt?.['token'] },
    ]);
    expect(ok.json()).toEqual({ return: [['base']] });
    const inline = await call('POST', '/run', [
      { client: 'runner', fun: 'fileserver.envs', ...sim.credentials },
    ]);
    expect(inline.status).toBe(200);
    const session = await call('POST', '/run', [{ client: 'runner', fun: 'fileserver.envs', token }]);
    expect(session.status).toBe(401);
  });
});

describe('request handling', () => {
  it('wraps a single chunk, rejects an empty dict, bad JSON, odd content types and Accept', async () => {
    expect(await lowstate({ client: 'runner', fun: 'manage.present' })).toHaveLength(1);
    expect(
      await lowstate([
        { client: 'runner', fun: 'manage.present' },
        { client: 'runner', fun: 'fileserver.envs' },
      ]),
    ).toHaveLength(2);
    const auth = { 'X-Auth-Token': token };
    const empty = await call('POST', '/', {}, auth);
    expect([empty.status, empty.text]).toEqual([400, expect.stringContaining('Lowstates must be a list')]);
    const bad = await call('POST', '/', '{"client":', auth);
    expect([bad.status, bad.text]).toEqual([400, expect.stringContaining('Invalid JSON document')]);
    const xml = await call('POST', '/', '<x/>', { ...auth, 'Content-Type': 'application/xml' });
    expect(xml.status).toBe(406);
    const html = await call('GET', '/jobs', undefined, { ...auth, Accept: 'text/html' });
    expect(html.status).toBe(406);
  });

  it('reports an invalid client with 400; netapi_enable_clients (3006+) disables clients with 400', async () => {
    const auth = { 'X-Auth-Token': token };
    const invalid = await call('POST', '/', { client: 'nope', fun: 'test.ping' }, auth);
    expect([invalid.status, invalid.text]).toEqual([
      400,
      expect.stringContaining("Invalid client specified: 'nope'"),
    ]);
    const batch = { client: 'local_batch', tgt: '*', fun: 'test.ping' };
    const saved = [...sim.controls.settings.enabledClients];
    sim.controls.settings.enabledClients = saved.filter((c) => c !== 'local_batch');
    try {
      // 2018.3 has no netapi_enable_clients: the setting is not consulted.
      expect((await call('POST', '/', batch, auth)).status).toBe(200);
      sim.controls.settings.masterVersion = '3006.9';
      const disabled = await call('POST', '/', batch, auth);
      expect([disabled.status, disabled.text]).toEqual([
        400,
        expect.stringContaining("Client disabled: 'local_batch'"),
      ]);
    } finally {
      sim.controls.settings.enabledClients = saved;
      sim.controls.settings.masterVersion = DEFAULT_MASTER_VERSION;
    }
  });

  it('answers an unknown runner with the JSON catch-all 500', async () => {
    const res = await call('POST', '/', { client: 'runner', fun: 'no.such' }, { 'X-Auth-Token': token });
    expect(res.status).toBe(500);
    expect(res.type).toBe('application/json');
    expect(res.json()).toEqual({ status: 500, return: 'An unexpected error occurred' });
  });

  it('answers 404 and 405 with HTML pages', async () => {
    expect((await call('GET', '/nowhere')).status).toBe(404);
    const del = await call('DELETE', '/login');
    expect(del.status).toBe(405);
    expect(del.type).toContain('text/html');
  });
});

describe('local clients and targeting', () => {
  it('returns false for a silent minion, and full_return tells it apart from a real false', async () => {
    const [plain] = await lowstate({ client: 'local', tgt: '*', fun: 'test.ping' });
    expect(Object.keys(obj(plain)).sort()).toEqual(accepted());
    for (const id of downIds()) expect(obj(plain)[id]).toBe(false);
    for (const id of upIds()) expect(obj(plain)[id]).toBe(true);
    const [full] = await lowstate({ client: 'local', tgt: '*', fun: 'test.false', full_return: true });
    for (const id of downIds()) expect(obj(full)[id]).toBe(false);
    for (const id of upIds())
      expect(obj(full)[id]).toEqual({ ret: false, retcode: 0, jid: expect.stringMatching(/^\d{20}$/) });
  });

  it('targets by list (missing ids get the no-response text), glob, pcre, grain, compound and nodegroup', async () => {
    const ids = accepted();
    const [list] = await lowstate({
      client: 'local',
      tgt: [ids[0], 'ghost.example.com'],
      tgt_type: 'list',
      fun: 'test.ping',
    });
    expect(obj(list)['ghost.example.com']).toMatch(/^Minion did not return\. \[No response\]/);
    const keysOf = async (chunk: Record<string, unknown>): Promise<string[]> =>
      Object.keys(obj((await lowstate({ client: 'local', fun: 'test.ping', ...chunk }))[0])).sort();
    expect(await keysOf({ tgt: 'web-*' })).toEqual(ids.filter((id) => id.startsWith('web-')));
    expect(await keysOf({ tgt: '^(db|cache)-', tgt_type: 'pcre' })).toEqual(
      ids.filter((id) => /^(db|cache)-/.test(id)),
    );
    const ubuntu = ids.filter((id) => sim.fleet.minions.get(id)?.grains['os'] === 'Ubuntu');
    expect(await keysOf({ tgt: 'os:ubuntu', tgt_type: 'grain' })).toEqual(ubuntu);
    expect(await keysOf({ tgt: 'G@os:Ubuntu and E@^web', tgt_type: 'compound' })).toEqual(
      ubuntu.filter((id) => id.startsWith('web')),
    );
    const core = String(sim.fleet.nodegroups['core']).slice(2).split(',').sort();
    expect(await keysOf({ tgt: 'core', tgt_type: 'nodegroup' })).toEqual(core);
    expect(await lowstate({ client: 'local', tgt: 'nomatch*', fun: 'test.ping' })).toEqual([{}]);
  });

  it('runs state.apply with realistic steps; failing hosts get result false and retcode 2', async () => {
    const [ret] = await lowstate({
      client: 'local',
      tgt: '*',
      fun: 'state.apply',
      arg: ['patches.sudo-cve-2023-42465'],
      full_return: true,
    });
    for (const id of upIds()) {
      const entry = obj(obj(ret)[id]);
      const steps = Object.entries(obj(entry['ret']));
      expect(steps.length).toBeGreaterThan(0);
      for (const [key, step] of steps) {
        expect(key).toMatch(/^cmd_\|-[^|]+_\|-.+_\|-run$/);
        expect(step).toEqual(
          expect.objectContaining({
            comment: expect.any(String),
            name: expect.any(String),
            result: expect.any(Boolean),
            duration: expect.any(Number),
            __run_num__: expect.any(Number),
            __sls__: 'patches.sudo-cve-2023-42465',
            __id__: expect.any(String),
            start_time: expect.stringMatching(/^\d{2}:\d{2}:\d{2}\.\d{6}$/),
            changes: {
              pid: expect.any(Number),
              retcode: expect.any(Number),
              stdout: expect.any(String),
              stderr: expect.any(String),
            },
          }),
        );
      }
      const failed = steps.some(([, s]) => obj(s)['result'] === false);
      expect(failed).toBe(sim.fleet.minions.get(id)?.failingStates === true);
      expect(entry['retcode']).toBe(failed ? 2 : 0);
      expect(entry['out']).toBe('highstate');
    }
  });

  it('local_async returns {jid, minions}; results appear in /jobs/<jid> and lookup_jid', async () => {
    const [job] = await lowstate({
      client: 'local_async',
      tgt: '*',
      fun: 'state.apply',
      arg: ['patches.chrony-pool'],
    });
    const { jid, minions } = obj(job) as { jid: string; minions: string[] };
    expect(jid).toMatch(/^\d{20}$/);
    expect([...minions].sort()).toEqual(accepted());
    let returned: string[] = [];
    for (let i = 0; i < 200 && returned.length < upIds().length; i += 1) {
      await new Promise((r) => setTimeout(r, 20));
      const res = await call('GET', `/jobs/${jid}`, undefined, { 'X-Auth-Token': token });
      returned = Object.keys(obj((res.json() as { return: unknown[] }).return[0])).sort();
    }
    expect(returned).toEqual(upIds());
    const detail = (await call('GET', `/jobs/${jid}`, undefined, { 'X-Auth-Token': token })).json() as {
      info: Array<Record<string, unknown>>;
    };
    expect(detail.info[0]).toEqual(
      expect.objectContaining({ jid, Function: 'state.apply', 'Target-type': 'glob', Minions: accepted() }),
    );
    const [lookup] = await lowstate({ client: 'runner', fun: 'jobs.lookup_jid', jid });
    expect(obj(lookup)['outputter']).toBe('highstate');
    expect(Object.keys(obj(obj(lookup)['data'])).sort()).toEqual(upIds());
    const list = (await call('GET', '/jobs', undefined, { 'X-Auth-Token': token })).json() as {
      return: unknown[];
    };
    expect(obj(list.return[0])).toHaveProperty([jid]);
    const unknown = (
      await call('GET', '/jobs/20000101000000000000', undefined, { 'X-Auth-Token': token })
    ).json() as { info: unknown[] };
    expect(obj(unknown.info[0])['Error']).toBe('Cannot contact returner or no job with this jid');
  });
});

describe('runners, wheel and convenience URLs', () => {
  it('manage.status splits up and down; config.get returns the nodegroups', async () => {
    const [status, groups, files] = await lowstate([
      { client: 'runner', fun: 'manage.status' },
      { client: 'runner', fun: 'config.get', kwarg: { key: 'nodegroups' } },
      { client: 'runner', fun: 'fileserver.file_list' },
    ]);
    expect(status).toEqual({ up: upIds(), down: downIds() });
    expect(groups).toEqual(sim.fleet.nodegroups);
    expect(files).toEqual([...sim.fleet.files.keys()].sort());
  });

  it('lists keys (GET /keys is not wrapped in a list) and fingerprints them like pem_finger', async () => {
    const keys = obj(
      ((await call('GET', '/keys', undefined, { 'X-Auth-Token': token })).json() as { return: unknown })
        .return,
    );
    expect(keys['minions']).toEqual(accepted());
    expect((keys['minions_pre'] as string[]).length).toBeGreaterThan(0);
    expect(keys['local']).toEqual(['master.pem', 'master.pub']);
    const id = accepted()[0] ?? '';
    const finger = (
      (await call('GET', `/keys/${id}`, undefined, { 'X-Auth-Token': token })).json() as { return: unknown }
    ).return;
    expect(finger).toEqual({ minions: { [id]: pemFinger(sim.fleet.minions.get(id)?.pem ?? '') } });
    expect(obj(obj(finger)['minions'])[id]).toMatch(/^([0-9a-f]{2}:){31}[0-9a-f]{2}$/);
  });

  it('transport/mixins/auth.py _auth: a new key of an accepted minion goes to minions_denied beside it; delete + accept swaps it in', async () => {
    const id = accepted()[1] ?? '';
    const before = obj(
      obj(obj((await lowstate({ client: 'wheel', fun: 'key.finger', match: id }))[0])['data'])['return'],
    );
    const finger = async (): Promise<Record<string, unknown>> =>
      obj(obj(obj((await lowstate({ client: 'wheel', fun: 'key.finger', match: id }))[0])['data'])['return']);
    const fp = sim.controls.changeKey(id);
    const denied = await finger();
    expect(obj(denied['minions'])[id]).toBe(obj(before['minions'])[id]);
    expect(obj(denied['minions_denied'])[id]).toBe(fp);
    sim.controls.acceptNewKey(id);
    const after = await finger();
    expect(obj(after['minions'])[id]).toBe(fp);
    expect(after['minions_denied']).toBeUndefined();
  });

  it('accepts a pending key through the wheel and the minion becomes targetable', async () => {
    const added = sim.controls.addMinion('kiosk-900.ber.fleet.example.com');
    const [ret] = await lowstate({ client: 'wheel', fun: 'key.accept', match: added.id });
    expect(obj(ret)['tag']).toMatch(/^salt\/wheel\/\d{20}$/);
    expect(obj(obj(ret)['data'])).toEqual(
      expect.objectContaining({ fun: 'wheel.key.accept', return: { minions: [added.id] }, success: true }),
    );
    const [ping] = await lowstate({ client: 'local', tgt: added.id, fun: 'test.ping' });
    expect(ping).toEqual({ [added.id]: true });
    sim.controls.removeMinion(added.id);
    expect(sim.fleet.minions.has(added.id)).toBe(false);
  });

  it('GET /minions returns grains per minion and false for silent ones', async () => {
    const ret = obj(
      ((await call('GET', '/minions', undefined, { 'X-Auth-Token': token })).json() as { return: unknown[] })
        .return[0],
    );
    for (const id of upIds()) expect(obj(ret[id])['id']).toBe(id);
    for (const id of downIds()) expect(ret[id]).toBe(false);
  });
});

describe('events', () => {
  it('streams retry, then tag/data blocks for job and custom events', async () => {
    const stream = readEvents('/events', { 'X-Auth-Token': token }, (raw) =>
      raw.includes('tag: vnc/connect'),
    );
    await streamsOpen();
    const [job] = await lowstate({ client: 'local', tgt: upIds()[0], fun: 'test.ping', full_return: true });
    const jid = String(obj(obj(job)[upIds()[0] ?? ''])['jid']);
    sim.controls.emitEvent('vnc/connect', { hostname: 'ws-1', status: 'connected' });
    const { status, raw, type } = await stream;
    expect(status).toBe(200);
    expect(type).toBe('text/event-stream;charset=utf-8');
    expect(raw.startsWith('retry: 400\ntag: ')).toBe(true);
    expect(raw).toContain(`tag: salt/job/${jid}/new\ndata: {"data":`);
    const blocks = raw
      .replace(/^retry: \d+\n/, '')
      .split('\n\n')
      .filter(Boolean);
    for (const block of blocks) expect(block).toMatch(/^tag: [^\n]+\ndata: \{.*\}$/s);
    const ret = blocks
      .map(
        (b) => JSON.parse(b.split('\ndata: ')[1] ?? '{}') as { tag: string; data: Record<string, unknown> },
      )
      .find((e) => e.tag === `salt/job/${jid}/ret/${upIds()[0] ?? ''}`);
    expect(ret?.data).toEqual(
      expect.objectContaining({
        cmd: '_return',
        jid,
        fun: 'test.ping',
        return: true,
        success: true,
        _stamp: expect.any(String),
      }),
    );
    expect(raw).toContain('"hostname":"ws-1","status":"connected"');
  });

  it('sends ambient vnc/connect events the way a minion event.send does', async () => {
    const other = await startSaltSim({ hosts: 3, seed: 2, vncEveryMs: 10 });
    try {
      const login = await fetch(`${other.url}/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(other.credentials),
      });
      const otherToken =
        ((await login.json()) as { return: Array<{ token: string }> }).return[0]?.token ?? '';
      const raw = await new Promise<string>((resolve) => {
        const req = http.get(`${other.url}/events`, { headers: { 'X-Auth-Token': otherToken } }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => {
            text += d.toString();
            if (/tag: vnc\/connect\ndata: .*\n\n/.test(text)) {
              req.destroy();
              resolve(text);
            }
          });
        });
        req.on('error', () => undefined);
      });
      const line = /tag: vnc\/connect\ndata: (.*)\n/.exec(raw)?.[1] ?? '{}';
      const event = JSON.parse(line) as { data: { cmd: string; data: Record<string, unknown> } };
      expect(event.data.cmd).toBe('_minion_event');
      expect(event.data.data).toEqual({
        hostname: expect.any(String),
        status: expect.stringMatching(/^(connected|disconnected)$/),
      });
    } finally {
      await other.close();
    }
  });

  it('accepts ?token= and rejects a missing or bad token with 401', async () => {
    const ok = await readEvents(`/events?token=${token}`, {}, (raw) => raw.startsWith('retry:'));
    expect(ok.status).toBe(200);
    expect((await readEvents('/events', {}, () => true)).status).toBe(401);
    expect((await readEvents('/events?token=not-hex', {}, () => true)).status).toBe(401);
  });
});

describe('fault controls', () => {
  it('failNext answers 500 (JSON) or another status (HTML), then recovers', async () => {
    sim.controls.failNext(1, 500);
    const a = await call('GET', '/jobs', undefined, { 'X-Auth-Token': token });
    expect([a.status, a.type]).toEqual([500, 'application/json']);
    sim.controls.failNext(1, 502, 'upstream broke');
    const b = await call('GET', '/jobs', undefined, { 'X-Auth-Token': token });
    expect([b.status, b.type]).toEqual([502, 'text/html;charset=utf-8']);
    expect(b.text).toContain('<p>upstream broke</p>');
    expect((await call('GET', '/jobs', undefined, { 'X-Auth-Token': token })).status).toBe(200);
  });

  it('failNextCall fails only the lowstates calling its function, n times', async () => {
    const headers = { 'X-Auth-Token': token };
    sim.controls.failNextCall(1, 'manage.present', 500);
    expect((await call('GET', '/jobs', undefined, headers)).status).toBe(200);
    expect((await call('POST', '/', { client: 'runner', fun: 'manage.status' }, headers)).status).toBe(200);
    const failed = await call('POST', '/', [{ client: 'runner', fun: 'manage.present' }], headers);
    expect([failed.status, failed.type]).toEqual([500, 'application/json']);
    expect((await call('POST', '/', { client: 'runner', fun: 'manage.present' }, headers)).status).toBe(200);
  });

  it('masterUnavailable answers 503 "Salt Master is not available."', async () => {
    sim.controls.masterUnavailable(true);
    try {
      const res = await call(
        'POST',
        '/',
        { client: 'runner', fun: 'manage.present' },
        { 'X-Auth-Token': token },
      );
      expect(res.status).toBe(503);
      expect(res.text).toContain('Salt Master is not available.');
    } finally {
      sim.controls.masterUnavailable(false);
    }
  });

  it('masterDown refuses connections until it is brought back', async () => {
    await sim.controls.masterDown(true);
    try {
      await expect(fetch(`${sim.url}/`)).rejects.toThrow();
    } finally {
      await sim.controls.masterDown(false);
    }
    expect((await call('GET', '/')).json()).toEqual(expect.objectContaining({ return: 'Welcome' }));
  });

  it('setUp takes a minion down and back up, firing its start event', async () => {
    const id = upIds()[0] ?? '';
    sim.controls.setUp(id, false);
    expect(obj((await lowstate({ client: 'local', tgt: id, fun: 'test.ping' }))[0])[id]).toBe(false);
    const stream = readEvents('/events', { 'X-Auth-Token': token }, (raw) =>
      raw.includes(`salt/minion/${id}/start`),
    );
    await streamsOpen();
    sim.controls.setUp(id, true);
    expect((await stream).raw).toContain(`tag: salt/minion/${id}/start`);
    expect(obj((await lowstate({ client: 'local', tgt: id, fun: 'test.ping' }))[0])[id]).toBe(true);
  });

  it('counts requests and logins', async () => {
    sim.controls.resetStats();
    await call('POST', '/login', sim.credentials);
    await call('GET', '/jobs', undefined, { 'X-Auth-Token': token });
    expect(sim.controls.stats).toEqual(expect.objectContaining({ requests: 2, logins: 1 }));
    expect(sim.controls.stats.byRoute['GET /jobs']).toBe(1);
  });
});
