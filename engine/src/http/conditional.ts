/**
 * Caching validators as Eve sets them (`eve/methods/get.py`): `Last-Modified` on item and
 * collection GETs, `If-None-Match` / `If-Modified-Since` answered with 304 on items only. Eve
 * never answers 304 for a collection (`_perform_find`: "If-Modified-Since disabled on collections
 * (#334)", and a collection has no ETag of its own).
 */
import type { Request, RequestHandler, Response } from 'express';
import { etagMatches } from '../ops/etag';
import type { Doc } from '../store/port';
import { formatHttpDate, parseHttpDate } from './dates';

/**
 * Conditional requests are decided by the handlers, never by Express: `res.send` answers 304
 * whenever `req.fresh`, which is true for any `If-None-Match: *` (and for `If-Modified-Since`
 * against a `Last-Modified`), so a collection GET or a route's body would be a 304 Eve never sends.
 */
export const handlersDecideFreshness: RequestHandler = (req, _res, next) => {
  // Without a validator in the request Express finds nothing fresh anyway (fresh/index.js): the
  // override (a new own property on every request object) is needed only when one is given.
  if (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined) {
    Object.defineProperty(req, 'fresh', { value: false, configurable: true });
  }
  next();
};

/** A document's `_updated`, when it has one. */
function updatedOf(doc: unknown): Date | null {
  if (typeof doc !== 'object' || doc === null) return null;
  const updated = (doc as Record<string, unknown>)._updated;
  return updated instanceof Date ? updated : null;
}

/**
 * The newest `_updated` of `docs`; with `embedded`, the single items embedded in them count too
 * (Eve: "we don't want to respond 304 if embedded fields have changed"). Null when none is after
 * the epoch (Eve sends no Last-Modified then).
 */
export function lastModifiedOf(docs: readonly Doc[], embedded: readonly string[] = []): Date | null {
  let newest = 0;
  for (const doc of docs) {
    for (const value of [doc, ...embedded.map((field) => doc[field])]) {
      const at = updatedOf(value)?.getTime() ?? 0;
      if (at > newest) newest = at;
    }
  }
  return newest > 0 ? new Date(newest) : null;
}

/** Sets `Last-Modified` (RFC 1123) when there is a date to send. */
export function setLastModified(resp: Response, at: Date | null): void {
  if (at !== null) resp.setHeader('Last-Modified', formatHttpDate(at));
}

/**
 * Whether an item GET is a 304: at least one validator given, and every one given agrees (Eve's
 * `cache_validators`). `If-Modified-Since` allows the second Eve allows (`weak_date`: stored
 * dates are finer than the header's), and is ignored when it is not an HTTP date (RFC 9110
 * §13.1.3; Eve answers 500 there).
 */
export function notModified(
  req: Request,
  item: { readonly etag: string; readonly lastModified: Date | null },
): boolean {
  const verdicts: boolean[] = [];
  const inm = req.get('if-none-match');
  // Quoted or not, weak or strong, a list or `*`, as RFC 9110 §13.1.2 compares them.
  if (inm !== undefined) verdicts.push(etagMatches(inm, item.etag));
  const ims = parseHttpDate(req.get('if-modified-since'));
  if (ims !== null)
    verdicts.push(item.lastModified !== null && item.lastModified.getTime() <= ims.getTime() + 1000);
  return verdicts.length > 0 && verdicts.every(Boolean);
}
