/**
 * The simulator is as strict as a real master, never more lenient: one test per rule, named
 * after the Salt function whose behaviour it copies (read in the 2018.3 sources, the default
 * `masterVersion`, and switched on the version where 3000/3006 differ).
 */
import { DEFAULT_MASTER_VERSION, startSaltSim, type SaltSim } from '@fleet/salt-sim';
import { minionIds } from '../helpers/minions';

let sim: SaltSim;
let token: string;

async function post(body: unknown): Promise<{ status: number; type: string; json: unknown }> {
  const res = await fetch(`${sim.url}/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth-Token': token },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    json: res.headers.get('content-type') === 'application/json' ? JSON.parse(text) : text,
  };
}

/** The one element of `return` for a chunk answered 200. */
async function one(chunk: Record<string, unknown>): Promise<unknown> {
  const res = await post(chunk);
  expect(res.status).toBe(200);
  return (res.json as { return: unknown[] }).return[0];
}

/** A wheel answer's `data` (`{return, success, ...}`). */
async function wheel(chunk: Record<string, unknown>): Promise<{ return: unknown; success: boolean }> {
  return ((await one({ client: 'wheel', ...chunk })) as { data: { return: unknown; success: boolean } }).data;
}

async function login(): Promise<string> {
  const res = await fetch(`${sim.url}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(sim.credentials),
  });
  return ((await res.json()) as { return: Array<{ token: string }> }).return[0]?.token ?? '';
}

const accepted = (): string[] => minionIds(sim, 'accepted');

/** Runs `fn` with the simulator behaving as `version`. */
async function asVersion<T>(version: string, fn: () => Promise<T>): Promise<T> {
  sim.controls.settings.masterVersion = version;
  try {
    return await fn();
  } finally {
    sim.controls.settings.masterVersion = DEFAULT_MASTER_VERSION;
  }
}

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 6, seed: 3, returnDelayMs: 2, noReturnWaitMs: 10 });
  token = await login();
});

afterAll(async () => {
  await sim.close();
});

test('SyncClientMixin._low: wheel kwargs are top-level keys, or arg and kwarg together; a lone kwarg or arg is ignored', async () => {
  const id = accepted()[0] ?? '';
  for (const lone of [{ kwarg: { match: '*' } }, { arg: ['*'] }]) {
    const data = await wheel({ fun: 'key.finger', ...lone });
    expect(data.success).toBe(false);
    expect(data.return).toMatch(/^Exception occurred in wheel key\.finger: Traceback/);
    expect(data.return).toContain('SaltInvocationError: finger takes at least 1 argument (0 given)');
  }
  const top = await wheel({ fun: 'key.finger', match: '*' });
  expect(top.success).toBe(true);
  expect(Object.keys((top.return as { minions: object }).minions).sort()).toEqual(accepted());
  expect(await wheel({ fun: 'key.finger', arg: [], kwarg: { match: id } })).toMatchObject({
    success: true,
    return: { minions: { [id]: expect.any(String) } },
  });
  expect(await wheel({ fun: 'key.finger', arg: [id], kwarg: {} })).toMatchObject({
    success: true,
    return: { minions: { [id]: expect.any(String) } },
  });
  // Both given but no `match`: 2018.3's _low lets the TypeError through; 3006's returns it as text with success true.
  const typeError = await wheel({ fun: 'key.finger', arg: [], kwarg: {} });
  expect(typeError).toMatchObject({
    success: false,
    return: expect.stringContaining("TypeError: finger() missing 1 required positional argument: 'match'"),
  });
  const newer = await asVersion('3006.9', () => wheel({ fun: 'key.finger', arg: [], kwarg: {} }));
  expect(newer).toMatchObject({
    success: true,
    return: expect.stringMatching(
      /^\nPassed invalid arguments: finger\(\) missing 1 required positional argument: 'match'/,
    ),
  });
});

test('RunnerClient._reformat_low: a top-level key or user is a credential and never reaches the runner; kwarg, arg and other keys do', async () => {
  const swallowed = await one({ client: 'runner', fun: 'config.get', key: 'nodegroups' });
  expect(swallowed).toMatch(/^Exception occurred in runner config\.get: /);
  expect(swallowed).toContain("TypeError: get() missing 1 required positional argument: 'key'");
  for (const chunk of [
    { kwarg: { key: 'nodegroups' } },
    { arg: ['nodegroups'] },
    { arg: ['key=nodegroups'] },
    { arg: ['nodegroups'], key: 'id' },
  ]) {
    expect(await one({ client: 'runner', fun: 'config.get', ...chunk })).toEqual(sim.fleet.nodegroups);
  }
  // salt/runners/test.py `arg(*args, **kwargs)` shows what reached the runner.
  const seen = await one({
    client: 'runner',
    fun: 'test.arg',
    arg: ['a', 'x=1'],
    kwarg: { k: 2 },
    extra: 3,
    key: 'K',
    user: 'U',
    timeout: 30,
  });
  expect(seen).toEqual({ args: ['a'], kwargs: { x: '1', k: 2, extra: 3 } });
});

