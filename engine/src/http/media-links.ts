/**
 * Signed media links: `/api/media/<id>?expires=<unix seconds>&signature=<HMAC>` (absolute under the
 * server's public URL when it has one), a URL a browser
 * can open (`<img src>`, a download link) with no `Authorization` header. The shape is the one of
 * S3 presigned and GCS signed URLs: the signature covers the media id and the expiry, so a link
 * opens exactly one file until its expiry and cannot be stretched or pointed at another file.
 *
 * The key is the caller's (the server derives one from its secret key, apart from the key that
 * seals secrets); HMAC-SHA256 as RFC 2104, compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a media link carries besides its path. */
export const EXPIRES_PARAM = 'expires';
export const SIGNATURE_PARAM = 'signature';

/**
 * Expiries are rounded up to this step, so every item read within one step carries the same link
 * (equal bodies, cacheable `<img>` URLs); a link is valid for `ttl` to `ttl + step` seconds.
 */
const STEP_S = 60;

/** The longest a link may be valid (MEDIA_LINK_TTL_S's maximum, a week): a later expiry is never ours. */
export const MAX_LINK_TTL_S = 7 * 86400;

export interface MediaLinkOptions {
  /** The signing key: never the key that seals secrets. */
  readonly key: Buffer;
  /** How long a link stays valid, in seconds. */
  readonly ttlSeconds: number;
  /**
   * Where clients reach the API (`https://fleet.example.com`, no trailing slash): links are made
   * absolute under it, so a page on another origin opens them as given. Unset: `/api/media/...`.
   */
  readonly publicUrl?: string;
}

/** Why a link was refused, or `ok`. */
export type LinkVerdict = 'ok' | 'expired' | 'invalid';

export interface MediaLinks {
  /** The signed link of a media id (absolute under `publicUrl`), valid from `now` (ms) for the configured time. */
  href(id: string, now?: number): string;
  /** The signed path of a media id expiring at `expires` (unix seconds). */
  sign(id: string, expires: number): string;
  /** Checks the `expires` and `signature` parameters given with `id`. */
  verify(id: string, expires: string | undefined, signature: string | undefined, now?: number): LinkVerdict;
  /**
   * The `Cache-Control` of what a valid link opens: private (the link is the credential; no
   * shared cache keeps it), fresh until the link expires and no longer.
   */
  cacheControl(expires: string, now?: number): string;
}

/** A base64url HMAC-SHA256 is 43 characters. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
/**
 * An expiry as we write it: decimal digits without a leading zero. The signature covers the
 * number, so `0123` would pass as `123`: only one spelling of a link opens the file.
 */
const EXPIRY = /^(?:0|[1-9]\d{0,11})$/;

/** Signs and checks media links with `options.key`. */
export function mediaLinks(options: MediaLinkOptions): MediaLinks {
  const mac = (id: string, expires: number): Buffer =>
    createHmac('sha256', options.key).update(`media\n${id}\n${expires}`).digest();
  const sign = (id: string, expires: number): string =>
    `${options.publicUrl ?? ''}/api/media/${encodeURIComponent(id)}?${EXPIRES_PARAM}=${expires}&${SIGNATURE_PARAM}=${mac(id, expires).toString('base64url')}`;
  return {
    sign,
    href(id, now = Date.now()) {
      return sign(id, Math.ceil((now / 1000 + options.ttlSeconds) / STEP_S) * STEP_S);
    },
    verify(id, expires, signature, now = Date.now()) {
      if (
        expires === undefined ||
        signature === undefined ||
        !EXPIRY.test(expires) ||
        !SIGNATURE.test(signature)
      )
        return 'invalid';
      // Compared as text: base64url has several spellings of the last 2 bits; only ours is taken.
      const given = Buffer.from(signature);
      const expected = Buffer.from(mac(id, Number(expires)).toString('base64url'));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      // No link we sign lives longer than the longest TTL: a later expiry was not made by this service.
      if (Number(expires) * 1000 > now + (MAX_LINK_TTL_S + STEP_S) * 1000) return 'invalid';
      return Number(expires) * 1000 < now ? 'expired' : 'ok';
    },
    cacheControl(expires, now = Date.now()) {
      return `private, max-age=${Math.max(0, Math.floor(Number(expires) - now / 1000))}`;
    },
  };
}
