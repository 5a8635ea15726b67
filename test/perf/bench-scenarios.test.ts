/**
 * `pnpm bench`'s scenarios are runnable: on a tiny seeded store (60 hosts, 300 actions, the
 * default 24 host-list snapshots, and a small tree of the graph bench's groups), every load
 * scenario's request, every timed statistics request and every read of the attack row answers
 * 2xx, with the fixtures found the way the bench finds them; a short attack runs end to end with
 * the attack row's own tokens, prober and answer check. And the table's arithmetic: medians,
 * per-round ratios, verdicts, what the attack counts as an allowed answer, and the parsing of the
 * shared anchors' table. No timing is asserted (speed lives in the bench).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../packages/server/src/boot';
import { loadConfig } from '../../packages/server/src/config';
import { seedFleet } from '../../packages/server/src/seed';
import { parseAnchors } from '../../packages/server/bench/anchors';
import {
  allowedAnswer,
  ATTACK_ADMIN,
  attackEnv,
  attackReads,
  runAttack,
} from '../../packages/server/bench/attack';
import { withEngine } from '../../packages/server/bench/engine';
import { findFixtures } from '../../packages/server/bench/fixtures';
import { seedGroups } from '../../packages/server/bench/graph';
import { Results, type Sample } from '../../packages/server/bench/results';
import { SCENARIOS, type Fixtures } from '../../packages/server/bench/scenarios';
import { requests } from '../../packages/server/bench/statistics';
import { judge } from '../../packages/server/bench/table';

/** The attack row's admin token: the server takes the attack row's tokens (attackEnv). */
const TOKEN = ATTACK_ADMIN;
/** Viewers of the short attack. */
const ATTACKERS = 2;
const SECRET_KEY = 'bench-scenarios-secret-0123456789';

let dir: string;
let server: RunningServer;
let fixtures: Fixtures;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-bench-scenarios-'));
  const path = join(dir, 'fleet.db');
  await withEngine(path, SECRET_KEY, async (runtime) => {
    await seedFleet(runtime, { hosts: 60, actions: 300, seed: 1 });
    await seedGroups(runtime, { containers: 2, perContainer: 2, shared: 2, rules: 8 });
  });
  const env = { ...attackEnv(path, ATTACKERS), PORT: '0', HOST: '127.0.0.1', SECRET_KEY };
  server = await startServer(loadConfig(env), { cwd: dir });
  fixtures = await findFixtures(TOKEN, server.url, server.url);
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function send(method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, text: await res.text() };
}

test('the fixtures are a host with actions, another host and a three-level group', async () => {
  expect(fixtures.host).not.toBe(fixtures.patchHost);
  const actions = await send(
    'GET',
    `/api/actions?where=${encodeURIComponent(JSON.stringify({ host: fixtures.host }))}`,
  );
  expect(JSON.parse(actions.text)._meta.total).toBeGreaterThan(0);
  const group = JSON.parse((await send('GET', `/api/groups/${fixtures.group}`)).text);
  expect(group.name).toBe('region-0');
  const site = JSON.parse((await send('GET', `/api/groups/${group.subgroups[0]}`)).text);
  expect(site.subgroups.length).toBeGreaterThan(0);
});

test.each(SCENARIOS.map((def) => [def.id, def] as const))('%s answers 2xx', async (_id, def) => {
  const s = def.request(fixtures);
  const bodies = s.body === undefined ? [undefined] : typeof s.body === 'string' ? [s.body] : s.body;
  for (const body of bodies) {
    const answer = await send(s.method, s.path, body);
    expect({
      status: answer.status < 300 ? '2xx' : answer.status,
      text: answer.status < 300 ? '' : answer.text,
    }).toEqual({ status: '2xx', text: '' });
  }
});

test('every timed statistics request (S9) answers 200', async () => {
  for (const r of requests(3)) expect([r.name, (await send('GET', r.path)).status]).toEqual([r.name, 200]);
});

