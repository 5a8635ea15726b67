/**
 * Bulk POST as Eve answers it (`eve/methods/post.py` `post_internal`): all or
 * nothing, every document validated before anything is stored, and a failure answers `_items` with
 * one entry per submitted document, in order (`{"_status": "OK"}` or `{"_status": "ERR",
 * "_issues": {...}}`) plus `_error`. A one-element array is answered as a single document is. At
 * most MAX_BULK_DOCUMENTS documents (docs/limits.md): more is a 413 naming the limit.
 */
import { MAX_BULK_DOCUMENTS } from '../../../engine/src/http/create';
import { auth, expectEveError, insertHost, uniqueName, type TestServer } from '../../helpers';
import { startEveServer, storedNamed, widget } from './_widgets';

let t: TestServer;
beforeAll(async () => {
  t = await startEveServer();
});
afterAll(() => t.close());

const operator = auth('operator');

interface BulkError {
  _status: string;
  _error: { code: number; message: string };
  _items: { _status: string; _issues?: Record<string, unknown> }[];
}

async function storedOf(docs: readonly Record<string, unknown>[]): Promise<number> {
  let n = 0;
  for (const d of docs) n += await storedNamed(t, d.name);
  return n;
}

describe('a bulk with failures', () => {
  it('answers each document in order, OK or its own issues, and stores none', async () => {
    const docs = [
      widget(),
      widget({ level: 'high' }),
      widget(),
      widget({ kind: 'valve', spec: { volts: -1 } }),
    ];
    const res = await t.request.post('/api/eve_widgets').set(operator).send(docs);
    expect(res.status).toBe(422);
    const body = res.body as BulkError;
    expect(Object.keys(body).sort()).toEqual(['_error', '_items', '_status']);
    expect(body._status).toBe('ERR');
    expect(body._error).toEqual({
      code: 422,
      message: 'Insertion failure: 2 of 4 document(s) contain errors; nothing was stored',
    });
    expect(body._items).toEqual([
      { _status: 'OK' },
      { _status: 'ERR', _issues: { level: 'must be of integer type' } },
      { _status: 'OK' },
      { _status: 'ERR', _issues: { kind: 'unallowed value "valve"', spec: { volts: 'min value is 0' } } },
    ]);
    expect(await storedOf(docs)).toBe(0);
  });

  it('a document refused by a hook or by the reference check gets its own status too', async () => {
    const host = (await insertHost(t.store, `${uniqueName('bulk')}.fleet.test`))._id;
    const docs = [
      widget({ host }),
      widget({ spec: { vendor: 'nope' } }),
      widget({ host: 'no-such-host.fleet.test' }),
      widget({ host }),
    ];
    const body = (await t.request.post('/api/eve_widgets').set(operator).send(docs)).body as BulkError;
    expect(body._items).toEqual([
      { _status: 'OK' },
      { _status: 'ERR', _issues: { spec: { vendor: 'no such vendor' } } },
      { _status: 'ERR', _issues: { host: 'unknown hosts id(s): no-such-host.fleet.test' } },
      { _status: 'OK' },
    ]);
    expect(await storedOf(docs)).toBe(0);
  });

  it('every document failing: every status is ERR', async () => {
    const body = (
      await t.request
        .post('/api/eve_widgets')
        .set(operator)
        .send([{ level: 1 }, { name: 7 }])
    ).body as BulkError;
    expect(body._items).toEqual([
      { _status: 'ERR', _issues: { name: 'required field' } },
      { _status: 'ERR', _issues: { name: 'must be of string type' } },
    ]);
  });
});

describe('a bulk that succeeds', () => {
  it('answers {_status: OK, _items} with one write result per document, in order', async () => {
    const docs = [widget(), widget()];
    const res = await t.request.post('/api/eve_widgets').set(operator).send(docs);
    expect(res.status).toBe(201);
    const body = res.body as { _status: string; _items: { _id: string; _status: string }[] };
    expect(body._status).toBe('OK');
    expect(body._items.map((i) => i._status)).toEqual(['OK', 'OK']);
    expect(res.headers.location).toBe(`/api/eve_widgets/${body._items[0]?._id}`);
    expect(await storedOf(docs)).toBe(2);
  });
});

