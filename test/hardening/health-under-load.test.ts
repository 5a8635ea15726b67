/**
 * `/api/health` keeps answering while sixteen viewers, four to a token, send back to back the
 * worst reads the API accepts: in-memory sorts and patterns just inside the work budget
 * (docs/limits.md), 1,000-item pages, 200 dotted paths projected over them. Every attacker request
 * is answered: 2xx, or 400 / 429 in the error shape (a 429 with `Retry-After`: a token's large
 * reads past its budget). How fast is the bench's question (`pnpm bench`, the attack row); the
 * order of events under a streamed page is test/http/fair-reads.test.ts's.
 */
import type { Doc } from '../../engine/src';
import { etagOf } from '../../engine/src/ops/etag';
import { hostDoc, startTestServer, TOKENS, type TestServer } from '../helpers';

const HOSTS = 5_000;
/** Below the 50,000 rows SQLite may visit per statement: an unindexed filter is accepted and scans all. */
const ACTIONS = 20_000;
/** Health checks made while the viewers send (however slow the machine: the viewers wait for them). */
const CHECKS = 8;
/** Four viewer tokens, each sending from four clients at once. */
const VIEWERS = Array.from({ length: 4 }, (_, i) => `test-attack-viewer-${i}-0123456789`);

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    env: {
      API_TOKENS: [
        `admin=${TOKENS.admin}:admin`,
        ...VIEWERS.map((token, i) => `attacker${i}=${token}:viewer`),
      ].join(','),
    },
  });
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
const dotted = (top: string) =>
  Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`${top}.k${i}`, 1]));

/** The heaviest requests a viewer may send that the API still answers. */
const WORST = [
  // Every host decoded and sorted in memory (no index on a grain).
  `/api/hosts?sort=-grain.osfullname,grain.num_cpus&max_results=1000`,
  // The longest pattern, on every host id (RE2, pushed down to SQL).
  `/api/hosts?where=${q({ _id: { $regex: `${'[a-z0-9.-]*'.repeat(21)}=` } })}`,
  // A pattern on an open sub-document: every host decoded and matched in memory.
  `/api/hosts?where=${q({ 'grain.osfullname': { $regex: `${'.*'.repeat(40)}=` } })}&max_results=1000`,
  // An unindexed filter on actions: every row visited by SQLite (within its 50,000).
  `/api/actions?where=${q({ user: 'nobody', return: { $exists: true } })}&max_results=1000`,
  // 200 dotted paths (the most a projection takes) over 1,000 hosts and 1,000 actions.
  `/api/hosts?max_results=1000&projection=${q(dotted('grain'))}`,
  `/api/actions?max_results=1000&projection=${q(dotted('args'))}`,
  // Plain 1,000-item pages.
  `/api/hosts?max_results=1000`,
  `/api/actions?max_results=1000`,
];

interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly body: unknown;
}

/** 2xx, or 400 / 429 in the error shape naming its code (a 429 with Retry-After). */
function allowed(a: Answer): boolean {
  if (a.status >= 200 && a.status < 300) return true;
  if (a.status !== 400 && a.status !== 429) return false;
  if (a.status === 429 && !/^[1-9]\d*$/.test(a.retryAfter ?? '')) return false;
  const body = a.body as { _status?: unknown; _error?: { code?: unknown; message?: unknown } };
  return body._status === 'ERR' && body._error?.code === a.status && typeof body._error.message === 'string';
}

describe('/api/health under sixteen viewers sending the worst accepted reads', () => {
  test('every health check answers 200, and every attack is answered: 2xx, or 400 / 429 in the error shape', async () => {
    const answers: Answer[] = [];
    let probing = true;
    // The viewers keep sending until the prober is done: every check is made under attack.
    const viewer = async (token: string, first: number) => {
      for (let i = first; probing; i += 1) {
        const res = await s.request
          .get(WORST[i % WORST.length] ?? '')
          .set({ Authorization: `Bearer ${token}` });
        answers.push({ status: res.status, retryAfter: res.headers['retry-after'], body: res.body });
      }
    };
    const health: number[] = [];
    const prober = async () => {
      while (health.length < CHECKS || answers.length < WORST.length * 2) {
        health.push((await s.request.get('/api/health')).status);
        await new Promise((r) => setImmediate(r));
      }
      probing = false;
    };
    const viewers = VIEWERS.flatMap((token) => [0, 1, 2, 3].map((k) => viewer(token, k * 2)));
    await Promise.all([...viewers, prober()]);
    expect(health.filter((status) => status !== 200)).toEqual([]);
    expect(answers.filter((a) => !allowed(a))).toEqual([]);
    const statuses = new Map<number, number>();
    for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    process.stdout.write(
      `health under load: ${health.length} checks; attacks answered ${[...statuses].map(([st, n]) => `${n} x ${st}`).join(', ')}\n`,
    );
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
  });
});
