/**
 * docs/salt-calls.md is the list of every lowstate the service sends. This test drives every
 * feature that talks to the master (sync, executions of each client on a host and a group,
 * monitoring, patches, the graph's outward-address probe, the event stream's watchdog, the
 * 2018.3.0-2 session probe) against the
 * strict simulator over real HTTP, records every chunk the simulator received, and checks that
 * each matches a row of the table, that every row was sent, and that none breaks the master's
 * argument rules (SyncClientMixin._low for wheel, RunnerClient._reformat_low for runner).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auth, uniqueName } from '../helpers';
import { eventually, startMasterEnv, syncNow, type MasterEnv } from './master-env';

type Obj = Record<string, unknown>;

let env: MasterEnv;
let rows: Array<{ feature: string; pattern: Obj }>;

/** The lowstate column of both tables: `{...}` JSON between backticks in the last cell. */
function documentedLowstates(): Array<{ feature: string; pattern: Obj }> {
  const text = readFileSync(join(__dirname, '../../docs/salt-calls.md'), 'utf8');
  const found: Array<{ feature: string; pattern: Obj }> = [];
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const last = cells[cells.length - 2] ?? '';
    const json = /^`(\{.*\})`$/.exec(last)?.[1];
    if (json !== undefined && json.includes('"client"'))
      found.push({ feature: cells[1] ?? '', pattern: JSON.parse(json) as Obj });
  }
  return found;
}

const isPlaceholder = (v: unknown): boolean => typeof v === 'string' && v.startsWith('<');

/** Whether a value matches a documented one: placeholders match anything, objects recursively. */
function matches(value: unknown, pattern: unknown): boolean {
  if (isPlaceholder(pattern)) return true;
  if (Array.isArray(pattern))
    return (
      Array.isArray(value) &&
      (pattern.some(isPlaceholder) || JSON.stringify(value) === JSON.stringify(pattern))
    );
  if (pattern !== null && typeof pattern === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const v = value as Obj;
    const keys = Object.keys(pattern);
    const allowed = new Set(keys.map((k) => k.replace(/\?$/, '')));
    return (
      Object.keys(v).every((k) => allowed.has(k)) &&
      keys.every((k) =>
        k.endsWith('?')
          ? !(k.slice(0, -1) in v) || matches(v[k.slice(0, -1)], (pattern as Obj)[k])
          : k in v && matches(v[k], (pattern as Obj)[k]),
      )
    );
  }
  return JSON.stringify(value) === JSON.stringify(pattern);
}

async function exec(target: string, body: Obj): Promise<void> {
  const res = await env.api.request.post(target).set(auth('operator')).send(body);
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  rows = documentedLowstates();
  env = await startMasterEnv({ knobs: { SALT_EVENTS_IDLE_S: '0.2', ALL_STATUS_INTERVAL_S: '3600' } });
});

afterAll(async () => {
  await env.close();
});

test('docs/salt-calls.md lists lowstates for sync, executions, monitoring, patches and the probes', () => {
  expect(rows.length).toBeGreaterThanOrEqual(17);
  for (const { pattern } of rows)
    expect(['local', 'local_async', 'local_batch', 'runner', 'wheel']).toContain(pattern['client']);
});

test("every lowstate the service sends is in the table, every row is sent, and none breaks the master's argument rules", async () => {
  const [a, b, down] = [env.up[0] ?? '', env.up[1] ?? '', env.down[0] ?? ''];
  const group = (
    await env.api.request
      .post('/api/groups')
      .set(auth('admin'))
      .send({ name: uniqueName('calls'), hosts: [a, b, down] })
  ).body as { _id: string };
  for (const exec_client of ['local', 'local_async', 'local_batch']) {
    const extra = exec_client === 'local_batch' ? { batch: '2' } : {};
    await exec(`/api/hosts/${a}`, { exec_client, fun: 'cmd.run', kwarg: { cmd: 'uptime' }, ...extra });
    await exec(`/api/groups/${group._id}`, { exec_client, fun: 'test.ping', ...extra });
  }
  await exec(`/api/hosts/${a}/all_status`, {});
  const probe = (
    await env.api.request
      .post('/api/graph')
      .set(auth('admin'))
      .send({ action: 'request_ips', ip_resolver: 'http://ip.fleet.example.com/' })
  ).body as { _id: string };
  await eventually(
    async () =>
      (
        (await env.api.request.get(`/api/graph/jobs/${probe._id}`).set(auth('viewer'))).body as {
          state: string;
        }
      ).state === 'running'
        ? undefined
        : true,
    20_000,
    'the request_ips job',
  );
  expect((await env.api.request.post('/api/updates').set(auth('operator'))).status).toBe(200);
  // The watchdog's echo (SALT_EVENTS_IDLE_S is 0.2 s here), then the session probe of 2018.3.0-2.
  await eventually(
    async () => ((env.sim.controls.stats.byFun['wheel:key.finger_master'] ?? 0) > 0 ? true : undefined),
    10_000,
    'the watchdog echo',
  );
  env.sim.controls.revokeSaltTokens();
  await exec(`/api/hosts/${b}`, { exec_client: 'local', fun: 'test.ping' });
  await syncNow(env.api);

  const sent = env.sim.controls.stats.lowstates;
  const unlisted = sent.filter((chunk) => !rows.some((r) => matches(chunk, r.pattern)));
  expect(unlisted).toEqual([]);
  const unsent = rows.filter((r) => !sent.some((chunk) => matches(chunk, r.pattern))).map((r) => r.feature);
  expect(unsent).toEqual([]);
  for (const chunk of sent) {
    if (chunk['client'] === 'wheel') expect('kwarg' in chunk && !('arg' in chunk)).toBe(false);
    if (chunk['client'] === 'runner') expect(['key', 'user'].filter((k) => k in chunk)).toEqual([]);
    if (String(chunk['client']).startsWith('local')) expect(chunk).toHaveProperty('tgt');
  }
});
