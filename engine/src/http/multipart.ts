/**
 * `multipart/form-data` bodies (a file's `name` and `data`): Multer spools each upload to a temp
 * file under the size limit, then the bytes are streamed into the media store. Text parts are
 * converted to their declared field types.
 */
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { RequestHandler } from 'express';
import multer from 'multer';
import type { CompiledResource } from '../compile/compile';
import type { MediaStore } from '../store/port';

/** Multer middleware for a resource's media fields. */
export function multipartParser(res: CompiledResource, maxUploadBytes: number): RequestHandler {
  return multer({
    dest: tmpdir(),
    limits: { fileSize: maxUploadBytes, files: Math.max(1, res.mediaFields.length), fields: 100, fieldSize: 1024 * 1024 },
  }).fields(res.mediaFields.map((name) => ({ name, maxCount: 1 })));
}

/** Converts a text part to the field's declared type where it is unambiguous. */
function convertText(res: CompiledResource, name: string, value: string): unknown {
  const field = res.def.fields[name];
  switch (field?.kind) {
    case 'integer':
    case 'number':
      return value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
    case 'boolean':
      return value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;
    case 'object':
    case 'array':
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value;
      }
    default:
      return value;
  }
}

type UploadedFiles = Record<string, Express.Multer.File[]>;

/** Stores the uploaded files and returns the body with media ids; `stored` lists them for rollback. */
export async function multipartBody(
  res: CompiledResource,
  fields: Record<string, unknown>,
  files: UploadedFiles | undefined,
  media: MediaStore,
): Promise<{ body: Record<string, unknown>; stored: string[] }> {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) body[k] = typeof v === 'string' ? convertText(res, k, v) : v;
  const stored: string[] = [];
  try {
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
  } finally {
    await Promise.all(Object.values(files ?? {}).flat().map((f) => unlink(f.path).catch(() => undefined)));
  }
  return { body, stored };
}
