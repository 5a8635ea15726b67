/**
 * Fields every store-level write of a resource item must refresh: `_updated`, and a new `_etag`
 * (ETags are opaque: a fresh random value invalidates cached copies just as a hash would).
 */
import { randomBytes } from 'node:crypto';

/** `$set` members marking an item as changed at `now`. */
export function touched(now: Date): { _updated: Date; _etag: string } {
  return { _updated: now, _etag: randomBytes(20).toString('hex') };
}
