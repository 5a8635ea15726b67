/**
 * Media links a browser can open: a file's `data` reads back as `/api/media/<id>` signed with an
 * expiry (HMAC under a key derived from the server's secret key), which streams the bytes with
 * no Authorization header, within MEDIA_LINK_TTL_S. A changed id, expiry or signature, a link of
 * another key and an expired link are 401s saying how to get a fresh one; the bearer header keeps
 * working; an item carrying links is never answered 304 with links that may have expired.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_LINK_TTL_S, mediaLinks } from '../../engine/src/http/media-links';
import { mediaSigningKey } from '../../packages/server/src/app';
import { ConfigError, loadConfig } from '../../packages/server/src/config';
import { auth, expectEveError, startTestServer, uniqueName, type TestServer } from '../helpers';

const LINK = /^\/api\/media\/([0-9a-f]{24})\?expires=(\d+)&signature=([A-Za-z0-9_-]{43})$/;
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(64)]);

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { MEDIA_LINK_TTL_S: '120' } });
});
afterAll(() => t.close());

/** Uploads bytes as a file; resolves the item's id and `data` link as an item GET renders it. */
async function uploaded(
  bytes = PNG,
): Promise<{ id: string; data: string; media: string; expires: number; signature: string }> {
  const res = await t.request
    .post('/api/files')
    .set(auth('operator'))
    .field('name', uniqueName('img'))
    .attach('data', bytes, { filename: 'x.png', contentType: 'image/png' });
  expect(res.status).toBe(201);
  const id = String(res.body._id);
  const data = String((await t.request.get(`/api/files/${id}`).set(auth('viewer'))).body.data);
  const m = LINK.exec(data);
  if (!m) throw new Error(`data is not a signed media link: ${data}`);
  return { id, data, media: m[1] ?? '', expires: Number(m[2]), signature: m[3] ?? '' };
}

/** The link signer of this test server (its key file), as the API router makes it. */
const serverLinks = () =>
  mediaLinks({
    key: mediaSigningKey(readFileSync(join(t.dir, 'secret-key'), 'utf8').trim()),
    ttlSeconds: 120,
  });

describe('a file read back', () => {
  it('carries a signed link valid for MEDIA_LINK_TTL_S (up to a minute more), in items and lists alike', async () => {
    const before = Math.floor(Date.now() / 1000);
    const file = await uploaded();
    expect(file.expires).toBeGreaterThanOrEqual(before + 120);
    expect(file.expires).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 120 + 60);
    const list = await t.request
      .get(`/api/files?where=${encodeURIComponent(JSON.stringify({ _id: file.id }))}`)
      .set(auth('viewer'));
    expect(String(list.body._items[0].data)).toMatch(LINK);
  });

  it('opens without a token: the exact bytes, sandboxed, loadable from another origin', async () => {
    const file = await uploaded();
    const res = await t.request.get(file.data).responseType('blob');
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body as Buffer, PNG)).toBe(0);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toMatch(/^inline;/);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('is cacheable by the browser alone, and only until the link expires', async () => {
    const file = await uploaded();
    const res = await t.request.get(file.data).responseType('blob');
    expect(res.status).toBe(200);
    const m = /^private, max-age=(\d+)$/.exec(String(res.headers['cache-control']));
    expect(m).not.toBeNull();
    const maxAge = Number(m?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(file.expires - Math.floor(Date.now() / 1000) + 1);
    expect(maxAge).toBeGreaterThanOrEqual(120 - 5);
  });

  it('is an item GET answered in full even with its ETag: a 304 would keep links that expire', async () => {
    const file = await uploaded();
    const first = await t.request.get(`/api/files/${file.id}`).set(auth('viewer'));
    const again = await t.request
      .get(`/api/files/${file.id}`)
      .set(auth('viewer'))
      .set('If-None-Match', String(first.headers.etag));
    expect(again.status).toBe(200);
    expect(String(again.body.data)).toMatch(LINK);
  });
});

