/**
 * ETags: a SHA-1 of the document's canonical JSON (keys sorted, `_etag` left out), stored in
 * `_etag` at every write so projections never change it (Eve's `document_etag`).
 */
import { createHash } from 'node:crypto';

function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      if (key !== '_etag') out[key] = canonical((value as Record<string, unknown>)[key]);
    }
    return out;
  }
  return value;
}

/** The ETag of a stored document. */
export function etagOf(doc: Record<string, unknown>): string {
  return createHash('sha1').update(JSON.stringify(canonical(doc))).digest('hex');
}

/** Whether an `If-Match` header value names this etag (quotes and `W/` accepted). */
export function etagMatches(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((v) => v.trim().replace(/^W\//, '').replace(/^"|"$/g, ''))
    .some((v) => v === etag || v === '*');
}
