/**
 * Every body meets the same depth, key and size limits whatever its media type (JSON, a form, the
 * text parts of a multipart upload), before anything walks it: a dotted key counts one level per
 * segment, since validation nests it (`payload.a.a=1` is `{"payload": {"a": {"a": 1}}}`). Dotted
 * form keys 900 segments deep used to be stored, 1,000-5,000 deep a 500 (SQLite's JSON depth, then
 * a stack overflow); multipart names of 3,000-6,000 segments a 422 as an HTML page with a stack.
 * And the error handler itself never answers outside the error shape; an upload its client cuts
 * off is one calm line in the log (it was a level-50 "unhandled error" with a stack, every time).
 */
import net from 'node:net';
import { defineResource, f, Unprocessable } from '../../engine/src';
import { allResources } from '../../resources';
import { auth, expectEveError, startTestServer, TOKENS, type TestServer } from '../helpers';
import { multipartBody, rawError, rawPost, rawRequest, type RawPart } from './support';

/** A throwaway resource whose `prepare` throws a 422 whose issues cannot be rendered (a cycle). */
const unrenderable = defineResource({
  name: 'unrenderable_items',
  description: 'Throwaway resource of this test: every create fails with issues JSON cannot write.',
  fields: { note: f.string() },
  methods: { create: 'operator' },
  hooks: {
    prepare() {
      const err = new Unprocessable('unrenderable_items: refused', { note: 'refused' });
      const loop: Record<string, unknown> = {};
      loop.self = loop;
      Object.defineProperty(err, 'issues', { value: loop });
      throw err;
    },
  },
});

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ definitions: [...allResources, unrenderable], logLevel: 'info' });
});
afterAll(() => s.close());

/** `payload` followed by `segments` dotted `a`s: a key that nests `segments + 1` levels. */
const dotted = (segments: number) => `payload${'.a'.repeat(segments)}`;
const REFUSED = /^body: (nested deeper than 32 levels|a key is longer than 256 characters)/;

/** The lines the server logged at error level (50) or above. */
const errorLines = () =>
  s
    .logs()
    .split('\n')
    .filter((l) => /"level":(50|60)/.test(l));

/** Sends a multipart body to POST /api/files as raw bytes. */
async function upload(parts: readonly RawPart[]) {
  const { body, contentType } = multipartBody(parts);
  return rawRequest(s.url, rawPost('/api/files', { ...auth('operator'), 'Content-Type': contentType }, body));
}
const FILE: RawPart = { name: 'data', value: 'hello', filename: 'a.txt', contentType: 'text/plain' };

describe('depth: a dotted key counts one level per segment, in every media type', () => {
  test('a form key 32 levels deep in all (the body, then 31 objects) is stored, nested', async () => {
    const res = await s.request
      .post('/api/alerts')
      .set(auth('operator'))
      .type('form')
      .send(`type=depth-form-ok&${dotted(30)}=1`);
    expect(res.status).toBe(201);
    const [doc] = await s.store.find('alerts', { type: 'depth-form-ok' });
    let node: unknown = doc?.payload;
    for (let i = 0; i < 30; i++) node = (node as { a: unknown }).a;
    expect(node).toBe('1');
  });

  test.each([31, 100, 900, 1000, 3000, 5000].map((n) => n + 1))(
    'a form key of %i dotted segments below payload: 400 naming body, nothing stored, nothing logged as an error',
    async (segments) => {
      const before = errorLines().length;
      const res = await s.request
        .post('/api/alerts')
        .set(auth('operator'))
        .type('form')
        .send(`type=depth-form-${segments}&${dotted(segments)}=1`);
      expect(expectEveError(res, 400)._error.message).toMatch(REFUSED);
      expect(await s.store.count('alerts', { type: `depth-form-${segments}` })).toBe(0);
      expect(errorLines().length).toBe(before);
    },
  );

  test.each([32, 900, 5000])(
    'a JSON key of %i dotted segments below payload: the same 400',
    async (segments) => {
      const res = await s.request
        .post('/api/alerts')
        .set(auth('operator'))
        .send({ type: `depth-json-${segments}`, [dotted(segments)]: 1 });
      expect(expectEveError(res, 400)._error.message).toMatch(REFUSED);
      expect(await s.store.count('alerts', { type: `depth-json-${segments}` })).toBe(0);
    },
  );

  test('a JSON value of a form counts where it stands: kwarg holding 31 objects passes, 32 do not', async () => {
    const nested = (n: number) => `${'{"a":'.repeat(n - 1)}{"a":1}${'}'.repeat(n - 1)}`;
    const task = (n: number) =>
      s.request
        .post('/api/tasks')
        .set(auth('operator'))
        .type('form')
        .send(
          `name=depth-kwarg-${n}&fun=test.ping&start=2030-01-01 00:00&tgt=["h1"]&kwarg=${encodeURIComponent(nested(n))}`,
        );
    expect((await task(31)).status).toBe(201);
    expect(expectEveError(await task(32), 400)._error.message).toBe('body: nested deeper than 32 levels');
  });

  test.each([
    ['40 segments', 40, /^body: nested deeper than 32 levels/],
    ['3,000 segments', 3000, /^Upload refused: a part name is longer than 256 characters$/],
    ['6,000 segments', 6000, /^Upload refused: a part name is longer than 256 characters$/],
  ])(
    'a multipart field name of %s: 400 in the error shape, no stack, no file kept',
    async (_n, segments, message) => {
      const before = errorLines().length;
      const name = `depth-mp-${segments}`;
      const res = await upload([
        { name: 'name', value: name },
        { name: `name${'.a'.repeat(segments)}`, value: 'x' },
        FILE,
      ]);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(rawError(res).message).toMatch(message);
      expect(res.body).not.toMatch(/RangeError|\n\s+at /);
      expect(await s.store.count('files', { name })).toBe(0);
      expect(errorLines().length).toBe(before);
    },
  );
});

