/**
 * `/api/health` keeps answering while four viewers send, back to back, the worst queries the API
 * accepts (issue 8): each is just inside the work budget (docs/limits.md), so each answers 200,
 * and no one of them may hold the server for long. Before the budget, one of these froze every
 * other request for seconds (a sort of 300,000 actions: 3.2 s, four at once: 11 s).
 */
import type { Doc } from '../../engine/src';
import { etagOf } from '../../engine/src/ops/etag';
import { auth, hostDoc, startTestServer, type TestServer } from '../helpers';

const HOSTS = 5_000;
/** Below the 50,000 rows SQLite may visit per statement: an unindexed filter is accepted and scans all. */
const ACTIONS = 20_000;
/** How long the viewers keep sending at least. */
const ATTACK_MS = 2_000;
/** Health checks made while the viewers send (however slow the machine: the viewers wait for them). */
const CHECKS = 8;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  const at = new Date('2026-01-01T00:00:00Z');
  const meta = (doc: Record<string, unknown> & { _id: string }): Doc => {
    const out: Doc = { ...doc, _created: at, _updated: at };
    out._etag = etagOf(out);
    return out;
  };
  const hosts = Array.from({ length: HOSTS }, (_, i) =>
    meta(
      hostDoc(`load-${String(i).padStart(5, '0')}.fleet.test`, {
        grain: { osfullname: `Debian GNU/Linux ${i % 97}`, num_cpus: i % 64 },
      }),
    ),
  );
  await s.store.insert('hosts', hosts);
  const actions = Array.from({ length: ACTIONS }, (_, i) => {
    const host = `load-${String(i % HOSTS).padStart(5, '0')}.fleet.test`;
    const jid = `2026010100${String(i).padStart(10, '0')}`;
    return meta({
      _id: `${jid}${host}`,
      jid,
      host,
      action: 'cmd.run',
      state: 'finished',
      args: [{ cmd: `uptime ${i}`, __kwarg__: true }],
      return: `up ${i} days`,
      success: true,
      user: 'admin',
    });
  });
  await s.store.insert('actions', actions);
}, 60_000);
afterAll(() => s.close());

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** The heaviest requests a viewer may send that the budget still accepts. */
const WORST = [
  // Every host decoded and sorted in memory (no index on a grain).
  `/api/hosts?sort=-grain.osfullname,grain.num_cpus&max_results=1000`,
  // The longest pattern, on every host id (RE2, pushed down to SQL).
  `/api/hosts?where=${q({ _id: { $regex: `${'[a-z0-9.-]*'.repeat(21)}=` } })}`,
  // A pattern on an open sub-document: every host decoded and matched in memory.
  `/api/hosts?where=${q({ 'grain.osfullname': { $regex: `${'.*'.repeat(40)}=` } })}&max_results=1000`,
  // An unindexed filter on actions: every row visited by SQLite (within its 50,000).
  `/api/actions?where=${q({ user: 'nobody', return: { $exists: true } })}&max_results=1000`,
];

describe('/api/health under four viewers sending the worst accepted queries', () => {
  test('every health check answers 200 promptly, and every attack answers 200', async () => {
    const until = Date.now() + ATTACK_MS;
    const statuses: number[] = [];
    let probing = true;
    // The viewers keep sending until the prober is done: every check is made under attack.
    const viewer = async (path: string) => {
      while (probing) statuses.push((await s.request.get(path).set(auth('viewer'))).status);
    };
    const healthMs: number[] = [];
    const prober = async () => {
      while (healthMs.length < CHECKS || Date.now() < until) {
        const started = performance.now();
        const res = await s.request.get('/api/health');
        healthMs.push(performance.now() - started);
        expect(res.status).toBe(200);
        await new Promise((r) => setTimeout(r, 20));
      }
      probing = false;
    };
    await Promise.all([...WORST.map(viewer), prober()]);
    expect(statuses.length).toBeGreaterThanOrEqual(WORST.length);
    expect(statuses.filter((st) => st !== 200)).toEqual([]);
    healthMs.sort((a, b) => a - b);
    const p50 = healthMs[Math.floor(healthMs.length / 2)] ?? 0;
    const worst = healthMs[healthMs.length - 1] ?? 0;
    process.stdout.write(
      `health under load: ${healthMs.length} checks, median ${p50.toFixed(0)} ms, worst ${worst.toFixed(0)} ms; ${statuses.length} attacks\n`,
    );
    expect(healthMs.length).toBeGreaterThanOrEqual(CHECKS);
    // Generous against a loaded CI machine (other test files run beside this one): the budget of
    // any request is about 1 s (docs/limits.md); before it, one such query held the loop 3-11 s.
    expect(worst).toBeLessThan(2000);
  });
});