describe('a link that is not ours to honour', () => {
  it('is a 401 when its id, expiry or signature changed, or it is signed with another key', async () => {
    const a = await uploaded();
    const b = await uploaded(randomBytes(32));
    // The last character too: its two spare bits are part of the text that is compared.
    // The last character's two spare bits changed: the same bytes, spelled otherwise; only our spelling counts.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = `${a.signature.slice(0, -1)}${alphabet[alphabet.indexOf(a.signature.slice(-1)) ^ 1] ?? ''}`;
    const changed = `${a.signature.slice(0, 10)}${a.signature[10] === 'A' ? 'B' : 'A'}${a.signature.slice(11)}`;
    const other = mediaLinks({
      key: mediaSigningKey('another-servers-key-0123456789'),
      ttlSeconds: 120,
    }).href(a.media);
    for (const path of [
      `/api/media/${b.media}?expires=${a.expires}&signature=${a.signature}`,
      `/api/media/${a.media}?expires=${a.expires + 3600}&signature=${a.signature}`,
      `/api/media/${a.media}?expires=${a.expires}&signature=${changed}`,
      `/api/media/${a.media}?expires=${a.expires}&signature=${respelled}`,
      `/api/media/${a.media}?expires=${a.expires}&signature=short`,
      `/api/media/${a.media}?expires=${a.expires}`,
      `/api/media/${a.media}?signature=${a.signature}`,
      other,
    ]) {
      const err = expectEveError(await t.request.get(path), 401);
      expect(err._error.message).toBe('This media link is not valid: read its item again for a fresh link');
    }
  });

  it('is a 401 when its expiry is spelled otherwise (a leading zero), though the number is the one signed', async () => {
    const a = await uploaded();
    for (const spelled of [
      `0${a.expires}`,
      `00${a.expires}`,
      `+${a.expires}`,
      `${a.expires}.0`,
      ` ${a.expires}`,
    ]) {
      const path = `/api/media/${a.media}?expires=${encodeURIComponent(spelled)}&signature=${a.signature}`;
      const err = expectEveError(await t.request.get(path), 401);
      expect(err._error.message).toBe('This media link is not valid: read its item again for a fresh link');
    }
    expect((await t.request.get(a.data)).status).toBe(200);
  });

  it('is a 401 when it expires later than any link this service makes, even signed with its key', async () => {
    const file = await uploaded();
    const now = Math.floor(Date.now() / 1000);
    for (const expires of [now + MAX_LINK_TTL_S + 3600, now + 10 * 365 * 86400, 999_999_999_999]) {
      const err = expectEveError(await t.request.get(serverLinks().sign(file.media, expires)), 401);
      expect(err._error.message).toBe('This media link is not valid: read its item again for a fresh link');
    }
    // The longest TTL the setting allows still opens.
    expect((await t.request.get(serverLinks().sign(file.media, now + MAX_LINK_TTL_S))).status).toBe(200);
  });

  it('bounds expiries by the setting: MEDIA_LINK_TTL_S accepts the longest TTL and no more', () => {
    expect(loadConfig({ MEDIA_LINK_TTL_S: String(MAX_LINK_TTL_S) }).MEDIA_LINK_TTL_S).toBe(MAX_LINK_TTL_S);
    expect(() => loadConfig({ MEDIA_LINK_TTL_S: String(MAX_LINK_TTL_S + 1) })).toThrow(ConfigError);
  });

  it('is a 401 once expired, saying so', async () => {
    const file = await uploaded();
    const expired = serverLinks().sign(file.media, Math.floor(Date.now() / 1000) - 1);
    const err = expectEveError(await t.request.get(expired), 401);
    expect(err._error.message).toBe('This media link has expired: read its item again for a fresh link');
    // The same signer within its time opens the file: the refusal is the expiry, nothing else.
    expect(
      (await t.request.get(serverLinks().sign(file.media, Math.floor(Date.now() / 1000) + 60))).status,
    ).toBe(200);
  });
});

describe('the bearer header', () => {
  it('still opens /api/media/<id>, and decides alone when it is sent', async () => {
    const file = await uploaded();
    expect((await t.request.get(`/api/media/${file.media}`).set(auth('viewer'))).status).toBe(200);
    expectEveError(await t.request.get(`/api/media/${file.media}`), 401);
    expect(
      (
        await t.request
          .get(`/api/media/${file.media}?expires=1&signature=${file.signature}`)
          .set(auth('viewer'))
      ).status,
    ).toBe(200);
    expectEveError(await t.request.get(file.data).set('Authorization', 'Bearer not-a-token-0123456789'), 401);
  });
});
