/**
 * `POST /<resource>`: one document (a JSON object, a form, or multipart with uploads) or a JSON
 * array of them, created all or nothing (Eve's `post_internal`). A failing bulk answers one status
 * per submitted document (rendered by the error handler); a one-element array is answered as a
 * single document is, as Eve does (`if len(results) == 1: response = results.pop(0)`).
 */
import type { Request, RequestHandler } from 'express';
import type { CompiledResource } from '../compile/compile';
import { BadRequest, PayloadTooLarge } from '../errors';
import type { ApiContext } from './context';
import { acceptBody, callContext, jsonObject, writeBody } from './handlers';
import { multipartBody, multipartParser } from './multipart';
import { renderText } from './render';
import { sendJson } from './results';

/** Most documents in one bulk POST (docs/limits.md): a bigger batch is a 413 naming the limit. */
export const MAX_BULK_DOCUMENTS = 1000;

/** The documents of a JSON array body: bounded, each an object, media fields only as uploads. */
function bulkBodies(res: CompiledResource, body: readonly unknown[]): Record<string, unknown>[] {
  const files = res.mediaFields.filter((name) => res.def.fields[name]?.required === true);
  // Each document needs a file, which only multipart carries: there is no bulk create (the
  // OpenAPI document answers such a create with one item, never a list).
  if (files.length > 0)
    throw new BadRequest(
      `POST /${res.name}: no bulk insert; upload one document at a time as multipart/form-data (with ${files.join(', ')})`,
    );
  if (body.length === 0) throw new BadRequest('Empty bulk insert');
  if (body.length > MAX_BULK_DOCUMENTS) {
    throw new PayloadTooLarge(
      `POST /${res.name}: at most ${MAX_BULK_DOCUMENTS} documents per bulk insert, got ${body.length}`,
    );
  }
  return body.map((doc, i) => {
    const fields = jsonObject(doc, `element ${i}`);
    const given = res.mediaFields.filter((name) => Object.hasOwn(fields, name));
    // A JSON array cannot carry files: a request-level refusal, not one document's issue.
    if (given.length > 0)
      throw new BadRequest(
        `POST /${res.name}: element ${i} names ${given.join(', ')}; upload files one document at a time as multipart/form-data`,
      );
    return fields;
  });
}

/** The POST handlers of a resource: body parsing, then the local API's `createMany`. */
export function createHandlers(api: ApiContext, res: CompiledResource): RequestHandler[] {
  const collection = api.runtime.resources.get(res.name);
  const upload = res.mediaFields.length > 0 ? multipartParser(res, api.limits.maxUploadBytes) : undefined;
  const create: RequestHandler = async (req: Request, resp) => {
    const ctx = callContext(api, resp);
    let stored: string[] = [];
    let bodies: Record<string, unknown>[];
    if (req.is('multipart/form-data')) {
      const parsed = await multipartBody(
        res,
        req.body,
        req.files as Record<string, Express.Multer.File[]> | undefined,
        api.runtime.media,
      );
      stored = parsed.stored;
      bodies = [parsed.body];
    } else if (Array.isArray(req.body)) {
      bodies = bulkBodies(res, req.body as unknown[]);
    } else bodies = [writeBody(res, req.body)];
    try {
      const docs = await collection.createMany(bodies, ctx);
      const first = docs[0];
      if (first) resp.setHeader('Location', `/api/${res.name}/${encodeURIComponent(first._id)}`);
      // One created item: its version, as a PATCH answers it (a bulk answer has one per item).
      if (first && docs.length === 1) resp.setHeader('ETag', `"${first._etag}"`);
      const rendered = docs.map((d) => renderText(res, d, { mode: 'write', registry: api.registry }));
      sendJson(
        req,
        resp,
        rendered.length === 1 ? (rendered[0] ?? '') : `{"_status":"OK","_items":[${rendered.join(',')}]}`,
        201,
      );
    } catch (err) {
      await Promise.all(stored.map((id) => api.runtime.media.delete(id)));
      throw err;
    }
  };
  return [acceptBody(res, upload), create];
}
