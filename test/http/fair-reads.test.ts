/**
 * Large reads over HTTP: a page too long for one slice of the loop is streamed as it is rendered,
 * the same text as when it is sent whole, and other requests (`/api/health`) are answered before it
 * ends; a token's large reads past its budget wait, then past its queue answer 429 in the error
 * shape with `Retry-After`, while another token's read goes on. By the order of events and by
 * counting, never by times (a test resource's `afterRead` holds a read in flight on purpose).
 */
import http from 'node:http';
import type { Doc } from '../../engine/src';
import { defineResource, f } from '../../engine/src';
import { setSliceMs } from '../../engine/src/fair/turns';
import { etagOf } from '../../engine/src/ops/etag';
import { allResources } from '../../resources';
import { auth, expectEveError, hostDoc, startTestServer, TOKENS, type TestServer } from '../helpers';

/** Reads of `held` wait in `afterRead` until the test lets them go (`?hold=1`). */
let release: () => void = () => undefined;
let held = new Promise<void>((resolve) => (release = resolve));
const holds: string[] = [];

const shelves = defineResource({
  name: 'shelves',
  description: 'Throwaway resource of this test: its reads can be held in flight.',
  fields: { label: f.string({ required: true }) },
  methods: { list: 'viewer', get: 'viewer', create: 'admin' },
  hooks: {
    async afterRead({ params }) {
      if (params.hold !== '1') return;
      holds.push(params.n ?? '');
      await held;
    },
  },
});

const OTHER_VIEWER = 'test-second-viewer-token-0123456789';
const HOSTS = 400;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    definitions: [...allResources, shelves],
    env: {
      API_TOKENS: `admin=${TOKENS.admin}:admin,viewer=${TOKENS.viewer}:viewer,second=${OTHER_VIEWER}:viewer`,
    },
  });
  const at = new Date('2026-01-01T00:00:00Z');
  const meta = (doc: Record<string, unknown> & { _id: string }): Doc => {
    const out: Doc = { ...doc, _created: at, _updated: at };
    out._etag = etagOf(out);
    return out;
  };
  await s.store.insert(
    'hosts',
    Array.from({ length: HOSTS }, (_, i) => meta(hostDoc(`fair-${String(i).padStart(4, '0')}.fleet.test`))),
  );
  await s.store.insert(
    'shelves',
    Array.from({ length: 3 }, (_, i) => meta({ _id: `shelf-${i}`, label: `shelf ${i}` })),
  );
});
afterAll(() => s.close());

/** A raw GET: resolves the status, headers and text, and calls `onFirstChunk` at the first body bytes. */
function rawGet(
  path: string,
  onFirstChunk: () => void = () => undefined,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${s.url}${path}`, { headers: auth('viewer') }, (res) => {
      const chunks: Buffer[] = [];
      res.once('data', onFirstChunk);
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

describe('a page longer than a slice', () => {
  const PAGE = `/api/hosts?max_results=${HOSTS}&projection=${encodeURIComponent('{"grain":1,"status":1}')}`;

  test('is streamed as it is rendered, the same text as the page sent whole', async () => {
    const before = setSliceMs(60_000);
    let whole: Awaited<ReturnType<typeof rawGet>>;
    try {
      whole = await rawGet(PAGE);
    } finally {
      setSliceMs(0);
    }
    try {
      const streamed = await rawGet(PAGE);
      expect(whole.headers['content-length']).toBe(String(Buffer.byteLength(whole.text)));
      expect(streamed.headers['transfer-encoding']).toBe('chunked');
      expect(streamed.headers['content-length']).toBeUndefined();
      expect(streamed.headers['x-total-count']).toBe(whole.headers['x-total-count']);
      expect(streamed.text).toBe(whole.text);
      const page = JSON.parse(streamed.text) as { _items: unknown[]; _meta: { total: number } };
      expect(page._items).toHaveLength(HOSTS);
      expect(page._meta.total).toBeGreaterThanOrEqual(HOSTS);
    } finally {
      setSliceMs(before);
    }
  });

  test('lets /api/health answer before it ends', async () => {
    const before = setSliceMs(0);
    try {
      const events: string[] = [];
      let health: Promise<void> | undefined;
      const page = rawGet(PAGE, () => {
        events.push('page started');
        health = s.request.get('/api/health').then((res) => void events.push(`health ${res.status}`));
      }).then((res) => void events.push(`page ${res.status}`));
      await page;
      await health;
      expect(events).toEqual(['page started', 'health 200', 'page 200']);
    } finally {
      setSliceMs(before);
    }
  });

  test('a HEAD of it answers the headers of the page, and no body', async () => {
    const res = await s.request.head(PAGE).set(auth('viewer'));
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBeDefined();
    expect(res.text ?? '').toBe('');
  });
});

describe("a token's large reads", () => {
  /** Sends (supertest sends once `then` is called) a held read of 1,000 items, numbered `n`. */
  const read = (n: number, token: string = TOKENS.viewer) =>
    s.request
      .get(`/api/shelves?max_results=1000&hold=1&n=${n}`)
      .set({ Authorization: `Bearer ${token}` })
      .then((res) => ({ n, res }));

  test('wait past its budget, answer 429 with Retry-After past its queue, while another token reads on', async () => {
    const first = read(1);
    await waitFor(() => holds.length === 1);
    // 1,000 items are a token's whole budget: of three more, two wait and the last one in is refused.
    const more = [read(2), read(3), read(4)];
    const refused = await Promise.race(more);
    expectEveError(refused.res, 429);
    expect(refused.res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(refused.res.body._error.message).toMatch(/^max_results: too many large reads by token "viewer"/);
    // Another token's large read is admitted meanwhile (the process holds two at once).
    const other = read(5, OTHER_VIEWER);
    await waitFor(() => holds.length === 2);
    expect(holds).toEqual(['1', '5']);
    release();
    held = Promise.resolve();
    const waited = more.filter((_, i) => i + 2 !== refused.n);
    const answers = await Promise.all([first, ...waited, other]);
    expect(answers.map((a) => a.res.status)).toEqual([200, 200, 200, 200]);
    const answered = ['1', '2', '3', '4', '5'].filter((n) => n !== String(refused.n));
    expect([...holds].sort()).toEqual(answered);
    // The token's budget is whole again; a small page was never held.
    expect((await s.request.get('/api/shelves').set(auth('viewer'))).status).toBe(200);
    expect((await read(6)).res.status).toBe(200);
  });
});

/** Waits until `ok()` holds, one turn of the loop at a time (each turn lets the server work). */
async function waitFor(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((resolve) => setImmediate(resolve));
}
