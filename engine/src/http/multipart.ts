/**
 * `multipart/form-data` bodies (a file's `name` and `data`): Multer spools each upload to a temp
 * file under the size limit, then the bytes are streamed into the media store. Text parts are
 * converted to their declared field types as form fields are (form.ts).
 */
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { RequestHandler } from 'express';
import multer from 'multer';
import type { CompiledResource } from '../compile/compile';
import type { MediaStore } from '../store/port';
import { formFields } from './form';
import { writeBody } from './handlers';

/** Multer middleware for a resource's media fields. */
export function multipartParser(res: CompiledResource, maxUploadBytes: number): RequestHandler {
  return multer({
    dest: tmpdir(),
    // Browsers send a UTF-8 filename without an explicit charset (RFC 7578 §4.2); latin1 garbles it.
    defParamCharset: 'utf8',
    // `a[b][c]` names nest into objects: bounded like JSON bodies, before anything walks them.
    limits: {
      fileSize: maxUploadBytes,
      files: Math.max(1, res.mediaFields.length),
      fields: 100,
      fieldSize: 1024 * 1024,
      fieldNestingDepth: 4,
    },
  }).fields(res.mediaFields.map((name) => ({ name, maxCount: 1 })));
}

type UploadedFiles = Record<string, Express.Multer.File[]>;

/**
 * Stores the uploaded files and returns the body with media ids; `stored` lists them for rollback.
 * The spooled temp files are removed whatever happens, a refused text part included.
 */
export async function multipartBody(
  res: CompiledResource,
  fields: unknown,
  files: UploadedFiles | undefined,
  media: MediaStore,
): Promise<{ body: Record<string, unknown>; stored: string[] }> {
  const stored: string[] = [];
  try {
    const body = formFields(res, writeBody(res, fields ?? {}));
    for (const [name, list] of Object.entries(files ?? {})) {
      const file = list[0];
      if (!file) continue;
      const info = await media.put(createReadStream(file.path), {
        filename: file.originalname,
        contentType: file.mimetype || 'application/octet-stream',
      });
      stored.push(info.id);
      body[name] = info.id;
      if (res.def.fields.name?.kind === 'string' && body.name === undefined) body.name = file.originalname;
    }
    return { body, stored };
  } finally {
    await Promise.all(
      Object.values(files ?? {})
        .flat()
        .map((f) => unlink(f.path).catch(() => undefined)),
    );
  }
}
