/**
 * What every handler shares: authentication and the role check, the call context, write bodies
 * (JSON, forms, uploads), and the parsed query of a request as the local API takes it.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { CompiledResource } from '../compile/compile';
import { issueMessage } from '../compile/zod';
import type { CallContext, Principal } from '../definition/local-api';
import type { Role } from '../definition/fields';
import { BadRequest, Unprocessable, UnsupportedMediaType } from '../errors';
import { requireRole } from '../ops/access';
import { stampNow } from '../ops/clock';
import type { ApiContext } from './context';
import { formBody } from './form';
import { booleanParam } from '../query/params';

/** The call context of a request (principal set by `guard`). */
export function callContext(api: ApiContext, res: Response): CallContext {
  return { principal: res.locals.principal as Principal, now: stampNow(), runtime: api.runtime };
}

/**
 * Authenticates, checks the role and asks the admission policy (rate limits) about the route
 * matched, by its one identity `action`; stores the principal for the handler.
 */
export function guard(api: ApiContext, role: Role, action: string, execution = false): RequestHandler {
  return (req, res, next) => {
    const principal = api.authenticator.authenticate(req.get('authorization'));
    requireRole(principal, role, action);
    api.admit?.(principal, { method: req.method, action, execution });
    res.locals.principal = principal;
    next();
  };
}

/** Everything `query` carries besides the common parameters, as single strings (for `afterRead`). */
export function extraParams(query: Request['query']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** Whether the request shows soft-deleted items of the resource. */
export function showDeleted(res: CompiledResource, req: Request): boolean {
  return res.softDelete ? booleanParam(res.softDelete.param, req.query[res.softDelete.param]) : false;
}

/**
 * The bodies a write accepts, as Eve's `payload()` does: JSON (parsed by the API router),
 * `application/x-www-form-urlencoded` (values converted to the field types), and
 * `multipart/form-data` where the resource has media (`upload`). Anything else is a 415.
 */
export function acceptBody(res: CompiledResource, upload?: RequestHandler): RequestHandler {
  const form = formBody(res);
  return (req, resp, next) => {
    if (req.is('application/json')) return next();
    if (req.is('application/x-www-form-urlencoded')) return form(req, resp, next);
    if (upload && req.is('multipart/form-data')) return upload(req, resp, next);
    throw new UnsupportedMediaType(
      `Send the body as application/json or application/x-www-form-urlencoded${upload ? ', or multipart/form-data' : ''}`,
    );
  };
}

/** The body (or `what` of it: an element of a bulk array) as an object; anything else is a 400. */
export function jsonObject(body: unknown, what?: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new BadRequest(
      what === undefined
        ? 'The body must be a JSON object'
        : `The body must be a JSON object or an array of them: ${what} is not an object`,
    );
  return body as Record<string, unknown>;
}

/** A write body; media fields come only as uploads (an id given as text could point at another item's bytes). */
export function writeBody(res: CompiledResource, body: unknown): Record<string, unknown> {
  const fields = jsonObject(body);
  const given = res.mediaFields.filter((name) => name in fields);
  if (given.length > 0) {
    throw new Unprocessable(
      `${res.name}: upload ${given.join(', ')} as a file part of multipart/form-data`,
      Object.fromEntries(given.map((n) => [n, issueMessage('upload')])),
    );
  }
  return fields;
}

/** The `If-Match` header, when given. */
export function ifMatchOf(req: Request): { ifMatch?: string } {
  const value = req.get('if-match');
  return value === undefined ? {} : { ifMatch: value };
}
