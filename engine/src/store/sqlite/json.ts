/**
 * Documents as JSON text: datetimes go in as ISO-8601 strings (fixed width, so they sort and compare
 * as text in SQL) and come back as `Date` along the collection's declared datetime paths.
 */
import type { Doc } from '../port';

/** What `Date#toISOString` produces for years 0000-9999; anything else stays a string. */
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Serialises a document; `Date#toJSON` already yields the ISO string. */
export function encodeDoc(doc: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(doc);
}

/** Parses a stored document and revives its datetimes. */
export function decodeDoc(text: string, datetimePaths: readonly string[]): Doc {
  const doc = JSON.parse(text) as Doc;
  for (const path of datetimePaths) reviveAt(doc, path.split('.'), 0);
  return doc;
}

/** Walks one dotted path; arrays met on the way are entered element by element. */
function reviveAt(node: unknown, segments: readonly string[], index: number): void {
  if (Array.isArray(node)) {
    for (const element of node) reviveAt(element, segments, index);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  const key = segments[index];
  if (key === undefined || !(key in record)) return;
  if (index < segments.length - 1) {
    reviveAt(record[key], segments, index + 1);
    return;
  }
  record[key] = revive(record[key]);
}

/** A datetime leaf, or an array of them (a list of timestamps). */
function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  return typeof value === 'string' && ISO_DATETIME.test(value) ? new Date(value) : value;
}