test("the table: medians, ratios of the same round, and the issue's verdicts", () => {
  const r = new Results();
  const at = (rps: number, p99: number): Sample => ({
    rps,
    p50: 1,
    p99,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    rss: 100,
  });
  [900, 1000, 1100].forEach((rps, i) => r.add('S1', 'S1', i + 1, at(rps, 8 + i)));
  [1000, 1000, 1000].forEach((rps, i) => r.add('S1:sqlite-ref', 'ref', i + 1, at(rps, 5)));
  // Per-round ratios 18, 10, 22: the median is 18, not the ratio of the medians (1000 / 50 = 20).
  [50, 100, 50].forEach((rps, i) => r.add('S1:feathers', 'feathers', i + 1, at(rps, 5)));
  expect([
    r.median('S1', 'rps'),
    r.median('S1', 'p99'),
    r.ratio('S1', 'S1:sqlite-ref'),
    r.ratio('S1', 'S1:feathers'),
  ]).toEqual([1000, 9, 1, 18]);
  const s1 = judge(r, new Map()).get('S1') ?? [];
  expect(s1.map((v) => v.pass)).toEqual([true, true, true]);
  r.add('S4', 'S4', 1, at(100, 16));
  r.add('S6a', 'S6a', 1, at(0, Number.POSITIVE_INFINITY));
  const v = judge(r, new Map());
  expect([v.get('S4')?.[0]?.pass, v.get('S6a')?.[0]?.pass, v.get('S10')?.[0]?.pass]).toEqual([
    false,
    false,
    undefined,
  ]);
});

test('every read of the attack row answers 2xx', async () => {
  for (const path of attackReads()) {
    const res = await send('GET', path);
    expect([decodeURIComponent(path), res.status]).toEqual([decodeURIComponent(path), 200]);
  }
});

test('a short attack runs end to end: every health check and every attack answered, none outside the allowed', async () => {
  const api = {
    url: server.url,
    serverPid: process.pid,
    coldStartMs: 0,
    exited: () => undefined,
    stop: () => Promise.resolve(),
    output: () => '',
  };
  const f = await runAttack(api, { seconds: 1, viewers: ATTACKERS, cluster: false });
  expect({ failedChecks: f.failedChecks, bad: f.bad, failed: f.failed, firstBad: f.firstBad }).toEqual({
    failedChecks: 0,
    bad: 0,
    failed: 0,
    firstBad: undefined,
  });
  expect(f.checks).toBeGreaterThan(0);
  expect(f.statuses.get(200)).toBeGreaterThan(0);
  expect([f.p50, f.p99, f.worst, f.rssStart, f.rssEnd].every(Number.isFinite)).toBe(true);
});

test('what the attack counts as an allowed answer: 2xx, or 400 / 429 in the error shape (429 with Retry-After)', () => {
  const error = (code: number) => JSON.stringify({ _status: 'ERR', _error: { code, message: 'no' } });
  const retry = (value: string) => new Headers({ 'retry-after': value });
  const none = new Headers();
  expect([
    allowedAnswer(200, none, '{}'),
    allowedAnswer(204, none, ''),
    allowedAnswer(400, none, error(400)),
    allowedAnswer(429, retry('2'), error(429)),
  ]).toEqual([true, true, true, true]);
  expect([
    allowedAnswer(429, none, error(429)),
    allowedAnswer(429, retry('0'), error(429)),
    allowedAnswer(429, retry('soon'), error(429)),
    allowedAnswer(400, none, error(422)),
    allowedAnswer(400, none, '<html>Bad Request</html>'),
    allowedAnswer(404, none, error(404)),
    allowedAnswer(500, none, error(500)),
    allowedAnswer(503, retry('10'), error(503)),
  ]).toEqual([false, false, false, false, false, false, false, false]);
});

test("the attack row's verdicts: health p99, RSS back, every answer allowed", () => {
  const r = new Results();
  const sample = (p99: number, rssGrowth: number, non2xx: number): Sample => ({
    p50: 1,
    p99,
    non2xx,
    errors: 0,
    timeouts: 0,
    rss: 300,
    rssGrowth,
  });
  r.add('ATK1', 'ATK1', 1, sample(90, 20, 0));
  r.add('ATK2', 'ATK2', 1, sample(150, 20, 0));
  r.add('ATK2', 'ATK2', 2, sample(80, 60, 1));
  const v = judge(r, new Map());
  expect(v.get('ATK1')?.map((x) => x.pass)).toEqual([true, true, true]);
  // p99 is the median of the rounds (80 and 150: 80); RSS growth the largest; answers summed.
  expect(v.get('ATK2')?.map((x) => x.pass)).toEqual([true, false, false]);
});

test("the anchors' table as run.sh prints it", () => {
  const out =
    'server\treq/s(median)\tp50 ms\tp99 ms\tnon-2xx\tRSS MB\nraw\t22674\t0\t4\t0\t68\nours\t854.5\t9\t46\t2\t203\nours / sqlite-ref = 0.54';
  const figures = parseAnchors(out);
  expect([...figures.keys()]).toEqual(['raw', 'ours']);
  expect(figures.get('ours')).toEqual({ rps: 854.5, p50: 9, p99: 46, bad: 2, rss: 203 });
});