describe('keys: at most 1,000 per object and 256 characters each, in every media type', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);

  test('a JSON object of 1,001 keys, a form of 1,001 fields, a multipart body of 1,001 text parts', async () => {
    const json = await s.request
      .post('/api/alerts')
      .set(auth('operator'))
      .send({ type: 'keys', payload: Object.fromEntries(many(1001).map((k) => [k, 1])) });
    expect(expectEveError(json, 400)._error.message).toBe(
      'body: an object has 1001 keys, more than the 1000 allowed',
    );
    const form = await s.request
      .post('/api/alerts')
      .set(auth('operator'))
      .type('form')
      .send(['type=keys', ...many(1000).map((k) => `payload.${k}=1`)].join('&'));
    expect(expectEveError(form, 400)._error.message).toBe('body: the form has more than 1000 fields');
    const parts = await upload([...many(1001).map((k) => ({ name: k, value: '1' })), FILE]);
    expect(parts.status).toBe(400);
    expect(rawError(parts).message).toBe('Upload refused: the body has more than 1000 text parts');
  });

  test('1,000 keys pass the bound (then validation judges the fields)', async () => {
    const res = await s.request
      .post('/api/alerts')
      .set(auth('operator'))
      .send({ type: 'keys-1000', payload: Object.fromEntries(many(1000).map((k) => [k, 1])) });
    expect(res.status).toBe(201);
  });

  test('a key of 257 characters, in JSON, a form and a part name', async () => {
    const key = `payload.${'k'.repeat(249)}`;
    expect(key).toHaveLength(257);
    const json = await s.request
      .post('/api/alerts')
      .set(auth('operator'))
      .send({ type: 'long', payload: { [key]: 1 } });
    expect(expectEveError(json, 400)._error.message).toMatch(
      /^body: a key is longer than 256 characters \("payload\.k+\.\.\."\)$/,
    );
    const form = await s.request
      .post('/api/alerts')
      .set(auth('operator'))
      .type('form')
      .send(`type=long&${key}=1`);
    expect(expectEveError(form, 400)._error.message).toMatch(/^body: a key is longer than 256 characters/);
    const part = await upload([{ name: key, value: '1' }, FILE]);
    expect(rawError(part).message).toBe('Upload refused: a part name is longer than 256 characters');
  });
});

describe('size: 1 MB of text, whatever carries it', () => {
  const big = 'x'.repeat(400_000);

  test('a JSON body and a form over 1 MB: 413', async () => {
    const json = await s.request
      .post('/api/alerts')
      .set(auth('operator'))
      .send({ type: 'big', payload: { a: big, b: big, c: big } });
    expectEveError(json, 413);
    const form = await s.request
      .post('/api/alerts')
      .set(auth('operator'))
      .type('form')
      .send(`type=big&payload.a=${big}&payload.b=${big}&payload.c=${big}`);
    expectEveError(form, 413);
  });

  test('text parts of 1.2 MB in all (each under 1 MB): 413 naming the sum, no file kept', async () => {
    const res = await upload([
      { name: 'name', value: 'big-parts' },
      { name: 'a', value: big },
      { name: 'b', value: big },
      { name: 'c', value: big },
      FILE,
    ]);
    expect(res.status).toBe(413);
    expect(rawError(res).message).toBe('The text parts of the body are larger than 1048576 bytes in all');
    expect(await s.store.count('files', { name: 'big-parts' })).toBe(0);
  });
});

describe('the error handler', () => {
  test('answers an error it cannot render as the plain 500 of the error shape, logged in one line', async () => {
    const res = await s.request.post('/api/unrenderable_items').set(auth('operator')).send({ note: 'x' });
    expect(expectEveError(res, 500)._error.message).toBe('Internal server error');
    const line = errorLines().find((l) => l.includes('"error body could not be rendered"'));
    expect(line).toBeDefined();
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      method: 'POST',
      path: '/api/unrenderable_items',
      status: 422,
    });
    expect(line).not.toMatch(/\\n\s+at /);
  });
});

describe('an upload its client cuts off', () => {
  /** Sends the head and the start of an upload, then drops the connection. */
  function abortUpload(): Promise<void> {
    const { port } = new URL(s.url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /api/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.operator}\r\n` +
            'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n' +
            '--b\r\nContent-Disposition: form-data; name="data"; filename="a.bin"\r\n\r\nsome bytes',
          () => setImmediate(() => socket.resetAndDestroy()),
        );
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
  }
  const cutOffLines = () =>
    s
      .logs()
      .split('\n')
      .filter((l) => l.includes('"request cut off by the client"'));

  test('is logged once, at info, in one line with no stack; nothing is kept and the server answers on', async () => {
    const errorsBefore = errorLines().length;
    const before = cutOffLines().length;
    await abortUpload();
    const deadline = Date.now() + 5000;
    while (cutOffLines().length === before && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const lines = cutOffLines().slice(before);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 30, method: 'POST', path: '/api/files' });
    expect(lines[0]).not.toMatch(/stack|\\n\s+at /);
    expect(errorLines().length).toBe(errorsBefore);
    expect((await s.request.get('/api/files').set(auth('viewer'))).status).toBe(200);
  });
});
