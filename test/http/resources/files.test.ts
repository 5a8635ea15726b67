/**
 * files through HTTP: a multipart upload (`name` + `data`) read back as `/api/media/<id>`, the
 * media endpoint streaming the exact bytes with their content type, deletion of both, and the
 * upload size limit (413, nothing stored).
 */
import { randomBytes } from 'node:crypto';
import {
  auth,
  expectEnvelope,
  expectEveError,
  startTestServer,
  uniqueName,
  type TestServer,
} from '../../helpers';
import { mediaRows, q } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function upload(
  server: TestServer,
  bytes: Buffer,
  options: { name?: string; filename?: string; contentType?: string } = {},
) {
  const req = server.request.post('/api/files').set(auth('operator'));
  if (options.name !== undefined) void req.field('name', options.name);
  return req.attach('data', bytes, {
    filename: options.filename ?? 'blob.bin',
    contentType: options.contentType ?? 'application/octet-stream',
  });
}

async function readMedia(path: string) {
  // responseType: the body as raw bytes (a Buffer), whatever the content type.
  return t.request.get(path).set(auth('viewer')).responseType('blob');
}

describe('POST /api/files (multipart)', () => {
  it('stores name and data; data reads back as /api/media/<id>, which streams the exact bytes (> 1 MiB) with their content type', async () => {
    const bytes = randomBytes(1024 * 1024 + 12345);
    const name = `${uniqueName('fw')}.img`;
    const res = await upload(t, bytes, {
      name,
      filename: 'ignored.bin',
      contentType: 'application/x-raw-disk-image',
    });
    expect(res.status).toBe(201);
    const id = (res.body as { _id: string })._id;
    expect(res.body).toMatchObject({
      _status: 'OK',
      _links: { self: { title: 'File', href: `files/${id}` } },
    });

    const item = await t.request.get(`/api/files/${id}`).set(auth('viewer'));
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({ _id: id, name });
    const data = (item.body as { data: string }).data;
    expect(data).toMatch(/^\/api\/media\/[0-9a-f]{24}\?expires=\d+&signature=[\w-]{43}$/);

    const media = await readMedia(data);
    expect(media.status).toBe(200);
    expect(media.headers['content-type']).toBe('application/x-raw-disk-image');
    expect(media.headers['content-length']).toBe(String(bytes.length));
    expect(Buffer.compare(media.body as Buffer, bytes)).toBe(0);
  });

  it('lists the file with data as a media path', async () => {
    const name = uniqueName('list');
    await upload(t, Buffer.from('hello\n'), { name, contentType: 'text/plain' });
    const page = expectEnvelope(await t.request.get(`/api/files?where=${q({ name })}`).set(auth('viewer')), {
      page: 1,
      maxResults: 25,
      total: 1,
    });
    const data = String(page._items[0]?.data);
    expect(data).toMatch(/^\/api\/media\//);
    const media = await readMedia(data);
    expect(media.headers['content-type']).toMatch(/^text\/plain/);
    expect((media.body as Buffer).toString('utf8')).toBe('hello\n');
  });

  it('takes the name from the uploaded file name when no name is given', async () => {
    const filename = `${uniqueName('report')}.csv`;
    const res = await upload(t, Buffer.from('a,b\n1,2\n'), { filename, contentType: 'text/csv' });
    expect(res.status).toBe(201);
    const item = await t.request.get(`/api/files/${(res.body as { _id: string })._id}`).set(auth('viewer'));
    expect(item.body).toMatchObject({ name: filename });
  });

  it('needs the operator role and stores nothing for a viewer', async () => {
    const name = uniqueName('denied');
    const res = await t.request
      .post('/api/files')
      .set(auth('viewer'))
      .field('name', name)
      .attach('data', Buffer.from('x'), 'x.bin');
    expectEveError(res, 403);
    expect(await t.store.count('files', { name })).toBe(0);
  });

  it('refuses data given as a JSON string (422): a file cannot point at the bytes of another', async () => {
    const owner = await upload(t, Buffer.from('owned bytes'), { name: uniqueName('owner') });
    const ownerId = (owner.body as { _id: string })._id;
    const mediaPath = (
      (await t.request.get(`/api/files/${ownerId}`).set(auth('viewer'))).body as { data: string }
    ).data;
    const name = uniqueName('borrower');
    const res = await t.request
      .post('/api/files')
      .set(auth('operator'))
      .send({ name, data: mediaPath.split('/').pop() });
    expectEveError(res, 422, { issues: ['data'] });
    expect(await t.store.count('files', { name })).toBe(0);
    expect((await readMedia(mediaPath)).status).toBe(200);
  });

  it('refuses a body that is neither JSON nor multipart with 415', async () => {
    const res = await t.request
      .post('/api/files')
      .set(auth('operator'))
      .set('Content-Type', 'text/plain')
      .send('data');
    expectEveError(res, 415);
  });
});

describe('GET /api/media/<id>', () => {
  it('answers 404 in the error shape for an unknown id, and 401 without a token', async () => {
    expectEveError(await t.request.get('/api/media/ffffffffffffffffffffffff').set(auth('viewer')), 404);
    const res = await upload(t, Buffer.from('secret bytes'), { name: uniqueName('f') });
    const item = await t.request.get(`/api/files/${(res.body as { _id: string })._id}`).set(auth('viewer'));
    const data = (item.body as { data: string }).data;
    expectEveError(await t.request.get(data.slice(0, data.indexOf('?'))), 401);
  });
});

describe('DELETE /api/files/{id}', () => {
  it('removes the item and its bytes (admin only)', async () => {
    const res = await upload(t, randomBytes(4096), { name: uniqueName('gone') });
    const id = (res.body as { _id: string })._id;
    const data = ((await t.request.get(`/api/files/${id}`).set(auth('viewer'))).body as { data: string })
      .data;
    expectEveError(await t.request.delete(`/api/files/${id}`).set(auth('operator')), 403);
    expect((await t.request.delete(`/api/files/${id}`).set(auth('admin'))).status).toBe(204);
    expectEveError(await t.request.get(`/api/files/${id}`).set(auth('viewer')), 404);
    expectEveError(await t.request.get(data).set(auth('viewer')), 404);
  });
});

describe('upload size limit (MAX_UPLOAD_BYTES)', () => {
  const LIMIT = 64 * 1024;
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ env: { MAX_UPLOAD_BYTES: String(LIMIT) } });
  });
  afterAll(() => small.close());

  it.each([
    ['one byte over', LIMIT + 1],
    ['far over', LIMIT * 64],
  ])('refuses a file %s the limit with 413 and stores nothing', async (_case, size) => {
    const res = await upload(small, randomBytes(size), { name: 'too-big.bin' });
    expectEveError(res, 413);
    expect((res.body as { _error: { message: string } })._error.message).toContain(String(LIMIT));
    expect(await small.store.count('files', {})).toBe(0);
    expect(mediaRows(small.dbPath)).toEqual({ files: 0, chunks: 0 });
  });

  it('accepts a file of exactly the limit', async () => {
    const bytes = randomBytes(LIMIT);
    const res = await upload(small, bytes, { name: 'just-fits.bin' });
    expect(res.status).toBe(201);
    const item = await small.request
      .get(`/api/files/${(res.body as { _id: string })._id}`)
      .set(auth('viewer'));
    const media = await small.request
      .get((item.body as { data: string }).data)
      .set(auth('viewer'))
      .responseType('blob');
    expect(Buffer.compare(media.body as Buffer, bytes)).toBe(0);
  });
});
