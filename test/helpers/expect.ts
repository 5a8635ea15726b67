/**
 * Assertions that know the API's shapes: the Eve collection envelope with its pagination links,
 * and the one error body. They keep each test about the behaviour it checks.
 */
import type { Response } from 'supertest';

/** RFC 1123 as the API renders every date: `Wed, 25 Nov 2026 21:08:02 GMT`. */
export const RFC1123 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

export interface Link {
  title: string;
  href: string;
}

export interface Envelope {
  _items: Record<string, unknown>[];
  _links: { parent: Link; self: Link; prev?: Link; next?: Link; last?: Link };
  _meta: { page: number; max_results: number; total: number };
}

export interface PageExpectation {
  readonly page: number;
  readonly maxResults: number;
  readonly total: number;
}

/**
 * Checks a collection page: 200, `_items/_links/_meta` in that order, `_meta` and `X-Total-Count`,
 * the number of items on this page, `parent`, and which of prev/next/last exist (Eve's rules:
 * prev iff page > 1, next and last iff page * max_results < total). Returns the typed body.
 */
export function expectEnvelope(res: Response, expected: PageExpectation): Envelope {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.body as Envelope;
  expect(Object.keys(body)).toEqual(['_items', '_links', '_meta']);
  expect(body._meta).toEqual({
    page: expected.page,
    max_results: expected.maxResults,
    total: expected.total,
  });
  expect(res.headers['x-total-count']).toBe(String(expected.total));
  const onPage = Math.max(
    0,
    Math.min(expected.maxResults, expected.total - (expected.page - 1) * expected.maxResults),
  );
  expect(body._items).toHaveLength(onPage);
  expect(body._links.parent).toEqual({ title: 'home', href: '/' });
  expect(typeof body._links.self.href).toBe('string');
  expect(body._links.self.href.startsWith('/')).toBe(false);
  const more = expected.page * expected.maxResults < expected.total;
  expect(Object.keys(body._links).sort()).toEqual(
    ['parent', 'self', ...(expected.page > 1 ? ['prev'] : []), ...(more ? ['next', 'last'] : [])].sort(),
  );
  if (body._links.prev) expect(body._links.prev.title).toBe('previous page');
  if (body._links.next) expect(body._links.next.title).toBe('next page');
  if (body._links.last) expect(body._links.last.title).toBe('last page');
  return body;
}

export interface ErrorExpectation {
  /** Fields that must have an issue: top-level names, or dotted paths into the nested `_issues`. */
  readonly issues?: readonly string[];
}

/** `_issues` nest like the document: a message, or the issues of a sub-document. */
export interface Issues {
  [field: string]: string | Issues;
}

export interface EveError {
  _status: 'ERR';
  _error: { code: number; message: string };
  _issues?: Issues;
}

/** The issue at a dotted path of nested `_issues` (a message or a sub-map), or undefined. */
export function issueAt(issues: Issues | undefined, path: string): string | Issues | undefined {
  let node: string | Issues | undefined = issues;
  for (const key of path.split('.')) node = typeof node === 'object' ? node[key] : undefined;
  return node;
}

/**
 * Checks an error response: the status, `{"_status": "ERR", "_error": {"code", "message"}}` (plus
 * `_issues` naming `issues` when given), JSON, and no stack trace in the body.
 */
export function expectEveError(res: Response, status: number, expected: ErrorExpectation = {}): EveError {
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.body as EveError;
  expect(body._status).toBe('ERR');
  expect(Object.keys(body._error).sort()).toEqual(['code', 'message']);
  expect(body._error.code).toBe(status);
  expect(typeof body._error.message).toBe('string');
  expect(body._error.message.length).toBeGreaterThan(0);
  expect(Object.keys(body).every((k) => ['_status', '_error', '_issues'].includes(k))).toBe(true);
  expect(res.text).not.toMatch(/\n\s+at .+:\d+:\d+/);
  if (expected.issues) {
    expect(body._issues).toBeDefined();
    for (const field of expected.issues)
      expect({ field, issue: issueAt(body._issues, field) }).toEqual({ field, issue: expect.anything() });
  }
  return body;
}