test('NetapiClient.local -> LocalClient.cmd: a local call without tgt is a TypeError, the hypermedia_handler JSON 500', async () => {
  for (const client of ['local', 'local_async', 'local_batch']) {
    const res = await post({ client, fun: 'test.ping' });
    expect([res.status, res.type, res.json]).toEqual([
      500,
      'application/json',
      { status: 500, return: 'An unexpected error occurred' },
    ]);
  }
  const noFun = await post({ client: 'runner' });
  expect([noFun.status, noFun.type]).toEqual([400, 'text/html;charset=utf-8']);
});

test('jobs.list_job (_format_jid_instance): an unknown jid still has StartTime = jid_to_time(jid); a non-jid has ""', async () => {
  const unknown = await one({
    client: 'runner',
    fun: 'jobs.list_job',
    kwarg: { jid: '20240101120000123456' },
  });
  expect(unknown).toEqual({
    jid: '20240101120000123456',
    Error: 'Cannot contact returner or no job with this jid',
    StartTime: '2024, Jan 01 12:00:00.123456',
    Result: {},
  });
  const notJid = await one({ client: 'runner', fun: 'jobs.list_job', kwarg: { jid: '2024010112000012345' } });
  expect(notJid).toMatchObject({ StartTime: '' });
});

test('LocalClient.get_cli_event_returns: a targeted id that never returned has out/ret (and retcode from 3006), never a jid', async () => {
  const id = accepted()[0] ?? '';
  const chunk = {
    client: 'local',
    tgt: [id, 'ghost.example.com'],
    tgt_type: 'list',
    fun: 'test.ping',
    full_return: true,
  };
  const old = (await one(chunk)) as Record<string, unknown>;
  expect(old['ghost.example.com']).toEqual({ out: 'no_return', ret: 'Minion did not return. [No response]' });
  const newer = (await asVersion('3006.9', () => one(chunk))) as Record<string, Record<string, unknown>>;
  expect(newer['ghost.example.com']).toEqual({
    out: 'no_return',
    retcode: 1,
    ret: expect.stringMatching(/^Minion did not return\. \[No response\]\nThe minions may not/),
  });
  const plain = (await one({ ...chunk, full_return: false })) as Record<string, unknown>;
  expect(plain['ghost.example.com']).toBe('Minion did not return. [No response]');
});

test("salt.utils.jid.gen_jid: 2018.3 jids are the master's local time (going back when DST ends); 3000 writes UTC", async () => {
  const ny = await startSaltSim({ hosts: 2, seed: 4, masterTz: 'America/New_York' });
  try {
    const nyToken = await (async () => {
      const res = await fetch(`${ny.url}/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(ny.credentials),
      });
      return ((await res.json()) as { return: Array<{ token: string }> }).return[0]?.token ?? '';
    })();
    const jidAt = async (utc: string): Promise<string> => {
      ny.controls.settings.clockOffsetMs = Date.parse(utc) - Date.now();
      const res = await fetch(`${ny.url}/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Auth-Token': nyToken },
        body: JSON.stringify({ client: 'local_async', tgt: '*', fun: 'test.ping' }),
      });
      return ((await res.json()) as { return: Array<{ jid: string }> }).return[0]?.jid ?? '';
    };
    // 2026-11-01 01:59:30 EDT, then 01:05:00 EST half an hour later: the wall clock went back.
    const before = await jidAt('2026-11-01T05:59:30Z');
    const after = await jidAt('2026-11-01T06:05:00Z');
    expect(before.slice(0, 14)).toBe('20261101015930');
    expect(after.slice(0, 14)).toBe('20261101010500');
    expect(after < before).toBe(true);
    ny.controls.settings.masterVersion = '3000';
    expect((await jidAt('2026-11-01T06:05:00Z')).slice(0, 14)).toBe('20261101060500');
  } finally {
    await ny.close();
  }
});

test('LocalClient.run_job (2018.3.0-2018.3.2) wraps the refusal of a local call into SaltClientError, a JSON 500; 2018.3.3 re-raises it, 401', async () => {
  const chunk = { client: 'local', tgt: '*', fun: 'test.ping' };
  sim.controls.revokeSaltTokens();
  try {
    const res = await post(chunk);
    expect([res.status, res.json]).toEqual([500, { status: 500, return: 'An unexpected error occurred' }]);
    expect((await asVersion('2018.3.3', () => post(chunk))).status).toBe(401);
    // Runner and wheel refusals are TokenAuthenticationError: 401 in every version.
    expect((await post({ client: 'wheel', fun: 'key.finger_master' })).status).toBe(401);
    expect((await post({ client: 'runner', fun: 'manage.present' })).status).toBe(401);
  } finally {
    token = await login();
  }
  expect((await post(chunk)).status).toBe(200);
});
