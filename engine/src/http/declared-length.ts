/**
 * Bodies refused by their declared size, before a byte of them is read: a client that announces
 * 100 MB where 1 MB is the most a route takes gets its 413 at once, instead of after the server
 * read (or spooled to disk) the whole body only to throw it away. The answer closes the connection
 * (`Connection: close`): the unread rest of the body cannot be skipped cheaply. A body without a
 * Content-Length (chunked) is bounded as it is read, by the parsers' own limits.
 */
import type { Request } from 'express';
import { HttpError } from '../errors';

/** The request's Content-Length as a number, when it gives a valid one (Node's parser checked its syntax). */
export function declaredLength(req: Request): number | undefined {
  const raw = req.headers['content-length'];
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

/** Throws the 413 (closing the connection) when the declared length passes `limit`; `allowed` says what is. */
export function refuseDeclaredOver(req: Request, limit: number, allowed: string): void {
  const length = declaredLength(req);
  if (length === undefined || length <= limit) return;
  throw new HttpError(
    413,
    `The request body is ${length} bytes by its Content-Length, more than ${allowed}`,
    undefined,
    { Connection: 'close' },
  );
}