describe('a one-element array is a single document', () => {
  it('success: the plain write response, as POST of the object gives', async () => {
    const res = await t.request.post('/api/eve_widgets').set(operator).send([widget()]);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body as object).sort()).toEqual([
      '_created',
      '_etag',
      '_id',
      '_links',
      '_status',
      '_updated',
    ]);
    expect(res.headers.location).toBe(`/api/eve_widgets/${String((res.body as { _id: string })._id)}`);
  });

  it('failure: the plain 422 with _issues, no _items', async () => {
    const res = await t.request
      .post('/api/eve_widgets')
      .set(operator)
      .send([widget({ level: 'x' })]);
    const err = expectEveError(res, 422, { issues: ['level'] });
    expect(err._issues).toEqual({ level: 'must be of integer type' });
  });
});

describe('what a bulk may hold', () => {
  it(`more than ${MAX_BULK_DOCUMENTS} documents is a 413 naming the limit, and stores nothing`, async () => {
    const tag = uniqueName('cap').slice(-8);
    const docs = Array.from({ length: MAX_BULK_DOCUMENTS + 1 }, () => ({ name: tag }));
    const err = expectEveError(await t.request.post('/api/eve_widgets').set(operator).send(docs), 413);
    expect(err._error.message).toBe(
      `POST /eve_widgets: at most ${MAX_BULK_DOCUMENTS} documents per bulk insert, got ${MAX_BULK_DOCUMENTS + 1}`,
    );
    expect(await storedNamed(t, tag)).toBe(0);
  });

  it(`exactly ${MAX_BULK_DOCUMENTS} documents are created`, async () => {
    const tag = uniqueName('max').slice(-8);
    const res = await t.request
      .post('/api/eve_widgets')
      .set(operator)
      .send(Array.from({ length: MAX_BULK_DOCUMENTS }, () => ({ name: tag })));
    expect(res.status).toBe(201);
    expect((res.body as { _items: unknown[] })._items).toHaveLength(MAX_BULK_DOCUMENTS);
    expect(await storedNamed(t, tag)).toBe(MAX_BULK_DOCUMENTS);
  });

  it('an element that is not an object is a 400 naming it', async () => {
    const err = expectEveError(
      await t.request.post('/api/eve_widgets').set(operator).send([widget(), 'w']),
      400,
    );
    expect(err._error.message).toMatch(/element 1 is not an object/);
  });

  it('an empty array is a 400 (Eve: "Empty bulk insert")', async () => {
    const err = expectEveError(await t.request.post('/api/eve_widgets').set(operator).send([]), 400);
    expect(err._error.message).toBe('Empty bulk insert');
  });

  it('a JSON array to a resource whose documents need a file is a 400: files are uploaded one document at a time', async () => {
    const err = expectEveError(
      await t.request
        .post('/api/files')
        .set(operator)
        .send([{ name: 'a' }, { name: 'b', data: 'ffffffffffffffffffffffff' }]),
      400,
    );
    expect(err._error.message).toMatch(
      /no bulk insert; upload one document at a time as multipart\/form-data \(with data\)/,
    );
  });
});

describe('the local API says the same', () => {
  it('createMany of several rejects with every document’s issues; of one, with its own 422', async () => {
    const api = t.engine.runtime.resources.get('eve_widgets');
    const ctx = {
      principal: { name: 'test', role: 'admin' as const },
      now: new Date(),
      runtime: t.engine.runtime,
    };
    await expect(api.createMany([widget(), widget({ ratio: 3 })], ctx)).rejects.toMatchObject({
      status: 422,
      items: [null, { ratio: 'max value is 1' }],
    });
    await expect(api.createMany([widget({ ratio: 3 })], ctx)).rejects.toMatchObject({
      status: 422,
      issues: { ratio: 'max value is 1' },
    });
  });
});
